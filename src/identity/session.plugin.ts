/**
 * Reads the session cookie once per request into `request.caller` (null when signed out),
 * and guards state-changing requests against cross-site forgery.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { identityErrors } from './identity.errors.ts';
import { resolveSession, type Caller } from './identity.service.ts';

export const SESSION_COOKIE = 'session';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /**
     * The route reads the session itself, in the same query as what it serves (one round
     * trip instead of two), and sets `request.caller` before anything reads it.
     * @default false
     */
    readsOwnSession?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser always tells where a request comes from (`Sec-Fetch-Site`, else `Origin`).
 * Unsafe requests from another site are refused; clients that send neither (curl, scripts)
 * carry no ambient browser cookie and pass.
 */
export function isCrossSite(request: FastifyRequest, publicUrl: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  return originHost !== request.headers.host && origin !== new URL(publicUrl).origin;
}

export default fp(
  async function callerPlugin(fastify: FastifyInstance) {
    fastify.decorateRequest('caller', null);
    fastify.addHook('onRequest', async (request) => {
      if (isCrossSite(request, fastify.config.publicUrl)) {
        throw identityErrors.crossSiteRequest();
      }
      if (request.routeOptions.config.readsOwnSession) return;
      request.caller = await resolveSession(fastify.db, request.cookies[SESSION_COOKIE]);
    });
  },
  { name: 'session-caller', dependencies: ['@fastify/cookie'] },
);
