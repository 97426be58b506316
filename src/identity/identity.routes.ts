/** Sign-in and sign-out (CONTRACT 4). `GET /api/me` needs the organization: `org/me.ts`. */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { cookieOptions } from '../http/cookies.ts';
import { ErrorBody } from '../http/schemas.ts';
import { SESSION_COOKIE } from './session.plugin.ts';
import { endSession, signInWithToken, SESSION_TTL_MS } from './identity.service.ts';
import { requestSignInLink } from './sign-in-link.ts';

const SessionBody = Type.Object({ token: Type.Optional(Type.String({ maxLength: 300 })) });
const MagicLinkBody = Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) });
const Ok = Type.Object({ ok: Type.Boolean() });

export default async function identityRoutes(fastify: FastifyInstance): Promise<void> {
  const sessionCookie = cookieOptions(fastify.config.secureCookies);

  fastify.post<{ Body: Static<typeof SessionBody> }>(
    '/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a one-time link token for a session cookie',
        body: SessionBody,
        response: { 200: Type.Object({ ok: Type.Boolean(), redirect: Type.String() }), 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const { sessionToken } = await signInWithToken(fastify.db, request.body.token);
      reply.setCookie(SESSION_COOKIE, sessionToken, { ...sessionCookie, maxAge: SESSION_TTL_MS / 1000 });
      return { ok: true, redirect: '/vos-acces' };
    },
  );

  fastify.post<{ Body: Static<typeof MagicLinkBody> }>(
    '/auth/magic-link',
    {
      config: { rateLimit: { max: 5, timeWindow: '15 minutes' } },
      schema: {
        tags: ['auth'],
        summary: 'Send a sign-in link (same answer whether or not the account exists)',
        body: MagicLinkBody,
        response: { 200: Ok, 429: ErrorBody },
      },
    },
    async (request) => {
      await requestSignInLink(fastify.db, fastify.config, request.body.email ?? '');
      fastify.mail.nudge();
      return { ok: true };
    },
  );

  fastify.post(
    '/auth/logout',
    { schema: { tags: ['auth'], summary: 'End the session', response: { 200: Ok } } },
    async (request, reply) => {
      await endSession(fastify.db, request.caller);
      reply.clearCookie(SESSION_COOKIE, sessionCookie);
      return { ok: true };
    },
  );
}
