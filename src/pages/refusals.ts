/**
 * What a browser sees when a page refuses it: a French page in the site's layout,
 * with the bar of the pages the caller may open and a way back, where the API answers docs/api.md's
 * plain `Forbidden` or 400 `no_active_org`. The status is the API's; only the body differs.
 *
 * - 403: "Vous n'avez pas accès à cette page", the caller's role in the organization, and a
 *   link to the page their role works in (`homeOf`).
 * - 400 `no_active_org` to staff: the organization switcher of `/vos-acces`; choosing one
 *   reloads the page asked for, now on that organization (`assets/choose-org.js`).
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { Caller } from '../identity/identity.service.ts';
import { findOrganization } from '../org/org.repository.ts';
import { activeOrgOf, readMembership, type MembershipFact } from '../org/scope.ts';
import { html } from '../format/html.ts';
import { renderPage, statusRegion } from './layout.ts';
import { roleLabel } from './labels.ts';
import { homeOf, NAV, navFor, renderNav } from './nav.ts';
import { orgSearchBox } from './vos-acces.ts';

/** The words of the way back, by the page it leads to (`HOME_PAGES`). */
const GO_TO: Record<string, string> = {
  '/staff/organisations': 'Aller aux organisations',
  '/contrats': 'Aller aux contrats',
  '/factures': 'Aller aux factures et paiements',
  '/paie': 'Aller à la paie',
  '/vos-acces': 'Aller à vos accès',
};

export interface RefusalView {
  caller: Caller;
  path: string;
  membership: MembershipFact;
  orgName: string | null;
  /** Where the caller's role works (`homeOf`). */
  home: string;
}

/** The caller's membership in the organization that docs/access.md's resolution gives (none for staff), with its name. */
export async function loadRefusal(db: Database, request: FastifyRequest): Promise<RefusalView> {
  const caller = request.caller!;
  const path = new URL(request.url, 'http://x').pathname;
  let membership: MembershipFact;
  let orgName: string | null = null;
  if (!caller.isStaff) {
    const { orgId } = await activeOrgOf(db, request, 'staffSettings');
    if (orgId) {
      [membership, orgName] = await Promise.all([readMembership(db, orgId, caller.userId), findOrganization(db, orgId).then((o) => o?.name ?? null)]);
    }
  }
  return { caller, path, membership, orgName, home: homeOf(navFor(caller, membership)) };
}

function shell(view: RefusalView, title: string, main: ReturnType<typeof html>, script?: string): string {
  const { caller, membership, path } = view;
  return renderPage({
    title,
    script,
    user: { email: caller.email, firstName: caller.firstName },
    nav: renderNav(navFor(caller, membership), path),
    main,
  });
}

function goBack(home: string) {
  return html`<p><a class="button" id="refusal-home" href="${home}">${GO_TO[home] ?? 'Aller à vos accès'}</a></p>`;
}

/** 403 to a browser. */
export function renderForbidden(view: RefusalView): string {
  const { membership, orgName } = view;
  const why =
    membership && membership !== 'lookup_failed' && !membership.revoked
      ? html`<p>Votre rôle${orgName ? html` dans <strong>${orgName}</strong>` : ''} (${roleLabel(membership.role)}) ne permet pas d'ouvrir cette page. Si vous en avez besoin, demandez à un administrateur de votre organisation de changer votre rôle.</p>`
      : membership && membership !== 'lookup_failed'
        ? html`<p>Votre accès${orgName ? html` à <strong>${orgName}</strong>` : ''} a été révoqué : cette page ne vous est plus ouverte.</p>`
        : html`<p>Votre compte ne permet pas d'ouvrir cette page.</p>`;
  return shell(
    view,
    'Accès refusé',
    html`<section class="card narrow" id="refusal" aria-labelledby="refusal-title">
  <h1 id="refusal-title">Vous n'avez pas accès à cette page</h1>
  ${why}
  ${goBack(view.home)}
</section>`,
  );
}

/** 404 to a signed-in browser: the person's bar, and the way to the page their role works in. */
export function renderNotFound(view: RefusalView): string {
  return shell(
    view,
    'Page introuvable',
    html`<section class="card narrow" id="not-found" aria-labelledby="not-found-title">
  <h1 id="not-found-title">Page introuvable</h1>
  <p>Cette adresse ne correspond à aucune page. Elle a peut-être été mal copiée, ou la page n'existe plus.</p>
  ${goBack(view.home)}
</section>`,
  );
}

/** The bar's name of the page asked for ("Paie"), or a generic one. */
function pageName(path: string): string {
  const entry = NAV.find((e) => path === e.href || path.startsWith(`${e.href}/`));
  return entry ? entry.label : 'Cette page';
}

/** 400 `no_active_org` to a browser: staff choose an organization here; a member is told they have none. */
export function renderNoActiveOrg(view: RefusalView): string {
  const name = pageName(view.path);
  if (!view.caller.isStaff) {
    return shell(
      view,
      'Aucune organisation',
      html`<section class="card narrow" id="refusal" aria-labelledby="refusal-title">
  <h1 id="refusal-title">Aucune organisation active</h1>
  <p>Votre compte n'a accès à aucune organisation pour le moment : la page « ${name} » ne peut rien montrer. Si vous attendez une invitation, demandez-la à un administrateur de votre organisation.</p>
  ${goBack('/vos-acces')}
</section>`,
    );
  }
  return shell(
    view,
    'Choisir une organisation',
    html`<section class="card narrow" id="org-switcher" aria-labelledby="refusal-title">
  <h1 id="refusal-title">Choisissez une organisation</h1>
  <p id="choose-org-text">La page « ${name} » montre les données d'une organisation. Choisissez laquelle : la page s'affiche ensuite pour elle.</p>
  ${statusRegion()}
  ${orgSearchBox(html`Organisation`)}
  <p><a href="/staff/organisations">Voir la liste des organisations</a></p>
</section>`,
    'choose-org.js',
  );
}
