/** Schemas of the organization fields of. */
import { Type } from '@sinclair/typebox';
import { Checked } from './fields.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const AddressList = Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20, description: 'e-mail addresses' });

/** The largest headcount the `integer` column holds. */
export const EFFECTIF_MAX = 2_147_483_647;
/** The longest address line and city. */
export const ADDRESS_LINE_MAX = 200;
export const CITY_MAX = 100;
/** The bulletin: the longest URSSAF name ("Urssaf Provence-Alpes-Côte d'Azur"). */
export const URSSAF_MAX = 120;

const invalid = (field: string, label: string) => ({ code: `invalid_${field}`, message: `${label} n'est pas valide.` });
/** A text of the address, checked once its spaces are folded (the rules: `org-settings.rules.ts`). */
const addressText = (field: string, max: number, label: string, description: string, example: string) =>
  Checked(Type.String({ maxLength: max, 'x-text': 'line', description, examples: [example] }), invalid(field, `${label} (${max} caractères au plus)`));

// The payroll inputs and the address are checked by the rules (the command line's `org update`
// gives them too), each at its turn; `null` or blank clears one.
export const OrgSettingsFields = {
  effectif: Checked(
    Type.Union([Type.Integer({ minimum: 1, maximum: EFFECTIF_MAX }), Type.String({ pattern: '^\\s*[0-9]+\\s*$' })], {
      description: 'The headcount, an integer of at least 1 (default 1), or its digits',
      examples: [12],
    }),
    invalid('effectif', "L'effectif (un nombre entier de salariés, au moins 1)"),
  ),
  taux_at: Checked(
    Type.Union([Type.String(), Type.Number()], {
      'x-decimal': 'rate',
      description: 'The AT/MP rate, a percentage as vat_rate ("2.30", 1.5, 0; 0 to 100, two decimals at most); null clears it (the model\'s default)',
      examples: ['2.30'],
    }),
    invalid('taux_at', 'Le taux AT/MP (de 0 à 100, deux décimales au plus)'),
  ),
  address_line: addressText(
    'address_line',
    ADDRESS_LINE_MAX,
    "L'adresse",
    "The buyer's street line on invoices (200 characters at most, spaces folded); null clears it",
    '3 place du Théâtre',
  ),
  // Its shape and its refusal's wording depend on the country: the rules check it.
  postcode: Checked(
    Type.Union([Type.String(), Type.Number()], {
      description: 'The postcode (five digits in France; elsewhere 2 to 12 letters, digits, spaces or hyphens); null clears it',
      examples: ['69001'],
    }),
    invalid('postcode', 'Le code postal'),
  ),
  city: addressText('city', CITY_MAX, 'La ville', 'The city (100 characters at most, spaces folded); null clears it', 'Lyon'),
  // Checked once trimmed and in upper case.
  country: Checked(
    Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 alpha-2, any case (default FR); null resets it to FR', examples: ['FR'] }),
    invalid('country', 'Le pays (code ISO 3166 à deux lettres : FR, BE…)'),
  ),
  ape_code: Checked(
    Type.String({
      pattern: '^\\d{2}\\.?\\d{2}[A-Z]$',
      description:
        'The bulletin: the NAF (APE) code, 4 digits and a letter, a dot allowed after the second digit (9001Z, 90.01Z), any case, stored 9001Z; null clears it',
      examples: ['9001Z'],
    }),
    invalid('ape_code', 'Le code APE (quatre chiffres et une lettre, par exemple 9001Z ou 90.01Z)'),
  ),
  urssaf: addressText(
    'urssaf',
    URSSAF_MAX,
    "L'URSSAF de recouvrement",
    'The bulletin: the URSSAF the contributions are paid to (120 characters at most, spaces folded); null clears it',
    'Urssaf Île-de-France',
  ),
};

/** The fields to change (each optional; `null` empties a list or clears the slug and the SIRET). */
export const OrgSettingsBody = Type.Object({
  email_notifs: Type.Optional(Type.Union([AddressList, Type.Null()])),
  email_notifs_cc: Type.Optional(Type.Union([AddressList, Type.Null()])),
  virements_salaires: Type.Optional(Type.String({ description: 'Odentas (the operator pays the salaries) or client' })),
  documents_slug: Type.Optional(Type.Union([Type.String({ maxLength: 100, description: 'unique, URL-safe: a-z, 0-9, -' }), Type.Null()])),
  siret: Type.Optional(Type.Union([Type.String({ maxLength: 20, description: '14 digits' }), Type.Null()])),
  effectif: Type.Optional(OrgSettingsFields.effectif),
  convention: Type.Optional(Type.String({ maxLength: 40, description: 'SVP (default) or droit_commun' })),
  categorie_juridique: Type.Optional(Type.String({ maxLength: 40, description: 'Association (default), SARL, SAS, SELARL, SELAS, EI or autre' })),
  taux_at: Type.Optional(OrgSettingsFields.taux_at),
  address_line: Type.Optional(OrgSettingsFields.address_line),
  postcode: Type.Optional(OrgSettingsFields.postcode),
  city: Type.Optional(OrgSettingsFields.city),
  country: Type.Optional(OrgSettingsFields.country),
  ape_code: Type.Optional(OrgSettingsFields.ape_code),
  urssaf: Type.Optional(OrgSettingsFields.urssaf),
});

export const Organization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  structure_api: NullableString,
  email_notifs: Type.Array(Type.String()),
  email_notifs_cc: Type.Array(Type.String()),
  virements_salaires: Type.String(),
  documents_slug: NullableString,
  siret: NullableString,
  effectif: Type.Integer({ minimum: 1 }),
  convention: Type.String({ description: 'SVP or droit_commun' }),
  categorie_juridique: Type.String({ description: 'association, SARL, SAS, SELARL, SELAS, EI or autre' }),
  taux_at: Type.Union([Type.String({ description: 'percentage, two decimals' }), Type.Null()], { description: "the AT/MP rate; null: the model's default" }),
  address_line: NullableString,
  postcode: NullableString,
  city: NullableString,
  country: Type.String({ description: 'ISO 3166 alpha-2' }),
  ape_code: Type.Union([Type.String({ description: 'NAF code, e.g. 9001Z' }), Type.Null()]),
  urssaf: NullableString,
  created_at: Type.String({ format: 'date-time' }),
});
