/** Schemas of the access API. */
import { Type } from '@sinclair/typebox';

const Timestamp = Type.String({ format: 'date-time' });
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** With `activated`. */
export const AccessItem = Type.Object({
  org_id: NullableString,
  user_id: Type.String({ format: 'uuid' }),
  first_name: NullableString,
  email: Type.String(),
  role: Type.String(),
  created_at: Timestamp,
  revoked: Type.Boolean(),
  revoked_at: Type.Union([Timestamp, Type.Null()]),
  activated: Type.Boolean(),
});

export const AccessList = Type.Object({ items: Type.Array(AccessItem) });

export const AddMemberBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320, description: 'trimmed and lower-cased; required' })),
  role: Type.Optional(Type.String({ maxLength: 40, description: 'ADMIN, AGENT or COMPTA (default AGENT); upper-cased' })),
  first_name: Type.Optional(Type.String({ maxLength: 200 })),
  org_id: Type.Optional(Type.String({ maxLength: 100, description: 'used only when no organization resolves from the session' })),
});

export const UserIdParams = Type.Object({ user_id: Type.String({ maxLength: 100 }) });

export const AccessEvent = Type.Object({
  id: Type.String(),
  org_id: NullableString,
  action: Type.String(),
  actor_user_id: NullableString,
  actor_email: NullableString,
  target_user_id: NullableString,
  target_email: NullableString,
  old_role: NullableString,
  new_role: NullableString,
  created_at: Timestamp,
});

export const AccessEventsQuery = Type.Object({
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'the next_cursor of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

export const AccessEventsPage = Type.Object({
  items: Type.Array(AccessEvent),
  next_cursor: NullableString,
});
