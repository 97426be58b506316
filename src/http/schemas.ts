/** Schemas shared by every route. */
import { Type } from '@sinclair/typebox';

/** SPEC 7: `{ error, message? }`. */
export const ErrorBody = Type.Object(
  { error: Type.String(), message: Type.Optional(Type.String()) },
  { $id: 'ErrorBody', description: 'Every JSON error (SPEC 7)' },
);

/** SPEC 7: the plain-text 401 `Unauthorized` and 403 `Forbidden`. */
export const PlainText = Type.String({ description: 'plain text: `Unauthorized` or `Forbidden`' });

/** `{ ok: true, message }`: the answer of a change that returns nothing else. */
export const OkMessage = Type.Object({ ok: Type.Literal(true), message: Type.String() });
