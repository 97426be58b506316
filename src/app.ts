/**
 * The application as a Fastify plugin. `server.ts` runs it; tests and the CLI build it
 * with the same options (`appOptions`), so validation behaves the same everywhere.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifySchema, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/database.ts';
import afterAnswer from './http/after-answer.ts';
import { normalizeId } from './http/input.ts';
import sessionPlugin from './identity/session.plugin.ts';
import gatePlugin from './org/gate.plugin.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { AppError, errorBody, RATE_LIMITED_MESSAGE } from './http/errors.ts';
import { isDatabaseUnavailable } from './db/errors.ts';
import mailPlugin, { type MailPluginOptions } from './mail/mail.plugin.ts';
import filesPlugin from './files/files.plugin.ts';
import healthRoutes from './http/health.routes.ts';
import identityRoutes from './identity/identity.routes.ts';
import meRoutes from './org/me.ts';
import accessRoutes from './access/access.routes.ts';
import staffRoutes from './staff/staff.routes.ts';
import securityHeaders, { docsCsp } from './pages/security.ts';
import orgSettingsRoutes from './org/org-settings.routes.ts';
import employeesRoutes from './employees/employees.routes.ts';
import contractsRoutes from './contracts/contracts.routes.ts';
import pagesRoutes, { sendNotFoundPage, wantsHtmlPage } from './pages/pages.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    database: DatabaseHandle;
  }
}

export interface AppOptions extends MailPluginOptions {
  config: Config;
  database: DatabaseHandle;
}

/** Bodies over 64 KiB are refused with 413 (CONTRACT 5). */
export const BODY_LIMIT = 64 * 1024;

/**
 * Errors Fastify's router raises before any route or error handler runs, answered like every
 * other error (`{ error, message }`, French) instead of Fastify's own shape.
 */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, code: 'bad_url', message: "L'adresse demandée est mal formée." },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', message: "L'adresse demandée est trop longue." },
};

function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = FRAMEWORK_ERRORS[error.code];
  if (known) {
    reply.code(known.status).send(errorBody(known.code, known.message));
    return;
  }
  reply.log.error({ err: error }, 'unexpected router failure');
  reply.code(500).send(errorBody('server_error', 'Erreur interne du serveur.'));
}

/** What Node's HTTP parser refuses before Fastify sees a request (Fastify's default answers in English). */
const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'La requête a mis trop de temps à arriver.' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: 'Les en-têtes de la requête sont trop volumineux.' },
};

function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection reset or a destroyed socket: nobody is left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, code: 'bad_request', message: 'Requête HTTP mal formée.' };
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * `TRUST_PROXY` as Fastify takes it. A hop count is given as a function: Fastify 5 believes
 * no forwarded address for a bare number (it cannot tell a proxy from a client sending
 * `X-Forwarded-For` itself), so a hop count is only for a service every request reaches
 * through its proxies (README).
 */
function trustedProxies(trustProxy: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  return typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy;
}

/**
 * Fastify options shared by the server, the tests and the CLI. `trustProxy` (CONTRACT 2's
 * `TRUST_PROXY`) decides which address is the client's, so what the rate limits key on.
 */
export function appOptions(config: Pick<Config, 'trustProxy'> = { trustProxy: false }): FastifyServerOptions {
  return {
    bodyLimit: BODY_LIMIT,
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: 'all', allErrors: false } },
    trustProxy: trustedProxies(config.trustProxy),
    frameworkErrors,
    clientErrorHandler,
  };
}

/** SPEC 4.2 rule 1: a body that is not valid JSON (or not an object) is an empty object. */
function lenientJsonParser(_request: unknown, body: string, done: (err: Error | null, value?: unknown) => void): void {
  try {
    const value: unknown = body === '' ? {} : JSON.parse(body);
    done(null, value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {});
  } catch {
    done(null, {});
  }
}

/** A body limit as the 413 message writes it: `64 Kio`, `10 Mio` (routes may raise the limit). */
function sizeFr(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} Mio` : `${Math.round(bytes / 1024)} Kio`;
}

function renderError(error: FastifyError | AppError, request: FastifyRequest) {
  if (error instanceof AppError) {
    return { status: error.status, plain: error.plainText, body: errorBody(error.code, error.userMessage), retryAfter: error.retryAfterSeconds };
  }
  if (error.validation) {
    return { status: 400, body: errorBody('invalid_request', `Requête invalide : ${error.message}`) };
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, body: errorBody('payload_too_large', `Requête trop volumineuse (${sizeFr(request.routeOptions.bodyLimit)} au plus).`) };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, body: errorBody('unsupported_media_type', 'Le corps doit être du JSON.') };
  }
  if (error.statusCode === 429) {
    return { status: 429, body: errorBody('rate_limited', RATE_LIMITED_MESSAGE) };
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return { status: 503, body: errorBody('service_unavailable', 'Service momentanément indisponible, réessayez.') };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: errorBody('bad_request', 'Requête invalide.') };
  }
  request.log.error({ err: error }, 'unexpected failure');
  // SPEC 7: 500 server_error with a message; never the underlying (database) text.
  return { status: 500, body: errorBody('server_error', 'Erreur interne du serveur.') };
}

async function app(fastify: FastifyInstance, options: AppOptions): Promise<void> {
  fastify.decorate('config', options.config);
  fastify.decorate('database', options.database);
  fastify.decorate('db', options.database.db);

  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, lenientJsonParser);
  fastify.addHook('preValidation', async (request) => {
    // SPEC 4.2 rule 1 for what no parser saw: no body at all, or a text/plain one, is `{}`.
    const { body } = request;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) request.body = {};
    // Ids in the path in one case, the database's, before any route compares them.
    const params = request.params as Record<string, string> | undefined;
    for (const name of Object.keys(params ?? {})) params![name] = normalizeId(params![name]!);
  });

  fastify.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const { status, plain, body, retryAfter } = renderError(error, request);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    if (plain !== undefined) return reply.code(status).type('text/plain; charset=utf-8').send(plain);
    return reply.code(status).send(body);
  });
  fastify.setNotFoundHandler((request, reply) => {
    // A person's browser gets a French page; the API and every other client keep the JSON.
    if (wantsHtmlPage(request)) return sendNotFoundPage(reply);
    return reply.code(404).send(errorBody('not_found', 'Ressource introuvable.'));
  });

  // First: its hooks must reach every route, /docs included (see pages/security.ts).
  await fastify.register(securityHeaders);
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'payroll-access', description: 'Organizations, members, roles, invitations and sign-in.', version: '0.1.0' },
      // Relative: /docs' "Try it out" calls the address the page was loaded from (PUBLIC_URL is for e-mails).
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          // CONTRACT 4: POST /auth/session sets it; the browser sends it back.
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'session',
            description: 'The `session` cookie set by `POST /auth/session` (a one-time link exchanged for a session).',
          },
        },
      },
    },
    // A route that declares a gate needs a session (src/org/gate.plugin.ts); public routes do not.
    transform: ({ schema, url, route }) => {
      const gated = (route.config as { gate?: unknown } | undefined)?.gate !== undefined;
      return { schema: gated ? ({ ...schema, security: [{ session: [] }] } as FastifySchema) : schema, url };
    },
  });
  await fastify.register(swaggerUi, { routePrefix: '/docs', transformStaticCSP: docsCsp });
  fastify.get('/openapi.json', { schema: { hide: true } }, async () => fastify.swagger());

  await fastify.register(afterAnswer);
  await fastify.register(cookie);
  // Counted in the database: every instance on it shares the same limits.
  await fastify.register(rateLimit, { global: false, store: databaseRateLimitStore(options.database.db) });
  await fastify.register(sessionPlugin);
  await fastify.register(gatePlugin);
  await fastify.register(mailPlugin, options);
  await fastify.register(filesPlugin);

  await fastify.register(healthRoutes);
  await fastify.register(identityRoutes);
  await fastify.register(meRoutes);
  await fastify.register(accessRoutes);
  await fastify.register(staffRoutes);
  await fastify.register(orgSettingsRoutes);
  await fastify.register(employeesRoutes);
  await fastify.register(contractsRoutes);
  await fastify.register(pagesRoutes);
}

export default fp(app, { name: 'payroll-access' });
