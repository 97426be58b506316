/** Sign-in and sign-out. `GET /api/me` needs the organization: `org/me.ts`. */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { cookieOptions } from '../http/cookies.ts';
import { AppError } from '../http/errors.ts';
import { failureLimit } from '../http/rate-limit-store.ts';
import { ErrorBody } from '../http/schemas.ts';
import { SESSION_COOKIE } from './session.plugin.ts';
import { accountOfToken, endSession, signInWithToken, SESSION_MAX_AGE_MS } from './identity.service.ts';
import { admitSignInRequest, queueSignInLink } from './sign-in-link.ts';

const SessionBody = Type.Object({ token: Type.Optional(Type.String({ maxLength: 300 })) });
const MagicLinkBody = Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) });
const Ok = Type.Object({ ok: Type.Boolean() });

/**
 * Wrong, used or expired tokens one client may present per window before `POST /auth/session`
 * answers 429: tokens cannot be guessed (32 random bytes), but a flood of tries costs the
 * database a look-up each.
 */
const SESSION_FAILURES = { name: 'POST /auth/session failures', max: 10, windowMs: 15 * 60 * 1000 };

export default async function identityRoutes(fastify: FastifyInstance): Promise<void> {
  const sessionCookie = cookieOptions(fastify.config.secureCookies);
  const sessionFailures = failureLimit(fastify.db, SESSION_FAILURES);

  fastify.post<{ Body: Static<typeof SessionBody> }>(
    '/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a one-time link token for a session cookie',
        body: SessionBody,
        response: { 200: Type.Object({ ok: Type.Boolean(), redirect: Type.String() }), 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      await sessionFailures.check(request.ip);
      // A session this browser already holds ends: one session per sign-in, none left behind.
      const { sessionToken } = await signInWithToken(fastify.db, request.body.token, request.caller?.sessionId ?? null).catch(async (error) => {
        if (error instanceof AppError && error.code === 'invalid_token') await sessionFailures.fail(request.ip);
        throw error;
      });
      reply.setCookie(SESSION_COOKIE, sessionToken, { ...sessionCookie, maxAge: SESSION_MAX_AGE_MS / 1000 });
      return { ok: true, redirect: '/vos-acces' };
    },
  );

  fastify.post<{ Body: Static<typeof SessionBody> }>(
    '/auth/session/account',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whose account a one-time link token opens, without using it',
        body: SessionBody,
        response: { 200: Type.Object({ email: Type.String() }), 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      // Counted with the sign-in failures: no more guesses here than there.
      await sessionFailures.check(request.ip);
      return accountOfToken(fastify.db, request.body.token).catch(async (error) => {
        if (error instanceof AppError && error.code === 'invalid_token') await sessionFailures.fail(request.ip);
        throw error;
      });
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
        response: { 200: Ok, 400: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const email = await admitSignInRequest(fastify.db, request.body.email);
      // Whether the account exists is found out after answering: the answer's time tells nothing.
      fastify.afterAnswer.run(async () => {
        await queueSignInLink({ db: fastify.db, mail: fastify.mail }, fastify.config, email);
      });
      return { ok: true };
    },
  );

  fastify.post('/auth/logout', { schema: { tags: ['auth'], summary: 'End the session', response: { 200: Ok } } }, async (request, reply) => {
    await endSession(fastify.db, request.caller);
    reply.clearCookie(SESSION_COOKIE, sessionCookie);
    return { ok: true };
  });
}
