/**
 * `/api/access`: the member-access API. Thin handlers: each route
 * declares its gate (the manage-members set) and where its organization comes from
 * (reads: staff may read every organization; changes: the body's `org_id`,
 * then the staff settings); the gate hook has checked both before the handler runs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { listAccessEvents } from '../audit/audit.repository.ts';
import { OkMessage, errorResponses } from '../http/schemas.ts';
import { requestScope } from '../org/scope.ts';
import { AccessEventsPage, AccessEventsQuery, AccessList, AddMemberBody, UserIdParams } from '../schemas/access.ts';
import { addMember, createAccess, MESSAGES, parseMemberInput, resendInvitation, revokeMember, type AccessContext } from './access.service.ts';
import { readScope } from '../org/scope-reader.ts';
import { readListScope } from './list-scope.ts';
import { globalMemberListStream, orgMemberListBody } from './member-list.ts';

const errors = errorResponses(409, 500);

export default async function accessRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('accessListJson', null);
  const { db, config, mail } = fastify;
  const context = (request: FastifyRequest): AccessContext => ({ db, config, mail, scope: requestScope(request) });
  const reading = { gate: 'manageMembers', orgFallback: 'global' } as const;
  const changing = { gate: 'manageMembers', orgFallback: 'body', readsOwnSession: true, scopeReader: readScope } as const;

  fastify.get(
    '/api/access',
    {
      // One query reads the session, the scope and the list (see list-scope.ts).
      config: { ...reading, readsOwnSession: true, scopeReader: readListScope },
      schema: {
        tags: ['access'],
        summary: 'Members of the active organization, newest first (every membership in global staff mode)',
        response: { 200: AccessList, ...errors },
      },
    },
    async (request, reply) => {
      const { orgId } = requestScope(request);
      reply.type('application/json; charset=utf-8');
      if (orgId) return reply.send(request.accessListJson !== null ? `{"items":${request.accessListJson}}` : await orgMemberListBody(db, orgId));
      return reply.send(await globalMemberListStream(fastify.database, request.log));
    },
  );

  fastify.post<{ Body: Static<typeof AddMemberBody> }>(
    '/api/access',
    {
      config: changing,
      schema: {
        tags: ['access'],
        summary: 'Add a member to the active organization, inviting them when no account exists',
        body: AddMemberBody,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      const input = parseMemberInput(request.body, { allowSuperAdmin: false });
      const { message } = await addMember(context(request), input);
      return { ok: true as const, message };
    },
  );

  fastify.delete<{ Params: Static<typeof UserIdParams> }>(
    '/api/access/:user_id',
    {
      config: changing,
      schema: {
        tags: ['access'],
        summary: "Revoke a member's access to the active organization",
        params: UserIdParams,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await revokeMember(context(request), request.params.user_id);
      return { ok: true as const, message: MESSAGES.revoked };
    },
  );

  fastify.post<{ Params: Static<typeof UserIdParams> }>(
    '/api/access/:user_id/resend',
    {
      config: changing,
      schema: {
        tags: ['access'],
        summary: 'Send a pending member a new invitation (older links stop working)',
        params: UserIdParams,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await resendInvitation(context(request), request.params.user_id);
      return { ok: true as const, message: MESSAGES.resent };
    },
  );

  fastify.get<{ Querystring: Static<typeof AccessEventsQuery> }>(
    '/api/access/events',
    {
      config: reading,
      schema: {
        tags: ['access'],
        summary: 'The audit trail of access changes in the active organization, newest first',
        querystring: AccessEventsQuery,
        response: { 200: AccessEventsPage, ...errors },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const { orgId, caller } = requestScope(request);
      const rows = await listAccessEvents(db, orgId, request.query.before ?? null, limit, caller.isStaff);
      return { items: rows, next_cursor: rows.length === limit ? rows.at(-1)!.id : null };
    },
  );

  fastify.post<{ Body: Static<typeof AddMemberBody> }>(
    '/api/access/nouveau',
    {
      config: { gate: 'staff', orgFallback: 'body' },
      schema: {
        tags: ['access', 'staff'],
        summary: 'Staff: create an access (any role, SUPER_ADMIN included) and send the activation e-mail',
        body: AddMemberBody,
        response: { 200: Type.Object({ ok: Type.Literal(true), message: Type.String(), user_id: Type.String() }), ...errors },
      },
    },
    async (request) => {
      const input = parseMemberInput(request.body, { allowSuperAdmin: true });
      const { userId } = await createAccess(context(request), input);
      return { ok: true as const, message: MESSAGES.invited, user_id: userId };
    },
  );
}
