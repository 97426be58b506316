/**
 * Security headers of every response (helmet). The pages load their scripts and
 * styles from `/assets/` only, so the Content-Security-Policy allows no inline script, no
 * inline event handler and no inline `<style>`: an injected `<script>` or `onerror=` does
 * not run even if escaping were ever missed. No page may be framed (clickjacking).
 *
 * Registered before every route (hooks reach only the routes of contexts created after
 * them), so the API and `/docs` (swagger-ui, whose files are all external scripts and
 * stylesheets) get the same headers.
 */
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/** The CSP directives, in helmet's camel-case form. */
export function cspDirectives(https: boolean): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    // data: for the icons swagger-ui's stylesheet embeds.
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    // Over plain http (a local install) upgrading would break every asset.
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  };
}

export default fp(
  async function securityHeaders(fastify: FastifyInstance) {
    const https = fastify.config.publicUrl.startsWith('https:');
    // helmet's middleware, made once. @fastify/helmet made a new one on every request, its
    // CSP parsed again each time: 11 to 14 µs of a GET's 500, against 0.5 to 0.7 once made.
    const setHeaders = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(https) },
      frameguard: { action: 'deny' },
      // HSTS means something only over https.
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    });
    fastify.addHook('onRequest', (request, reply, done) => setHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)));
  },
  { name: 'security-headers' },
);

/**
 * `/docs` only (swagger-ui's `transformStaticCSP`): swagger-ui's bundle sets a few inline
 * `style` attributes, so its pages also allow inline styles. Scripts stay `'self'` only, and
 * no user data is shown there.
 */
export function docsCsp(header: string): string {
  return header.replace(/style-src 'self'/, "style-src 'self' 'unsafe-inline'");
}
