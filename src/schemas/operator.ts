/** Schemas of the operator's settings (`/api/staff/operator`): its identity and bank account. */
import { Type } from '@sinclair/typebox';

// Left loose for the validator: the operator's rules answer invalid_<field> in French.
const Setting = (description: string, example: string) =>
  Type.Optional(Type.Unsafe<unknown>({ description: `${description}; "" saves "none", null goes back to the environment variable`, examples: [example] }));

/** The settings to change, each optional. */
export const OperatorSettingsBody = Type.Object({
  name: Setting('The name on invoices and as debtor of SEPA files (200 characters at most, not empty)', 'Odentas Paie SAS'),
  siren: Setting('Nine digits (the SIRET gives it when set)', '552100554'),
  siret: Setting('Fourteen digits, starting with the SIREN', '55210055400013'),
  vat: Setting('The intra-community VAT number: two letters, then 2 to 13 letters or digits', 'FR40552100554'),
  address: Setting('The street line (200 characters at most)', '12 rue de la Paix'),
  postcode: Setting('Five digits', '75002'),
  city: Setting('The city (200 characters at most)', 'Paris'),
  iban: Setting('The account salaries are paid from and invoices paid to', 'FR7630006000011234567890189'),
  bic: Setting('8 or 11 characters', 'AGRIFRPP'),
});

const FIELD = Type.String({ description: 'name, siren, siret, vat, address, postcode, city, iban or bic' });

export const OperatorSettings = Type.Object({
  name: Type.String(),
  siren: Type.String({ description: 'nine digits, or empty' }),
  siret: Type.String({ description: 'fourteen digits, or empty' }),
  vat: Type.String(),
  address: Type.String(),
  postcode: Type.String(),
  city: Type.String(),
  iban: Type.Union([Type.String(), Type.Null()]),
  bic: Type.Union([Type.String(), Type.Null()]),
  saved: Type.Array(FIELD, { description: 'the settings saved here; the others are the environment variables (the defaults)' }),
  missing: Type.Object(
    {
      invoices: Type.Array(FIELD, { description: 'unset: no invoice document (Factur-X) is produced' }),
      sepa: Type.Array(FIELD, { description: 'unset or not valid: no SEPA file, so no salary transfer batch, and no invoice paid by transfer' }),
    },
    { description: 'what each missing setting disables' },
  ),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
