/**
 * Route gates. A route declares who may call it as data, and this one
 * hook enforces it when the request arrives, before its body is even read, so that 401, 400
 * `no_active_org` and 403 come first, as docs/access.md orders them (a route whose organization may
 * come from the body, `orgFallback: 'body'`, decides the caller then and the rest once the
 * body is read):
 *
 * ```ts
 * fastify.post('/api/factures', { config: { gate: 'money' }, schema }, handler);   // an organization gate
 * fastify.get('/api/staff/orgs', { config: { gate: 'staff' }, schema }, handler);  // staff only
 * fastify.get('/files/:id', { config: { public: true }, schema }, handler);        // no session needed
 * ```
 *
 * A route under `/api/` or `/files/` that declares neither stops the server at start-up:
 * forgetting a gate can never open a route.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { can, isOrgGate, type Gate } from './permissions.ts';
import { enforce, scopeFor, type OrgFallback, type ScopeFacts } from './scope.ts';
import { AppError } from '../http/errors.ts';

/** Requests of a route whose organization comes from the body, with the facts read on arrival. */
const deferred = new WeakMap<FastifyRequest, ScopeFacts | null>();

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (`permissions.ts`); enforced when the request arrives, before its body is read. */
    gate?: Gate;
    /** The route needs no session (sign-in, signed file links). */
    public?: boolean;
    /**
     * A page whose refused callers (403) are sent to another page rather than shown the refusal:
     * a member who opens the staff team's page goes to their own accesses.
     */
    refusedPage?: string;
    /**
     * Where the organization comes from when the resolution of docs/access.md gives none (see `OrgFallback`). Set
     * on a `staff` route, it gives the route an organization scope too.
     * @default 'staffSettings'
     */
    orgFallback?: OrgFallback;
    /**
     * For a route that reads the session (`readsOwnSession`) in the same query as what it
     * serves: reads the caller, organization and membership there, for the gate to decide on.
     * It sets `request.caller`; it answers null when that query could not settle them, and
     * the gate then reads them the usual way.
     */
    scopeReader?: (request: FastifyRequest) => Promise<ScopeFacts | null>;
  }
}

/** Paths whose every route must say who may call it. */
const GUARDED_PREFIXES = ['/api/', '/files/'];

/** Why a route may not be declared as it is, or null. (`url` holds the plugin prefixes too.) */
export function undeclaredGate(route: Pick<RouteOptions, 'url' | 'config'>): string | null {
  const config = (route.config ?? {}) as { gate?: unknown; public?: unknown; readsOwnSession?: unknown; scopeReader?: unknown };
  const { url } = route;
  // Such a route gets no caller from the session plugin: without a reader, nobody would pass.
  if (config.readsOwnSession === true && config.scopeReader === undefined) return `${url}: reads its own session without a scopeReader`;
  if (!GUARDED_PREFIXES.some((prefix) => url.startsWith(prefix))) return null;
  if (config.gate !== undefined && config.public === true) return `${url}: declares both a gate and public`;
  if (config.gate === undefined && config.public !== true) return `${url}: declares neither config.gate nor config.public`;
  return null;
}

export default fp(
  async function gatePlugin(fastify: FastifyInstance) {
    fastify.decorateRequest('scope', null);
    // A list's page read by a scope reader with the gate's facts (scope-reader.ts).
    fastify.decorateRequest('prefetchedPage', null);

    fastify.addHook('onRoute', (route) => {
      const problem = undeclaredGate(route);
      if (problem) throw new Error(`route ${route.method} ${problem} (see src/org/gate.plugin.ts)`);
    });

    // Decided when the request arrives, before its body is read: nobody may make
    // the server read, buffer or parse a body (4 MiB of JSON, 10 MiB of PDF) and then hear 401.
    fastify.addHook('onRequest', async (request) => {
      const { gate, orgFallback, scopeReader } = request.routeOptions.config;
      if (gate === undefined) return;
      const facts = scopeReader ? await scopeReader(request) : null;
      if (!isOrgGate(gate) && !orgFallback) return enforce(can(request.caller, undefined, gate));
      if (orgFallback === 'body' && !facts?.orgId) {
        // The organization may come from the body: who calls is decided now (401, and 403 for
        // a staff-only gate), the organization and the role there once the body is read.
        const caller = facts ? facts.caller : request.caller;
        if (!caller) throw AppError.unauthorized();
        if (!isOrgGate(gate)) enforce(can(caller, undefined, gate));
        deferred.set(request, facts);
        return;
      }
      request.scope = await scopeFor(fastify.db, request, gate, orgFallback ?? 'staffSettings', facts ?? undefined);
    });

    fastify.addHook('preValidation', async (request) => {
      if (!deferred.has(request)) return;
      const { gate } = request.routeOptions.config;
      const facts = deferred.get(request);
      deferred.delete(request);
      request.scope = await scopeFor(fastify.db, request, gate!, 'body', facts ?? undefined);
    });
  },
  { name: 'route-gates', dependencies: ['session-caller'] },
);
