/**
 * The pages (CONTRACT 7): `/login`, `/activate`, `/vos-acces`, and their static files.
 * Server-rendered French HTML; kept out of the OpenAPI document.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../http/errors.ts';
import { setActiveOrgCookie } from '../org/active-org-cookie.ts';
import assetRoutes from './assets.ts';
import { html } from './html.ts';
import { renderPage } from './layout.ts';
import { activatePage, loginPage } from './sign-in.pages.ts';
import { loadVosAcces, renderVosAcces } from './vos-acces.ts';
import modulePagesRoutes from './module-pages.routes.ts';
import { membershipOfRequest, navFor, renderNav } from './nav.ts';

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

export default async function pagesRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, config } = fastify;

  // Only in this plugin's context: a page that fails shows a page, not JSON.
  fastify.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // A gated page (module-pages.routes.ts) refused: no session goes to the sign-in page; a
    // refusal with a plain-text body (403 `Forbidden`) is answered as the API answers it; any
    // other (400 `no_active_org`, 404 `not_found`, 409) with the API's status and French message.
    if (error instanceof AppError && error.status < 500) {
      if (error.status === 401) return reply.redirect('/login');
      if (error.plainText !== undefined) return reply.code(error.status).type('text/plain; charset=utf-8').send(error.plainText);
      return sendHtml(reply, errorPage(error.userMessage ?? 'Cette page ne peut pas être affichée.'), error.status);
    }
    if (!(error instanceof AppError) && error.statusCode && error.statusCode < 500) return sendHtml(reply, errorPage('Cette adresse ne correspond à aucune page.'), 404);
    request.log.error({ err: error }, 'page failed');
    const status = isDatabaseUnavailable(error) ? 503 : 500;
    return sendHtml(reply, errorPage('La page ne peut pas être affichée pour le moment. Réessayez dans un instant.'), status);
  });

  await fastify.register(assetRoutes);

  await fastify.register(modulePagesRoutes, { sendHtml });

  fastify.get('/', hidden, async (_request, reply) => reply.redirect('/vos-acces'));

  fastify.get('/login', hidden, async (request, reply) => {
    if (request.caller) return reply.redirect('/vos-acces');
    return sendHtml(reply, loginPage());
  });

  // Public (SPEC 5): the token is in the fragment, which never reaches the server.
  fastify.get('/activate', hidden, async (_request, reply) => sendHtml(reply, activatePage()));

  fastify.get('/vos-acces', hidden, async (request, reply) => {
    const caller = request.caller;
    if (!caller) return reply.redirect('/login');
    const view = await loadVosAcces(db, request, caller);
    if (view.restoreOrgCookie && view.org) setActiveOrgCookie(reply, view.org.id, config.secureCookies);
    const nav = renderNav(navFor(caller, await membershipOfRequest(db, request)), '/vos-acces');
    return sendHtml(reply, renderVosAcces(view, config.mailTimezone, nav));
  });
}
