/**
 * `GET /api/me`: the caller, its memberships and its resolved organization. In
 * the organization layer because it answers with both; it imports nothing above it.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../db/database.ts';
import { PlainText } from '../http/schemas.ts';
import { Me } from '../schemas/me.ts';
import type { Caller } from '../identity/identity.service.ts';
import { membershipsOfUser } from './membership.repository.ts';
import { findOrganization } from './org.repository.ts';
import { gatedCaller, resolveRequestOrgId } from './scope.ts';

export async function describeMe(db: Database, caller: Caller, activeOrgId: string | null): Promise<Static<typeof Me>> {
  const memberships = await membershipsOfUser(db, caller.userId);
  const activeOrg = activeOrgId ? await findOrganization(db, activeOrgId) : undefined;
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

export default async function meRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get(
    '/api/me',
    { config: { gate: 'signedIn' }, schema: { tags: ['auth'], summary: 'The current user', response: { 200: Me, 401: PlainText } } },
    async (request) => describeMe(fastify.db, gatedCaller(request), await resolveRequestOrgId(fastify.db, request)),
  );
}
