/** Schemas of the organization fields of MODULES 2. */
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
  created_at: Type.String({ format: 'date-time' }),
});
