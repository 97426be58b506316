/**
 * A complete operator (the seller of Factur-X invoices): what the Factur-X tests and
 * the bench's Factur-X scenario set on the service (without it: 409 `operator_identity_missing`).
 */
export const FACTUR_X_OPERATOR_ENV: Record<string, string> = {
  OPERATOR_NAME: 'Odentas Paie SAS',
  OPERATOR_SIRET: '81234567800021',
  OPERATOR_VAT_ID: 'FR40812345678',
  OPERATOR_ADDRESS: '12 rue de la Paix',
  OPERATOR_POSTCODE: '75002',
  OPERATOR_CITY: 'Paris',
  OPERATOR_IBAN: 'FR7630006000011234567890189',
  OPERATOR_BIC: 'AGRIFRPP',
};
