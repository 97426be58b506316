/** Schemas of the staff endpoints. */
import { Type } from '@sinclair/typebox';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const InviteStaffBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320 })),
  first_name: Type.Optional(Type.String({ maxLength: 200 })),
  level: Type.Optional(Type.String({ maxLength: 40, description: 'STAFF (default) or SUPER_STAFF' })),
});

export const StaffUser = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  first_name: NullableString,
  level: Type.String(),
  is_staff: Type.Boolean(),
  activated: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const ActiveOrgBody = Type.Object({ org_id: Type.Optional(Type.String({ maxLength: 100 })) });

export const OrgSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'the `next_cursor` of the previous page (opaque)' })),
});

export const OrgSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  structure_api: NullableString,
  member_count: Type.Integer(),
});
