/**
 * `/vos-acces`, rendered on the server from the same functions as the API (`describeMe`,
 * the member list's SQL, the audit trail's read) under the same access rules (SPEC 4.3,
 * 4.4): the page is complete on arrival, shows nothing the caller could not read through the
 * API, and its script only sends changes to the API and swaps in a fresh copy of the page.
 */
import type { FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Database } from '../db/database.ts';
import type { Caller } from '../identity/identity.service.ts';
import { CLI_ACTOR, listAccessEvents, type AccessEventRow } from '../audit/audit.repository.ts';
import { listOrgMembersJson } from '../access/access.repository.ts';
import { describeMe } from '../org/me.ts';
import type { Me } from '../schemas/me.ts';
import { findOrganization } from '../org/org.repository.ts';
import { ASSIGNABLE_ROLES, can, DEFAULT_ROLE, isProtectedRole } from '../org/permissions.ts';
import { activeOrgOf, readMembership } from '../org/scope.ts';
import type { AccessItem } from '../schemas/access.ts';
import { html, type SafeHtml } from './html.ts';
import { renderPage, statusRegion } from './layout.ts';
import { actionLabel, formatPageDate, memberStatus, roleLabel, STATUS_LABELS } from './labels.ts';

export type Member = Static<typeof AccessItem>;

/** How many audit records the page shows. */
export const HISTORY_SIZE = 20;

export interface VosAccesView {
  me: Static<typeof Me>;
  /** The organization the page acts on, when one resolves and exists. */
  org: { id: string; name: string; structure_api: string | null } | null;
  /** Staff whose organization came from their saved settings: the page sets the cookie again. */
  restoreOrgCookie: boolean;
  /** Present for ADMIN and SUPER_ADMIN of the organization, and for staff (SPEC 4.4). */
  manage: { members: Member[]; events: AccessEventRow[] } | null;
}

/**
 * The organization as the API resolves it (SPEC 4.3); for staff without a hint, the one last
 * chosen in the staff settings, as every module route falls back to (MODULES 1). The
 * management part is shown to whom the API's manage-members gate lets through.
 */
export async function loadVosAcces(db: Database, request: FastifyRequest, caller: Caller): Promise<VosAccesView> {
  const { orgId, fromSettings: restoreOrgCookie } = await activeOrgOf(db, request, 'staffSettings');
  const org = orgId ? ((await findOrganization(db, orgId)) ?? null) : null;
  const me = await describeMe(db, caller, org?.id ?? null);
  if (!org) return { me, org: null, restoreOrgCookie: false, manage: null };

  const membership = caller.isStaff ? undefined : await readMembership(db, org.id, caller.userId);
  if (can(caller, membership, 'manageMembers') !== 'allowed') return { me, org, restoreOrgCookie, manage: null };
  const [members, events] = await Promise.all([
    listOrgMembersJson(db, org.id).then((json) => JSON.parse(json) as Member[]),
    listAccessEvents(db, org.id, null, HISTORY_SIZE),
  ]);
  return { me, org, restoreOrgCookie, manage: { members, events } };
}

export type MemberAction = 'change_role' | 'reactivate' | 'resend' | 'revoke';

/**
 * The actions offered on a member's row: only those the API would accept (CONTRACT 5).
 * None on the SUPER_ADMIN (protected, SPEC 2.3) nor on one's own row (no self-revocation;
 * changing one's own role would lock oneself out).
 */
export function memberActions(viewer: { userId: string }, member: Member): MemberAction[] {
  if (isProtectedRole(member.role) || member.user_id === viewer.userId) return [];
  // SPEC 2.5: an account that cannot be read has no e-mail to address a change to.
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

function statusBadge(member: { revoked: boolean; activated: boolean }): SafeHtml {
  const status = memberStatus(member);
  return html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>`;
}

function roleOptions(selected: string | null): SafeHtml[] {
  return ASSIGNABLE_ROLES.map(
    (role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${roleLabel(role)}</option>`,
  );
}

function ownAccesses(me: VosAccesView['me']): SafeHtml {
  const staffLine = me.is_staff
    ? html`<p>Vous faites partie de l'équipe interne (niveau : <strong>${roleLabel(me.staff_level ?? 'STAFF')}</strong>) : vous pouvez gérer les accès de toutes les organisations.</p>`
    : '';
  const table = me.memberships.length
    ? html`<div class="table-wrap"><table class="table stack">
      <caption class="visually-hidden">Vos accès par organisation</caption>
      <thead><tr><th scope="col">Organisation</th><th scope="col">Rôle</th><th scope="col">Statut</th></tr></thead>
      <tbody>${me.memberships.map(
        (m) => html`<tr>
        <td data-label="Organisation">${m.org_name}</td>
        <td data-label="Rôle">${roleLabel(m.role)}</td>
        <td data-label="Statut">${statusBadge({ revoked: m.revoked, activated: true })}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
    : html`<p class="muted">${me.is_staff ? "Vous n'êtes membre d'aucune organisation." : "Vous n'avez encore accès à aucune organisation."}</p>`;
  return html`<section class="card" id="own" data-refresh aria-labelledby="own-title">
  <h2 id="own-title">Vos organisations</h2>
  ${staffLine}
  ${table}
</section>`;
}

function orgSwitcher(org: VosAccesView['org']): SafeHtml {
  return html`<section class="card" id="org-switcher" aria-labelledby="org-title">
  <h2 id="org-title">Organisation active</h2>
  <p class="current-org">${org
    ? html`<strong id="current-org-name">${org.name}</strong>${org.structure_api ? html` <span class="muted">(clé employeur ${org.structure_api})</span>` : ''}`
    : html`<strong id="current-org-name">Aucune organisation choisie</strong>`}</p>
  <div class="combobox">
    <label for="org-search">Changer d'organisation</label>
    <p id="org-search-hint" class="hint">Tapez une partie du nom ou de la clé employeur, puis choisissez avec les flèches et Entrée.</p>
    <input id="org-search" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false"
      aria-controls="org-results" aria-describedby="org-search-hint" autocomplete="off" spellcheck="false" maxlength="200">
    <ul id="org-results" class="listbox" role="listbox" aria-label="Organisations trouvées" hidden></ul>
    <p id="org-search-status" class="visually-hidden" role="status" aria-live="polite"></p>
  </div>
</section>`;
}

function memberRow(viewer: { userId: string }, member: Member): SafeHtml {
  const actions = memberActions(viewer, member);
  const who = member.email;
  const controls: SafeHtml[] = [];
  if (actions.includes('change_role') || actions.includes('reactivate')) {
    const reactivate = actions.includes('reactivate');
    controls.push(html`<div class="role-change">
      <label class="visually-hidden" for="role-${member.user_id}">Rôle de ${who}</label>
      <select id="role-${member.user_id}" data-role-select>${roleOptions(reactivate && isProtectedRole(member.role) ? null : member.role)}</select>
      <button type="button" class="button button-small" id="${reactivate ? 'reactivate' : 'change-role'}-${member.user_id}" data-action="${reactivate ? 'reactivate' : 'change-role'}">${reactivate ? "Rétablir l'accès" : 'Modifier le rôle'}<span class="visually-hidden"> de ${who}</span></button>
    </div>`);
  }
  if (actions.includes('resend')) {
    controls.push(html`<button type="button" class="button button-small button-secondary" id="resend-${member.user_id}" data-action="resend">Renvoyer l'invitation<span class="visually-hidden"> à ${who}</span></button>`);
  }
  if (actions.includes('revoke')) {
    controls.push(html`<button type="button" class="button button-small button-danger" id="revoke-${member.user_id}" data-action="revoke">Révoquer<span class="visually-hidden"> l'accès de ${who}</span></button>`);
  }
  const none = isProtectedRole(member.role) ? 'Administrateur principal : protégé' : member.user_id === viewer.userId ? 'Vous' : '—';
  return html`<tr data-user-id="${member.user_id}" data-email="${member.email}" data-role="${member.role}">
    <td data-label="Prénom">${member.first_name ?? html`<span class="muted">—</span>`}</td>
    <td data-label="E-mail" class="email">${member.email}</td>
    <td data-label="Rôle">${roleLabel(member.role)}</td>
    <td data-label="Statut">${statusBadge(member)}</td>
    <td data-label="Actions"><div class="actions">${controls.length ? controls : html`<span class="muted">${none}</span>`}</div></td>
  </tr>`;
}

function membersSection(viewer: { userId: string }, org: { name: string }, members: Member[]): SafeHtml {
  return html`<section class="card" id="members" data-refresh aria-labelledby="members-title">
  <h2 id="members-title" tabindex="-1">Membres de ${org.name}</h2>
  <p class="muted">${plural(members.length, 'membre', 'membres')}, du plus récent au plus ancien.</p>
  ${members.length
    ? html`<div class="table-wrap"><table class="table stack members">
      <caption class="visually-hidden">Membres de ${org.name}</caption>
      <thead><tr><th scope="col">Prénom</th><th scope="col">E-mail</th><th scope="col">Rôle</th><th scope="col">Statut</th><th scope="col">Actions</th></tr></thead>
      <tbody>${members.map((m) => memberRow(viewer, m))}</tbody>
    </table></div>`
    : html`<p>Aucun membre pour le moment.</p>`}
</section>`;
}

function inviteSection(): SafeHtml {
  return html`<section class="card" id="invite" aria-labelledby="invite-title">
  <h2 id="invite-title">Inviter un membre</h2>
  <p class="muted">Sans compte, la personne reçoit un e-mail d'activation ; avec un compte, elle est ajoutée à l'organisation.</p>
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
      <select id="invite-role" name="role">${roleOptions(DEFAULT_ROLE)}</select>
    </div>
    <div class="field field-submit">
      <button type="submit" class="button">Envoyer l'invitation</button>
    </div>
  </form>
</section>`;
}

/** Who made a change: an e-mail, or the command line (recorded as `cli`). */
function actorOf(actorEmail: string | null): SafeHtml | string {
  if (actorEmail === null) return html`<span class="muted">—</span>`;
  return actorEmail === CLI_ACTOR ? 'Ligne de commande' : actorEmail;
}

function historySection(events: AccessEventRow[], timeZone: string): SafeHtml {
  const role = (value: string | null) => (value ? roleLabel(value) : html`<span class="muted">—</span>`);
  return html`<section class="card" id="history" data-refresh aria-labelledby="history-title">
  <h2 id="history-title">Historique des accès</h2>
  ${events.length
    ? html`<p class="muted">${events.length === 1 ? 'Un seul changement pour le moment.' : `Les ${events.length} derniers changements, du plus récent au plus ancien.`}</p>
    <div class="table-wrap"><table class="table stack history">
      <caption class="visually-hidden">Historique des changements d'accès</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Action</th><th scope="col">Par</th><th scope="col">Membre</th><th scope="col">Ancien rôle</th><th scope="col">Nouveau rôle</th></tr></thead>
      <tbody>${events.map(
        (e) => html`<tr>
        <td data-label="Date" class="date"><time datetime="${new Date(e.created_at).toISOString()}">${formatPageDate(e.created_at, timeZone)}</time></td>
        <td data-label="Action">${actionLabel(e.action)}</td>
        <td data-label="Par" class="email">${actorOf(e.actor_email)}</td>
        <td data-label="Membre" class="email">${e.target_email ?? html`<span class="muted">—</span>`}</td>
        <td data-label="Ancien rôle">${role(e.old_role)}</td>
        <td data-label="Nouveau rôle">${role(e.new_role)}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
    : html`<p>Aucun changement enregistré.</p>`}
</section>`;
}

const confirmDialog = html`<dialog id="confirm" class="dialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
  <form method="dialog">
    <h2 id="confirm-title">Révoquer l'accès ?</h2>
    <p id="confirm-text"></p>
    <div class="dialog-actions">
      <button type="submit" value="cancel" class="button button-secondary" autofocus>Annuler</button>
      <button type="submit" value="confirm" class="button button-danger" id="confirm-ok">Révoquer l'accès</button>
    </div>
  </form>
</dialog>`;

export function renderVosAcces(view: VosAccesView, timeZone: string, nav?: SafeHtml): string {
  const { me, org, manage } = view;
  const viewer = { userId: me.id };
  const intro = org
    ? html`<p class="lead">Organisation : <strong>${org.name}</strong></p>`
    : me.is_staff
      ? html`<p class="lead">Choisissez une organisation pour gérer ses membres.</p>`
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
  ${me.is_staff ? orgSwitcher(org) : ''}
  ${ownAccesses(me)}
  ${manage && org
    ? [membersSection(viewer, org, manage.members), inviteSection(), historySection(manage.events, timeZone)]
    : org && !me.is_staff
      ? html`<p class="muted" id="no-manage">Pour ajouter un membre ou changer un rôle, adressez-vous à un administrateur de votre organisation.</p>`
      : ''}
</div>
${manage ? confirmDialog : ''}`,
  });
}
