/**
 * The application as a Fastify plugin. `server.ts` runs it; tests and the CLI build it
 * with the same options (`appOptions`), so validation behaves the same everywhere.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifySchema, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/database.ts';
import afterAnswer from './http/after-answer.ts';
import unreadBody from './http/unread-body.ts';
import { jsonTooDeep, MAX_JSON_DEPTH, normalizeId } from './http/input.ts';
import textRule, { isSpecAccessRoute, textRuleValidators } from './http/text-rule.ts';
import { serializersOnce } from './http/compiled-once.ts';
import sessionPlugin from './identity/session.plugin.ts';
import gatePlugin from './org/gate.plugin.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { clientErrorHandler, errorHandler, frameworkErrors, sendError } from './http/error-handler.ts';
import { httpErrors } from './http/http.errors.ts';
import mailPlugin, { type MailPluginOptions } from './mail/mail.plugin.ts';
import jobsPlugin, { type JobsPluginOptions } from './jobs/jobs.plugin.ts';
import payrollPlugin, { type PayrollPluginOptions } from './payroll/payroll.plugin.ts';
import payrollRoutes from './payroll/payroll.routes.ts';
import { closeRenderers } from './pdf/render.ts';
import filesPlugin from './files/files.plugin.ts';
import healthRoutes from './http/health.routes.ts';
import identityRoutes from './identity/identity.routes.ts';
import meRoutes from './org/me.ts';
import accessRoutes from './access/access.routes.ts';
import staffRoutes from './staff/staff.routes.ts';
import staffJobsRoutes from './staff/staff-jobs.routes.ts';
import securityHeaders, { docsCsp } from './pages/security.ts';
import orgSettingsRoutes from './org/org-settings.routes.ts';
import employeesRoutes from './employees/employees.routes.ts';
import contractsRoutes from './contracts/contracts.routes.ts';
import payslipsRoutes from './payslips/payslips.routes.ts';
import transfersRoutes from './transfers/transfers.routes.ts';
import invoicesRoutes from './invoices/invoices.routes.ts';
import contributionsRoutes from './contributions/contributions.routes.ts';
import operatorRoutes from './operator/operator.routes.ts';
import pagesRoutes, { sendNotFoundPage, wantsHtmlPage } from './pages/pages.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    database: DatabaseHandle;
  }
}

export interface AppOptions extends MailPluginOptions, JobsPluginOptions, PayrollPluginOptions {
  config: Config;
  database: DatabaseHandle;
}

/** Bodies over 64 KiB are refused with 413. */
export const BODY_LIMIT = 64 * 1024;

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
 * Fastify options shared by the server, the tests and the CLI. `trustProxy` (docs/operations.md's
 * `TRUST_PROXY`) decides which address is the client's, so what the rate limits key on.
 */
/** How long a request, headers and body, may take to arrive before its 408 `request_timeout`. */
export const REQUEST_TIMEOUT_MS = 30_000;

export function appOptions(
  config: Pick<Config, 'trustProxy'> = { trustProxy: false },
  limits: { requestTimeoutMs?: number } = {},
): FastifyServerOptions & { http: http.ServerOptions } {
  const requestTimeout = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  return {
    // A socket silent for twice the limit is dropped; a request still arriving gets its 408 first.
    connectionTimeout: 2 * requestTimeout,
    requestTimeout,
    // Node compares the requests still arriving with requestTimeout only every
    // connectionsCheckingInterval (30 s by default): a slow upload was cut after 30 to 60 s.
    // Checked every tenth of the limit (at most every second), it is cut within 10 % of it.
    http: { connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(requestTimeout / 10))), headersTimeout: requestTimeout },
    bodyLimit: BODY_LIMIT,
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: 'all', allErrors: false } },
    // Bodies without type coercion, and input.ts's rule on every string (http/text-rule.ts).
    // Each schema compiled once a process (http/compiled-once.ts).
    schemaController: { compilersFactory: { buildValidator: textRuleValidators(), buildSerializer: serializersOnce } },
    trustProxy: trustedProxies(config.trustProxy),
    frameworkErrors,
    clientErrorHandler,
  };
}

/** A body that is not valid JSON (or not an object) is an empty object. */
function lenientJsonParser(request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void): void {
  // Nested deeper than any body of ours: never parsed. The access API's rules (docs/access.md) make what
  // the access routes cannot read an empty object; the other routes say why they refuse it.
  if (jsonTooDeep(body, MAX_JSON_DEPTH)) {
    if (isSpecAccessRoute(request.routeOptions.url)) done(null, {});
    else done(httpErrors.jsonTooDeep(MAX_JSON_DEPTH));
    return;
  }
  try {
    const value: unknown = body === '' ? {} : JSON.parse(body);
    done(null, value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {});
  } catch {
    done(null, {});
  }
}

async function app(fastify: FastifyInstance, options: AppOptions): Promise<void> {
  fastify.decorate('config', options.config);
  fastify.decorate('database', options.database);
  fastify.decorate('db', options.database.db);

  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, lenientJsonParser);
  fastify.addHook('preValidation', async (request) => {
    // The access API's rules (docs/access.md) for what no parser saw: no body at all, or a text/plain one, is `{}`.
    const { body } = request;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) request.body = {};
    // Ids in the path in one case, the database's, before any route compares them.
    const params = request.params as Record<string, string> | undefined;
    for (const name of Object.keys(params ?? {})) params![name] = normalizeId(params![name]!);
  });

  // The PDF renderers' processes stop last, once no request can ask for a PDF.
  if (!options.keepProcessPools) fastify.addHook('onClose', async () => closeRenderers());

  fastify.setErrorHandler(errorHandler);
  fastify.setNotFoundHandler((request, reply) => {
    // A person's browser gets a French page; the API and every other client keep the JSON.
    if (wantsHtmlPage(request)) return sendNotFoundPage(fastify.db, request, reply);
    return sendError(reply, httpErrors.notFound());
  });

  // First: its hooks must reach every route, /docs included (see pages/security.ts).
  await fastify.register(securityHeaders);
  await fastify.register(unreadBody);
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Espace paie (payroll-access)',
        description:
          "The payroll administration of French performing-arts employers: organizations and their members, employees, contracts, the month's payroll run and payslips, salary transfers (SEPA), contribution calls and Factur-X invoices.",
        version: '0.1.0',
      },
      // Relative: /docs' "Try it out" calls the address the page was loaded from (PUBLIC_URL is for e-mails).
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          // POST /auth/session sets it; the browser sends it back.
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
  await fastify.register(textRule);
  await fastify.register(mailPlugin, options);
  await fastify.register(filesPlugin);
  await fastify.register(jobsPlugin, options);
  await fastify.register(payrollPlugin, options);

  await fastify.register(healthRoutes);
  await fastify.register(identityRoutes);
  await fastify.register(meRoutes);
  await fastify.register(accessRoutes);
  await fastify.register(staffRoutes);
  await fastify.register(staffJobsRoutes);
  await fastify.register(orgSettingsRoutes);
  await fastify.register(employeesRoutes);
  await fastify.register(contractsRoutes);
  await fastify.register(payslipsRoutes);
  await fastify.register(transfersRoutes);
  await fastify.register(invoicesRoutes);
  await fastify.register(contributionsRoutes);
  await fastify.register(operatorRoutes);
  await fastify.register(payrollRoutes);
  await fastify.register(pagesRoutes);
}

export default fp(app, { name: 'payroll-access' });
