/**
 * The pages: `/login`, `/activate`, `/vos-acces`, and their static files.
 * Server-rendered French HTML; kept out of the OpenAPI document.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../http/errors.ts';
import { setActiveOrgCookie } from '../org/active-org-cookie.ts';
import { gatedCaller, staffCaller } from '../org/scope.ts';
import assetRoutes from './assets.ts';
import { html } from '../format/html.ts';
import { renderPage } from './layout.ts';
import { activatePage, loginPage } from './sign-in.pages.ts';
import { loadStaffTeam, renderStaffTeam } from './staff-equipe.ts';
import { loadVosAcces, renderVosAcces } from './vos-acces.ts';
import modulePagesRoutes from './module-pages.routes.ts';
import { homeOf, membershipOfRequest, navFor, renderNav } from './nav.ts';
import { loadRefusal, renderForbidden, renderNoActiveOrg, renderNotFound } from './refusals.ts';
import type { Database } from '../db/database.ts';

const hidden = { schema: { hide: true } };

function sendHtml(reply: FastifyReply, body: string, status = 200): FastifyReply {
  // Personal data: never kept by a shared cache or the back-forward cache of another user.
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

function errorPage(message: string): string {
  return renderPage({
    title: 'Erreur',
    main: html`<section class="card narrow" aria-labelledby="error-title">
  <h1 id="error-title">Une erreur est survenue</h1>
  <p>${message}</p>
  <p><a href="/vos-acces">Réessayer</a></p>
</section>`,
  });
}

/** Paths of the API and of machines: a 404 there stays JSON, whatever the client accepts. */
const MACHINE_PATHS = /^\/(api|auth|files|assets|docs|openapi\.json|healthz|readyz)(\/|$|\?)/;

/** A browser asking for a page (GET, `Accept: text/html`) outside the API. */
export function wantsHtmlPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (MACHINE_PATHS.test(request.url)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * The French 404 page of an unknown address. A signed-in person keeps their bar and is led to
 * the page their role works in; a visitor is offered the sign-in.
 */
export async function sendNotFoundPage(db: Database, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (request.caller) {
    const view = await loadRefusal(db, request).catch((failure: unknown) => {
      request.log.error({ err: failure }, 'not-found page failed');
      return null;
    });
    if (view) return sendHtml(reply, renderNotFound(view), 404);
  }
  return sendHtml(
    reply,
    renderPage({
      title: 'Page introuvable',
      main: html`<section class="card narrow" aria-labelledby="not-found-title">
  <h1 id="not-found-title">Page introuvable</h1>
  <p>Cette adresse ne correspond à aucune page. Elle a peut-être été mal copiée, ou la page n'existe plus.</p>
  <p><a href="/login">Se connecter</a></p>
</section>`,
    }),
    404,
  );
}

export default async function pagesRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, config } = fastify;

  // Only in this plugin's context: a page that fails shows a page, not JSON.
  fastify.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    // A gated page (module-pages.routes.ts) refused: no session goes to the sign-in page; a
    // browser refused (403) or without an organization (400 `no_active_org`) gets a page of the
    // site (`refusals.ts`) with the API's status; another client, the API's plain `Forbidden`;
    // any other (404 `not_found`, 409) the API's status and French message.
    if (error instanceof AppError && error.status < 500) {
      if (error.status === 401) return reply.redirect('/login');
      const { refusedPage } = request.routeOptions.config;
      if (error.status === 403 && refusedPage) return reply.redirect(refusedPage);
      // A browser asking for a page gets it in the layout, with its bar and a way on.
      if (request.caller && wantsHtmlPage(request) && (error.status === 403 || error.code === 'no_active_org')) {
        const view = await loadRefusal(db, request).catch((failure: unknown) => {
          request.log.error({ err: failure }, 'refusal page failed');
          return null;
        });
        if (view) return sendHtml(reply, error.status === 403 ? renderForbidden(view) : renderNoActiveOrg(view), error.status);
      }
      if (error.plainText !== undefined) return reply.code(error.status).type('text/plain; charset=utf-8').send(error.plainText);
      return sendHtml(reply, errorPage(error.userMessage ?? 'Cette page ne peut pas être affichée.'), error.status);
    }
    if (!(error instanceof AppError) && error.statusCode && error.statusCode < 500)
      return sendHtml(reply, errorPage('Cette adresse ne correspond à aucune page.'), 404);
    request.log.error({ err: error }, 'page failed');
    const status = isDatabaseUnavailable(error) ? 503 : 500;
    return sendHtml(reply, errorPage('La page ne peut pas être affichée pour le moment. Réessayez dans un instant.'), status);
  });

  await fastify.register(assetRoutes);

  await fastify.register(modulePagesRoutes, { sendHtml });

  // Where a signed-in person starts: the page their role works in (`homeOf`); the sign-in ends here.
  fastify.get('/', hidden, async (request, reply) => {
    const caller = request.caller;
    if (!caller) return reply.redirect('/login');
    return reply.redirect(homeOf(navFor(caller, await membershipOfRequest(db, request))));
  });

  fastify.get('/login', hidden, async (request, reply) => {
    if (request.caller) return reply.redirect('/');
    return sendHtml(reply, loginPage());
  });

  // Public: the token is in the fragment, which never reaches the server.
  fastify.get('/activate', hidden, async (request, reply) => sendHtml(reply, activatePage(request.caller?.email ?? null)));

  // The staff team: staff only; anyone else is sent to their own accesses.
  fastify.get('/staff/equipe', { ...hidden, config: { gate: 'staff', refusedPage: '/vos-acces' } }, async (request, reply) => {
    const caller = staffCaller(request);
    const nav = renderNav(navFor(caller, undefined), '/staff/equipe');
    return sendHtml(reply, renderStaffTeam(caller, await loadStaffTeam(db), config.mailTimezone, nav));
  });

  // Any signed-in caller: what they may see is decided inside, by the read rules of docs/access.md.
  fastify.get('/vos-acces', { ...hidden, config: { gate: 'signedIn' } }, async (request, reply) => {
    const caller = gatedCaller(request);
    const view = await loadVosAcces(db, request, caller);
    if (view.restoreOrgCookie && view.org) setActiveOrgCookie(reply, view.org.id, config.secureCookies);
    const nav = renderNav(navFor(caller, await membershipOfRequest(db, request)), '/vos-acces');
    return sendHtml(reply, renderVosAcces(view, { timeZone: config.mailTimezone, supportEmail: config.supportEmail }, nav));
  });
}
