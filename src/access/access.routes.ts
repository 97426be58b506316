/** `/api/access`: the member-access API (SPEC 4.1, 4.2; CONTRACT 5). Thin handlers. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { ErrorBody, PlainText } from '../http/schemas.ts';
import {
  AccessEventsPage, AccessEventsQuery, AccessList, AddMemberBody, OkMessage, UserIdParams,
} from '../schemas/access.ts';
import { Type } from '@sinclair/typebox';
import { addMember, createAccess, MESSAGES, parseMemberInput, resendInvitation, revokeMember, type AccessContext } from './access.service.ts';
import { listAccessEvents } from './access.repository.ts';
import { globalMemberListStream, orgMemberListBody } from './member-list.ts';
import { changeScope, readScope, readScopeWithList, scopeOf } from './org-scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** `GET /api/access`: the list, when the query that read the session could read it. */
    accessListJson: string | null;
  }
}

const errors = { 400: ErrorBody, 401: PlainText, 403: Type.Union([ErrorBody, PlainText]), 404: ErrorBody, 409: ErrorBody, 500: ErrorBody };

export default async function accessRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('orgScope', null);
  fastify.decorateRequest('accessListJson', null);
  const { db, config } = fastify;
  const context = (request: FastifyRequest): AccessContext => ({ db, config, scope: scopeOf(request) });
  const reading = async (request: FastifyRequest) => {
    request.orgScope = await readScope(db, request);
  };
  const changing = async (request: FastifyRequest) => {
    request.orgScope = await changeScope(db, request);
  };

  fastify.get(
    '/api/access',
    {
      // One query reads the session, the scope and the list (see readScopeWithList).
      config: { gate: 'manageMembers', readsOwnSession: true },
      preValidation: async (request) => {
        const { scope, listJson } = await readScopeWithList(db, request);
        request.orgScope = scope;
        request.accessListJson = listJson;
      },
      schema: {
        tags: ['access'],
        summary: 'Members of the active organization, newest first (every membership in global staff mode)',
        response: { 200: AccessList, ...errors },
      },
    },
    async (request, reply) => {
      const { orgId } = scopeOf(request);
      reply.type('application/json; charset=utf-8');
      if (orgId) return reply.send(request.accessListJson !== null ? `{"items":${request.accessListJson}}` : await orgMemberListBody(db, orgId));
      return reply.send(await globalMemberListStream(fastify.database, request.log));
    },
  );

  fastify.post<{ Body: Static<typeof AddMemberBody> }>(
    '/api/access',
    {
      config: { gate: 'manageMembers' },
      preValidation: changing,
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
      fastify.mail.nudge();
      return { ok: true as const, message };
    },
  );

  fastify.delete<{ Params: Static<typeof UserIdParams> }>(
    '/api/access/:user_id',
    {
      config: { gate: 'manageMembers' },
      preValidation: changing,
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
      config: { gate: 'manageMembers' },
      preValidation: changing,
      schema: {
        tags: ['access'],
        summary: 'Send a pending member a new invitation (older links stop working)',
        params: UserIdParams,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await resendInvitation(context(request), request.params.user_id);
      fastify.mail.nudge();
      return { ok: true as const, message: MESSAGES.resent };
    },
  );

  fastify.get<{ Querystring: Static<typeof AccessEventsQuery> }>(
    '/api/access/events',
    {
      config: { gate: 'manageMembers' },
      preValidation: reading,
      schema: {
        tags: ['access'],
        summary: 'The audit trail of access changes in the active organization, newest first',
        querystring: AccessEventsQuery,
        response: { 200: AccessEventsPage, ...errors },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const rows = await listAccessEvents(db, scopeOf(request).orgId, request.query.before ?? null, limit);
      return { items: rows, next_cursor: rows.length === limit ? rows.at(-1)!.id : null };
    },
  );

  fastify.post<{ Body: Static<typeof AddMemberBody> }>(
    '/api/access/nouveau',
    {
      config: { gate: 'staff' },
      preValidation: changing,
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
      fastify.mail.nudge();
      return { ok: true as const, message: MESSAGES.invited, user_id: userId };
    },
  );
}
