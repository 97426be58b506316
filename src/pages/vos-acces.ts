/**
 * `/vos-acces`, rendered on the server from the same functions as the API (`describeMe`,
 * the member list's SQL, the audit trail's read) under the same access rules (the organization resolution (docs/access.md),
 * 4.4): the page is complete on arrival, shows nothing the caller could not read through the
 * API, and its script only sends changes to the API and swaps in a fresh copy of the page.
 */
import type { FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../db/database.ts';
import type { Caller } from '../identity/identity.service.ts';
import { CLI_ACTOR, listAccessEvents, type AccessEventRow } from '../audit/audit.repository.ts';
import { globalMembersPage, listOrgMembersJson } from '../access/access.repository.ts';
import { describeMe } from '../org/me.ts';
import type { Me } from '../schemas/me.ts';
import { findOrganization } from '../org/org.repository.ts';
import { revokedAccessesOf } from '../org/membership.repository.ts';
import { ASSIGNABLE_ROLES, can, DEFAULT_ROLE, isProtectedRole, PROTECTED_ROLE } from '../org/permissions.ts';
import { activeOrgOf, readMembership } from '../org/scope.ts';
import type { AccessItem } from '../schemas/access.ts';
import { ofFr } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { confirmDialog, renderPage, statusRegion } from './layout.ts';
import { clipped, peopleTable, personCells } from './people.ts';
import { actionLabel, formatPageDate, memberStatus, roleLabel, STATUS_LABELS } from './labels.ts';

export type Member = Static<typeof AccessItem>;

/** How many audit records the page shows. */
export const HISTORY_SIZE = 20;

/** How many memberships the staff's global view shows (the API lists them all). */
export const GLOBAL_SIZE = 100;

export interface GlobalView {
  /** The newest memberships of every organization, with the organization's name. */
  members: (Member & { org_name: string })[];
  /** Every membership, and the organizations. */
  total: number;
  orgCount: number;
}

export interface VosAccesView {
  me: Static<typeof Me>;
  /** The organization the page acts on, when one resolves and exists. */
  org: { id: string; name: string; structure_api: string | null } | null;
  /** Staff whose organization came from their saved settings: the page sets the cookie again. */
  restoreOrgCookie: boolean;
  /** Present for ADMIN and SUPER_ADMIN of the organization, and for staff. */
  manage: { members: Member[]; events: AccessEventRow[] } | null;
  /** Staff without an organization: every membership, the newest first. */
  global: GlobalView | null;
  /** A member's revoked accesses, with when (explained on the page). */
  revoked: { org_id: string; org_name: string; revoked_at: Date | null }[];
}

/**
 * The organization as the API resolves it; for staff without a hint, the one last
 * chosen in the staff settings, as every module route falls back to. The
 * management part is shown to whom the API's manage-members gate lets through.
 */
export async function loadVosAcces(db: Database, request: FastifyRequest, caller: Caller): Promise<VosAccesView> {
  const { orgId, fromSettings: restoreOrgCookie } = await activeOrgOf(db, request, 'staffSettings');
  const org = orgId ? ((await findOrganization(db, orgId)) ?? null) : null;
  const me = await describeMe(db, caller, org?.id ?? null);
  const revoked = caller.isStaff ? [] : await revokedAccessesOf(db, caller.userId);
  const base = { me, revoked, global: null, manage: null };
  if (!org) return { ...base, org: null, restoreOrgCookie: false, global: caller.isStaff ? await loadGlobalView(db) : null };

  const membership = caller.isStaff ? undefined : await readMembership(db, org.id, caller.userId);
  if (can(caller, membership, 'manageMembers') !== 'allowed') return { ...base, org, restoreOrgCookie };
  const [members, events] = await Promise.all([
    listOrgMembersJson(db, org.id).then((json) => JSON.parse(json) as Member[]),
    // A staff member's choice of organization is for staff eyes only.
    listAccessEvents(db, org.id, null, HISTORY_SIZE, caller.isStaff),
  ]);
  return { ...base, org, restoreOrgCookie, manage: { members, events } };
}

/** The newest memberships of every organization, read as `GET /api/access` reads them in global mode. */
async function loadGlobalView(db: Database): Promise<GlobalView> {
  const page = await globalMembersPage(db, null, GLOBAL_SIZE);
  const items = JSON.parse(`[${page.chunks.join(',')}]`) as Member[];
  const orgIds = [...new Set(items.map((m) => m.org_id!))];
  const [orgs, counts] = await Promise.all([
    orgIds.length ? db.selectFrom('organizations').select(['id', 'name']).where('id', 'in', orgIds).execute() : [],
    db
      .selectFrom('organization_members')
      .select((eb) => [eb.fn.countAll<string>().as('total'), eb.fn.count<string>('org_id').distinct().as('orgs')])
      .executeTakeFirstOrThrow(),
  ]);
  const names = new Map(orgs.map((o) => [o.id, o.name]));
  return {
    members: items.map((m) => ({ ...m, org_name: names.get(m.org_id!) ?? '—' })),
    total: Number(counts.total),
    orgCount: Number(counts.orgs),
  };
}

export type MemberAction = 'change_role' | 'reactivate' | 'resend' | 'revoke';

/**
 * The actions offered on a member's row: only those the API would accept.
 * None on the SUPER_ADMIN (protected) nor on one's own row (no self-revocation;
 * changing one's own role would lock oneself out).
 */
export function memberActions(viewer: { userId: string }, member: Member): MemberAction[] {
  if (isProtectedRole(member.role) || member.user_id === viewer.userId) return [];
  // An account that cannot be read has no e-mail to address a change to.
  const addressable = member.email !== 'Email non disponible';
  if (member.revoked) return addressable ? ['reactivate'] : [];
  const actions: MemberAction[] = addressable ? ['change_role'] : [];
  if (!member.activated) actions.push('resend');
  actions.push('revoke');
  return actions;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What the members card and the staff switcher count (item: the same words in both places). */
export function memberCounts(members: { revoked: boolean; activated: boolean }[]): { current: number; pending: number; revoked: number } {
  let current = 0;
  let pending = 0;
  let revoked = 0;
  for (const m of members) {
    if (m.revoked) revoked++;
    else {
      current++;
      if (!m.activated) pending++;
    }
  }
  return { current, pending, revoked };
}

/** "5 membres actifs ou invités (dont 1 invitation en attente) · 1 accès révoqué". */
export function memberCountText(members: { revoked: boolean; activated: boolean }[]): string {
  const { current, pending, revoked } = memberCounts(members);
  let text = current === 1 ? '1 membre actif ou invité' : `${current} membres actifs ou invités`;
  if (pending) text += ` (dont ${plural(pending, 'invitation en attente', 'invitations en attente')})`;
  if (revoked) text += ` · ${plural(revoked, 'accès révoqué', 'accès révoqués')}`;
  return text;
}

function statusBadge(member: { revoked: boolean; activated: boolean }): SafeHtml {
  const status = memberStatus(member);
  return html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>`;
}

function roleOptions(selected: string | null, roles: readonly string[] = ASSIGNABLE_ROLES): SafeHtml[] {
  return roles.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${roleLabel(role)}</option>`);
}

function ownAccesses(me: VosAccesView['me']): SafeHtml | '' {
  // Staff manage every organization: a list of their own memberships only when they have some.
  if (me.is_staff && !me.memberships.length) return '';
  const table = me.memberships.length
    ? html`<div class="table-wrap"><table class="table stack">
      <caption class="visually-hidden">Vos accès par organisation</caption>
      <thead><tr><th scope="col">Organisation</th><th scope="col">Rôle</th><th scope="col">Statut</th></tr></thead>
      <tbody>${me.memberships.map(
        (m) => html`<tr>
        <td data-label="Organisation" class="wrap">${m.org_name}</td>
        <td data-label="Rôle">${roleLabel(m.role)}</td>
        <td data-label="Statut">${statusBadge({ revoked: m.revoked, activated: true })}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
    : html`<p class="muted">Vous n'avez encore accès à aucune organisation. Si vous attendez une invitation, demandez-la à un administrateur de votre organisation.</p>`;
  return html`<section class="card" id="own" data-refresh aria-labelledby="own-title">
  <h2 id="own-title">Vos organisations</h2>
  ${table}
</section>`;
}

/** A member whose access was withdrawn: what happened, when, and whom to ask. */
function revokedNotice(view: VosAccesView, timeZone: string, supportEmail: string): SafeHtml | '' {
  const active = new Set(view.me.memberships.filter((m) => !m.revoked).map((m) => m.org_id));
  const withdrawn = view.revoked.filter((r) => !active.has(r.org_id));
  if (!withdrawn.length) return '';
  return html`<section class="notice" id="revoked-notice" aria-labelledby="revoked-title">
  <h2 id="revoked-title">${withdrawn.length === 1 ? 'Votre accès a été retiré' : 'Certains de vos accès ont été retirés'}</h2>
  <ul>${withdrawn.map(
    (r) =>
      html`<li>Votre accès à <strong>${r.org_name}</strong> a été révoqué${r.revoked_at ? html` le ${formatPageDate(r.revoked_at, timeZone)}` : ''} par un administrateur de cette organisation.</li>`,
  )}</ul>
  <p>Pour le retrouver, adressez-vous à un administrateur de l'organisation : il peut rétablir votre accès. Pour toute autre question, écrivez à <a href="mailto:${supportEmail}">${supportEmail}</a>.</p>
</section>`;
}

function orgSwitcher(me: VosAccesView['me'], org: VosAccesView['org']): SafeHtml {
  return html`<section class="card" id="org-switcher" aria-labelledby="org-title">
  <h2 id="org-title">Organisation active</h2>
  <p class="muted">Votre niveau : <strong>${roleLabel(me.staff_level ?? 'STAFF')}</strong>. Vous gérez les accès de toutes les organisations. <a href="/staff/equipe">Gérer l'équipe interne</a></p>
  <div class="current-org">${
    org
      ? html`<p><strong id="current-org-name">${org.name}</strong>${org.structure_api ? html` <span class="muted">(clé employeur ${org.structure_api})</span>` : ''}</p>
    <button type="button" class="button button-small button-secondary" id="org-clear">Revenir à la vue globale<span class="visually-hidden"> (toutes les organisations)</span></button>`
      : html`<p><strong id="current-org-name">Vue globale : toutes les organisations</strong></p>`
  }</div>
  ${orgSearchBox(html`Changer d'organisation`)}
</section>`;
}

/** The switcher's search box (`assets/org-switcher.js` wires it): here, and on a module page opened before choosing (`refusals.ts`). */
export function orgSearchBox(label: SafeHtml): SafeHtml {
  return html`<div class="combobox">
    <label for="org-search">${label}</label>
    <p id="org-search-hint" class="hint">Tapez une partie du nom ou de la clé employeur (sans souci des accents), puis choisissez avec les flèches et Entrée.</p>
    <input id="org-search" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false"
      aria-controls="org-results" aria-describedby="org-search-hint" autocomplete="off" spellcheck="false" maxlength="200">
    <ul id="org-results" class="listbox" role="listbox" aria-label="Organisations trouvées" hidden></ul>
    <p id="org-search-status" class="visually-hidden" role="status" aria-live="polite"></p>
  </div>`;
}

function memberRow(viewer: { userId: string }, member: Member): SafeHtml {
  const actions = memberActions(viewer, member);
  const who = member.email;
  const controls: SafeHtml[] = [];
  if (actions.includes('change_role') || actions.includes('reactivate')) {
    const reactivate = actions.includes('reactivate');
    controls.push(html`<div class="role-change">
      <label class="visually-hidden" for="role-${member.user_id}">Rôle ${ofFr(who)}</label>
      <select id="role-${member.user_id}" data-role-select data-of-email="${ofFr(who)}">${roleOptions(reactivate && isProtectedRole(member.role) ? null : member.role)}</select>
      <button type="button" class="button button-small" id="${reactivate ? 'reactivate' : 'change-role'}-${member.user_id}" data-action="${reactivate ? 'reactivate' : 'change-role'}">${reactivate ? "Rétablir l'accès" : 'Modifier le rôle'}<span class="visually-hidden"> ${ofFr(who)}</span></button>
    </div>`);
  }
  if (actions.includes('resend')) {
    controls.push(
      html`<button type="button" class="button button-small button-secondary" id="resend-${member.user_id}" data-action="resend">Renvoyer l'invitation<span class="visually-hidden"> à ${who}</span></button>`,
    );
  }
  if (actions.includes('revoke')) {
    controls.push(
      html`<button type="button" class="button button-small button-danger" id="revoke-${member.user_id}" data-action="revoke">Révoquer<span class="visually-hidden"> l'accès ${ofFr(who)}</span></button>`,
    );
  }
  const none = isProtectedRole(member.role) ? 'Administrateur principal : protégé' : member.user_id === viewer.userId ? 'Vous' : '—';
  return html`<tr data-user-id="${member.user_id}" data-email="${member.email}" data-role="${member.role}">
    ${personCells(member.first_name, member.email)}
    <td data-label="Rôle">${roleLabel(member.role)}</td>
    <td data-label="Statut">${statusBadge(member)}</td>
    <td data-label="Actions"><div class="actions">${controls.length ? controls : html`<span class="muted">${none}</span>`}</div></td>
  </tr>`;
}

/** The invite form, at the top of the members card, its result right under it (as Clerk's members page). */
function inviteForm(roles: readonly string[]): SafeHtml {
  const superAdmin = roles.includes(PROTECTED_ROLE);
  return html`<section class="invite" id="invite" aria-labelledby="invite-title">
  <h3 id="invite-title">Inviter un membre</h3>
  <p class="muted" id="invite-hint">Sans compte, la personne reçoit un e-mail d'activation ; avec un compte, elle est ajoutée à l'organisation.${superAdmin ? " L'organisation n'a pas encore d'administrateur principal : vous pouvez le désigner ici (il reçoit toujours l'e-mail d'activation)." : ''}</p>
  <form id="invite-form" class="form form-grid" novalidate>
    <div class="field">
      <label for="invite-email">Adresse e-mail <span class="required">(obligatoire)</span></label>
      <input id="invite-email" name="email" type="email" autocomplete="off" inputmode="email" spellcheck="false" maxlength="320" required aria-describedby="invite-email-error">
      <p id="invite-email-error" class="field-error" hidden></p>
    </div>
    <div class="field">
      <label for="invite-first-name">Prénom</label>
      <input id="invite-first-name" name="first_name" type="text" autocomplete="off" maxlength="100">
    </div>
    <div class="field">
      <label for="invite-role">Rôle</label>
      <select id="invite-role" name="role" data-refresh>${roleOptions(DEFAULT_ROLE, roles)}</select>
    </div>
    <div class="field field-submit">
      <button type="submit" class="button">Envoyer l'invitation</button>
    </div>
  </form>
  ${statusRegion('members-status')}
</section>`;
}

function membersSection(view: VosAccesView, org: { name: string }, members: Member[]): SafeHtml {
  const viewer = { userId: view.me.id };
  // Staff give an organization its SUPER_ADMIN (POST /api/access/nouveau) while it has none.
  const roles: readonly string[] = view.me.is_staff && !members.some((m) => isProtectedRole(m.role)) ? [PROTECTED_ROLE, ...ASSIGNABLE_ROLES] : ASSIGNABLE_ROLES;
  return html`<section class="card" id="members" aria-labelledby="members-title">
  <h2 id="members-title" class="wrap" tabindex="-1">Membres ${ofFr(org.name)}</h2>
  ${inviteForm(roles)}
  <div id="members-list" data-refresh>
  <p class="muted" id="members-count">${memberCountText(members)}. Du plus récent au plus ancien.</p>
  ${
    members.length
      ? peopleTable(
          `Membres ${ofFr(org.name)}`,
          'Rôle',
          members.map((m) => memberRow(viewer, m)),
        )
      : html`<p>Aucun membre pour le moment.</p>`
  }
  </div>
</section>`;
}

/** Staff without an organization: the newest memberships of every organization, read-only. */
function globalSection(global: GlobalView): SafeHtml {
  const shown = global.members.length;
  return html`<section class="card" id="global" aria-labelledby="global-title">
  <h2 id="global-title">Tous les accès</h2>
  <p class="muted" id="global-count">${plural(global.total, 'accès', 'accès')} dans ${plural(global.orgCount, 'organisation', 'organisations')}${shown < global.total ? `, les ${shown} plus récents ci-dessous (la liste complète : GET /api/access)` : ''}. Pour inviter, changer un rôle ou révoquer, choisissez une organisation ci-dessus.</p>
  ${
    shown
      ? html`<div class="table-wrap"><table class="table stack members">
      <caption class="visually-hidden">Accès de toutes les organisations</caption>
      <colgroup><col class="col-org"><col class="col-name"><col class="col-email"><col class="col-role"><col class="col-status"></colgroup>
      <thead><tr><th scope="col">Organisation</th><th scope="col">Prénom</th><th scope="col">E-mail</th><th scope="col">Rôle</th><th scope="col">Statut</th></tr></thead>
      <tbody>${global.members.map(
        (m) => html`<tr data-email="${m.email}">
        <td data-label="Organisation">${clipped(m.org_name, 'clip-wrap')}</td>
        ${personCells(m.first_name, m.email)}
        <td data-label="Rôle">${roleLabel(m.role)}</td>
        <td data-label="Statut">${statusBadge(m)}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
      : html`<p>Aucun accès pour le moment.</p>`
  }
</section>`;
}

/** Who made a change: an e-mail, or the command line (recorded as `cli`). */
function actorOf(actorEmail: string | null): SafeHtml | string {
  if (actorEmail === null) return html`<span class="muted">—</span>`;
  return actorEmail === CLI_ACTOR ? 'Ligne de commande' : clipped(actorEmail, 'clip-wrap');
}

/** The role of a change: "Agent → Administrateur" when it changed, one role when it did not. */
export function roleChangeText(oldRole: string | null, newRole: string | null): string {
  if (oldRole && newRole && oldRole !== newRole) return `${roleLabel(oldRole)} → ${roleLabel(newRole)}`;
  const role = newRole ?? oldRole;
  return role ? roleLabel(role) : '—';
}

function historySection(events: AccessEventRow[], timeZone: string): SafeHtml {
  return html`<section class="card" id="history" data-refresh aria-labelledby="history-title">
  <h2 id="history-title">Historique des accès</h2>
  ${
    events.length
      ? html`<p class="muted">${events.length === 1 ? 'Un seul changement pour le moment.' : `Les ${events.length} derniers changements, du plus récent au plus ancien.`}</p>
    <div class="table-wrap"><table class="table stack history">
      <caption class="visually-hidden">Historique des changements d'accès</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Action</th><th scope="col">Par</th><th scope="col">Membre</th><th scope="col">Rôle</th></tr></thead>
      <tbody>${events.map(
        (e) => html`<tr>
        <td data-label="Date" class="date"><time datetime="${new Date(e.created_at).toISOString()}">${formatPageDate(e.created_at, timeZone)}</time></td>
        <td data-label="Action">${actionLabel(e.action, e.actor_email === CLI_ACTOR)}</td>
        <td data-label="Par" class="email">${actorOf(e.actor_email)}</td>
        <td data-label="Membre" class="email">${e.target_email ? clipped(e.target_email, 'clip-wrap') : html`<span class="muted">—</span>`}</td>
        <td data-label="Rôle">${roleChangeText(e.old_role, e.new_role)}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
      : html`<p>Aucun changement enregistré.</p>`
  }
</section>`;
}

const revokeDialog = confirmDialog({ title: "Révoquer l'accès ?", keepLabel: 'Annuler', confirmLabel: "Révoquer l'accès" });

export interface PageSettings {
  timeZone: string;
  supportEmail: string;
}

export function renderVosAcces(view: VosAccesView, settings: PageSettings, nav?: SafeHtml): string {
  const { me, org, manage, global } = view;
  const intro = org
    ? html`<p class="lead">Organisation : <strong>${org.name}</strong></p>`
    : me.is_staff
      ? html`<p class="lead">Vue globale : les accès de toutes les organisations. Choisissez une organisation pour gérer ses membres.</p>`
      : '';
  return renderPage({
    title: 'Vos accès',
    script: 'vos-acces.js',
    user: { email: me.email, firstName: me.first_name },
    nav,
    main: html`<div class="page" id="vos-acces" data-org-id="${org?.id ?? ''}" data-org-name="${org?.name ?? ''}" data-staff="${me.is_staff ? 'true' : 'false'}">
  <h1>Vos accès</h1>
  ${intro}
  ${statusRegion()}
  ${me.is_staff ? orgSwitcher(me, org) : ''}
  ${revokedNotice(view, settings.timeZone, settings.supportEmail)}
  ${ownAccesses(me)}
  ${
    manage && org
      ? [membersSection(view, org, manage.members), historySection(manage.events, settings.timeZone)]
      : org && !me.is_staff && me.memberships.some((m) => !m.revoked)
        ? html`<p class="muted" id="no-manage">Pour ajouter un membre ou changer un rôle, adressez-vous à un administrateur de votre organisation.</p>`
        : ''
  }
  ${global ? globalSection(global) : ''}
</div>
${manage ? revokeDialog : ''}`,
  });
}
