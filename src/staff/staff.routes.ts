/** `/api/staff/*`: the staff team and its organization switcher. */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { OkMessage, errorResponses } from '../http/schemas.ts';
import { clearActiveOrgCookies, setActiveOrgCookie } from '../org/active-org-cookie.ts';
import { clearSavedActiveOrg } from '../org/org.repository.ts';
import { staffCaller } from '../org/scope.ts';
import { ActiveOrgBody, InviteStaffBody, OrgSearchQuery, OrgSummary, StaffUser } from '../schemas/staff.ts';
import { UserIdParams } from '../schemas/access.ts';
import { createStaffUser } from './staff.service.ts';
import { levelToCreate, revokeStaff, selectActiveOrg } from './staff-team.service.ts';
import { listOrganizations } from './staff-orgs.service.ts';
import { listStaffUsers } from './staff.repository.ts';

const errors = errorResponses();

export default async function staffRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, config, mail } = fastify;

  fastify.post<{ Body: Static<typeof InviteStaffBody> }>(
    '/api/staff/users/invite',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Create a staff account (activated at once) and send it the activation e-mail',
        body: InviteStaffBody,
        response: { 200: Type.Object({ ok: Type.Literal(true), message: Type.String(), user_id: Type.String() }), ...errors },
      },
    },
    async (request) => {
      const caller = staffCaller(request);
      const level = levelToCreate(caller, request.body.level);
      const { userId } = await createStaffUser(
        db,
        config,
        {
          email: request.body.email ?? '',
          firstName: request.body.first_name ?? null,
          level,
          invitedBy: caller,
        },
        mail,
      );
      return { ok: true as const, message: 'Invitation envoyée', user_id: userId };
    },
  );

  fastify.get(
    '/api/staff/users',
    {
      config: { gate: 'staff' },
      schema: { tags: ['staff'], summary: 'The staff team', response: { 200: Type.Object({ items: Type.Array(StaffUser) }), ...errors } },
    },
    async () => ({ items: await listStaffUsers(db) }),
  );

  fastify.delete<{ Params: Static<typeof UserIdParams> }>(
    '/api/staff/users/:user_id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Revoke a staff account (a SUPER_STAFF cannot be revoked)',
        params: UserIdParams,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await revokeStaff({ db }, staffCaller(request), request.params.user_id);
      return { ok: true as const, message: 'Accès révoqué' };
    },
  );

  fastify.put<{ Body: Static<typeof ActiveOrgBody> }>(
    '/api/staff/active-org',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Choose the active organization (staff settings and the active_org_id cookie)',
        body: ActiveOrgBody,
        response: { 200: Type.Object({ ok: Type.Literal(true), org: Type.Object({ id: Type.String(), name: Type.String() }) }), ...errors },
      },
    },
    async (request, reply) => {
      const org = await selectActiveOrg({ db }, staffCaller(request), request.body.org_id);
      setActiveOrgCookie(reply, org.id, config.secureCookies);
      return { ok: true as const, org };
    },
  );

  fastify.delete(
    '/api/staff/active-org',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Back to no organization: every membership (global mode); clears the staff settings and the hint cookies',
        response: { 200: Type.Object({ ok: Type.Literal(true) }), ...errors },
      },
    },
    async (request, reply) => {
      await clearSavedActiveOrg(db, staffCaller(request).userId);
      clearActiveOrgCookies(reply, config.secureCookies);
      return { ok: true as const };
    },
  );

  fastify.get<{ Querystring: Static<typeof OrgSearchQuery> }>(
    '/api/staff/orgs',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Organizations by name, filtered by name or employer key (`q`, case and accents ignored), in keyset pages (`cursor`)',
        querystring: OrgSearchQuery,
        response: {
          200: Type.Object({ items: Type.Array(OrgSummary), next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }) }),
          ...errors,
        },
      },
    },
    async (request) => listOrganizations(db, { q: request.query.q, limit: request.query.limit ?? 100, cursor: request.query.cursor }),
  );
}
