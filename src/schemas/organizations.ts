/** Schemas of the organization fields of. */
import { Type } from '@sinclair/typebox';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const AddressList = Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20, description: 'e-mail addresses' });

/** The fields to change (each optional; `null` empties a list or clears the slug and the SIRET). */
export const OrgSettingsBody = Type.Object({
  email_notifs: Type.Optional(Type.Union([AddressList, Type.Null()])),
  email_notifs_cc: Type.Optional(Type.Union([AddressList, Type.Null()])),
  virements_salaires: Type.Optional(Type.String({ description: 'Odentas (the operator pays the salaries) or client' })),
  documents_slug: Type.Optional(Type.Union([Type.String({ maxLength: 100, description: 'unique, URL-safe: a-z, 0-9, -' }), Type.Null()])),
  siret: Type.Optional(Type.Union([Type.String({ maxLength: 20, description: '14 digits' }), Type.Null()])),
  // Left loose for the validator: the rules answer invalid_effectif / invalid_taux_at in French.
  effectif: Type.Optional(Type.Unsafe<unknown>({ description: 'The headcount, an integer of at least 1 (default 1)', examples: [12] })),
  convention: Type.Optional(Type.String({ maxLength: 40, description: 'SVP (default) or droit_commun' })),
  categorie_juridique: Type.Optional(
    Type.String({ maxLength: 40, description: 'Association (default), SARL, SAS, SELARL, SELAS, EI or autre' }),
  ),
  taux_at: Type.Optional(
    Type.Unsafe<unknown>({ description: 'The AT/MP rate, a percentage as vat_rate ("2.30", 1.5, 0; 0 to 100, two decimals at most); null clears it (the model\'s default)', examples: ['2.30'] }),
  ),
  // Left loose for the validator: the rules answer invalid_address_line / invalid_postcode / invalid_city / invalid_country in French.
  address_line: Type.Optional(Type.Unsafe<unknown>({ description: "The buyer's street line on invoices (200 characters at most); null clears it", examples: ['3 place du Théâtre'] })),
  postcode: Type.Optional(Type.Unsafe<unknown>({ description: 'The postcode (five digits in France); null clears it', examples: ['69001'] })),
  city: Type.Optional(Type.Unsafe<unknown>({ description: 'The city (100 characters at most); null clears it', examples: ['Lyon'] })),
  country: Type.Optional(Type.Unsafe<unknown>({ description: 'ISO 3166 alpha-2 (default FR); null resets it to FR', examples: ['FR'] })),
  ape_code: Type.Optional(Type.Unsafe<unknown>({ description: 'The bulletin: the NAF (APE) code, 4 digits and a letter, a dot allowed after the second digit (9001Z, 90.01Z), stored 9001Z; null clears it', examples: ['9001Z'] })),
  urssaf: Type.Optional(Type.Unsafe<unknown>({ description: 'The bulletin: the URSSAF the contributions are paid to (120 characters at most); null clears it', examples: ['Urssaf Île-de-France'] })),
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
