/** Schemas of the operator's settings (`/api/staff/operator`): its identity and bank account. */
import { Type } from '@sinclair/typebox';
import { OPERATOR_SHAPES, OPERATOR_TEXT_MAX, type OperatorField } from '../operator.rules.ts';
import { Checked } from './fields.ts';

/**
 * A setting, checked by the operator's rules once written as they write it (`normalizeOperatorValue`:
 * identifiers without spaces, bank and VAT ones in upper case, texts trimmed): an identifier of
 * its shape, a text of at most 200 characters under the text rule of every other field (no
 * control character, no bidirectional override: the name is printed on invoices and SEPA files).
 */
const setting = (field: OperatorField, label: string, description: string, example: string) =>
  Checked(
    Type.String({
      ...(OPERATOR_SHAPES[field] ? { pattern: OPERATOR_SHAPES[field].source } : { maxLength: OPERATOR_TEXT_MAX, 'x-text': 'line' }),
      description: `${description}; "" saves "none", null goes back to the environment variable`,
      examples: [example],
    }),
    { code: `invalid_${field}`, message: `${label} n'est pas valide.` },
  );

export const OperatorSettingFields = {
  name: setting(
    'name',
    'Le nom (200 caractères au plus)',
    'The name on invoices and as debtor of SEPA files (200 characters at most, not empty)',
    'Odentas Paie SAS',
  ),
  siren: setting('siren', 'Le SIREN (9 chiffres)', 'Nine digits (the SIRET gives it when set)', '552100554'),
  siret: setting('siret', 'Le SIRET (14 chiffres)', 'Fourteen digits, starting with the SIREN', '55210055400013'),
  vat: setting(
    'vat',
    'Le numéro de TVA intracommunautaire (deux lettres, puis 2 à 13 lettres ou chiffres)',
    'The intra-community VAT number: two letters, then 2 to 13 letters or digits',
    'FR40552100554',
  ),
  address: setting('address', "L'adresse (200 caractères au plus)", 'The street line (200 characters at most)', '12 rue de la Paix'),
  postcode: setting('postcode', 'Le code postal (cinq chiffres)', 'Five digits', '75002'),
  city: setting('city', 'La ville (200 caractères au plus)', 'The city (200 characters at most)', 'Paris'),
  iban: setting('iban', "L'IBAN", 'The account salaries are paid from and invoices paid to', 'FR7630006000011234567890189'),
  bic: setting('bic', 'Le BIC (8 ou 11 caractères)', '8 or 11 characters', 'AGRIFRPP'),
} satisfies Record<OperatorField, unknown>;

/** The settings to change, each optional. */
export const OperatorSettingsBody = Type.Object({
  name: Type.Optional(OperatorSettingFields.name),
  siren: Type.Optional(OperatorSettingFields.siren),
  siret: Type.Optional(OperatorSettingFields.siret),
  vat: Type.Optional(OperatorSettingFields.vat),
  address: Type.Optional(OperatorSettingFields.address),
  postcode: Type.Optional(OperatorSettingFields.postcode),
  city: Type.Optional(OperatorSettingFields.city),
  iban: Type.Optional(OperatorSettingFields.iban),
  bic: Type.Optional(OperatorSettingFields.bic),
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
