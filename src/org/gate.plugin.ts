/**
 * Route gates (MODULES 1, SPEC 4.4). A route declares who may call it as data, and this one
 * hook enforces it before the body is validated, so that 401, 400 `no_active_org` and 403
 * come first, as the SPEC orders them:
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
import type { FastifyInstance, RouteOptions } from 'fastify';
import { can, isOrgGate, type Gate } from './permissions.ts';
import { enforce, gatedScope } from './scope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (`permissions.ts`); enforced before validation. */
    gate?: Gate;
    /** The route needs no session (sign-in, signed file links). */
    public?: boolean;
  }
}

/** Paths whose every route must say who may call it. */
const GUARDED_PREFIXES = ['/api/', '/files/'];

/** Why a route may not be declared as it is, or null. (`url` holds the plugin prefixes too.) */
export function undeclaredGate(route: Pick<RouteOptions, 'url' | 'config'>): string | null {
  const config = (route.config ?? {}) as { gate?: unknown; public?: unknown };
  const { url } = route;
  if (!GUARDED_PREFIXES.some((prefix) => url.startsWith(prefix))) return null;
  if (config.gate !== undefined && config.public === true) return `${url}: declares both a gate and public`;
  if (config.gate === undefined && config.public !== true) return `${url}: declares neither config.gate nor config.public`;
  return null;
}

export default fp(
  async function gatePlugin(fastify: FastifyInstance) {
    fastify.decorateRequest('scope', null);

    fastify.addHook('onRoute', (route) => {
      const problem = undeclaredGate(route);
      if (problem) throw new Error(`route ${route.method} ${problem} (see src/org/gate.plugin.ts)`);
    });

    fastify.addHook('preValidation', async (request) => {
      const { gate } = request.routeOptions.config;
      // The access API still applies its own SPEC 4.1/4.2 scope rules in its routes.
      if (gate === undefined || gate === 'manageMembers') return;
      if (isOrgGate(gate)) {
        request.scope = await gatedScope(fastify.db, request, gate);
      } else {
        enforce(can(request.caller, undefined, gate));
      }
    });
  },
  { name: 'route-gates', dependencies: ['session-caller'] },
);
