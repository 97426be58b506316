/** Schema of `GET /api/me`. */
import { Type } from '@sinclair/typebox';

export const Me = Type.Object({
  id: Type.String(),
  email: Type.String(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  is_staff: Type.Boolean(),
  staff_level: Type.Union([Type.Literal('STAFF'), Type.Literal('SUPER_STAFF'), Type.Null()]),
  memberships: Type.Array(Type.Object({ org_id: Type.String(), org_name: Type.String(), role: Type.String(), revoked: Type.Boolean() })),
  active_org: Type.Union([Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
});
