/** `GET /api/me` (CONTRACT 4). */
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../db/database.ts';
import type { Caller } from './identity.service.ts';

export const Me = Type.Object({
  id: Type.String(),
  email: Type.String(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  is_staff: Type.Boolean(),
  staff_level: Type.Union([Type.Literal('STAFF'), Type.Literal('SUPER_STAFF'), Type.Null()]),
  memberships: Type.Array(
    Type.Object({ org_id: Type.String(), org_name: Type.String(), role: Type.String(), revoked: Type.Boolean() }),
  ),
  active_org: Type.Union([Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
});

export async function describeMe(db: Database, caller: Caller, activeOrgId: string | null): Promise<Static<typeof Me>> {
  const memberships = await db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .select(['m.org_id', 'o.name as org_name', 'm.role', 'm.revoked'])
    .where('m.user_id', '=', caller.userId)
    .orderBy('m.created_at')
    .execute();
  const activeOrg = activeOrgId
    ? await db.selectFrom('organizations').select('name').where('id', '=', activeOrgId).executeTakeFirst()
    : undefined;
  return {
    id: caller.userId,
    email: caller.email,
    first_name: caller.firstName,
    is_staff: caller.isStaff,
    staff_level: caller.staffLevel,
    memberships,
    active_org: activeOrgId ? { id: activeOrgId, name: activeOrg?.name ?? null } : null,
  };
}
