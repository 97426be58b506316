/**
 * `/staff/equipe`: the staff team for staff: who is in it, inviting a
 * new member (a SUPER_STAFF only by a SUPER_STAFF) and revoking one (never a SUPER_STAFF, nor
 * oneself). Rendered from `GET /api/staff/users`'s query; its script calls the staff API.
 */
import type { Caller } from '../identity/identity.service.ts';
import type { Database } from '../db/database.ts';
import { listStaffUsers } from '../staff/staff.repository.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { confirmDialog, renderPage, statusRegion } from './layout.ts';
import { peopleTable, personCells } from './people.ts';
import { formatPageDate, roleLabel } from './labels.ts';

type StaffRow = Awaited<ReturnType<typeof listStaffUsers>>[number];

export async function loadStaffTeam(db: Database): Promise<StaffRow[]> {
  return listStaffUsers(db);
}

/** What a row offers: revocation of an active STAFF other than oneself. */
export function canRevokeStaff(caller: { userId: string }, row: Pick<StaffRow, 'user_id' | 'level' | 'is_staff'>): boolean {
  return row.is_staff && row.level !== 'SUPER_STAFF' && row.user_id !== caller.userId;
}

function teamRow(caller: Caller, row: StaffRow, timeZone: string): SafeHtml {
  const status = !row.is_staff
    ? html`<span><span class="badge badge-revoked">Retiré(e)</span>${row.revoked_at ? html` <span class="muted">le ${formatPageDate(row.revoked_at, timeZone)}</span>` : ''}</span>`
    : html`<span class="badge badge-active">Actif</span>`;
  const action = canRevokeStaff(caller, row)
    ? html`<button type="button" class="button button-small button-danger" id="revoke-${row.user_id}" data-action="revoke">Retirer de l'équipe<span class="visually-hidden"> : ${row.email}</span></button>`
    : html`<span class="muted">${row.user_id === caller.userId ? 'Vous' : row.level === 'SUPER_STAFF' ? 'Protégé' : '—'}</span>`;
  return html`<tr data-user-id="${row.user_id}" data-email="${row.email}">
    ${personCells(row.first_name, row.email)}
    <td data-label="Niveau">${roleLabel(row.level)}</td>
    <td data-label="Statut">${status}</td>
    <td data-label="Actions"><div class="actions">${action}</div></td>
  </tr>`;
}

export function renderStaffTeam(caller: Caller, rows: StaffRow[], timeZone: string, nav: SafeHtml): string {
  const levels = caller.staffLevel === 'SUPER_STAFF' ? ['STAFF', 'SUPER_STAFF'] : ['STAFF'];
  const active = rows.filter((r) => r.is_staff).length;
  return renderPage({
    title: 'Équipe interne',
    script: 'staff-equipe.js',
    user: { email: caller.email, firstName: caller.firstName },
    nav,
    main: html`<div class="page" id="staff-team">
  <p><a href="/vos-acces">← Vos accès</a></p>
  <h1>Équipe interne</h1>
  <p class="lead">Les membres de l'équipe interne gèrent les accès de toutes les organisations. Leur compte est actif dès sa création.</p>
  ${statusRegion()}
  <section class="card" id="team" aria-labelledby="team-title">
    <h2 id="team-title" tabindex="-1">Membres de l'équipe</h2>
    <div class="invite">
      <h3 id="team-invite-title">Ajouter un membre à l'équipe</h3>
      <form id="team-form" class="form form-grid" novalidate aria-labelledby="team-invite-title">
        <div class="field">
          <label for="team-email">Adresse e-mail <span class="required">(obligatoire)</span></label>
          <input id="team-email" name="email" type="email" autocomplete="off" inputmode="email" spellcheck="false" maxlength="320" required aria-describedby="team-email-error">
          <p id="team-email-error" class="field-error" hidden></p>
        </div>
        <div class="field">
          <label for="team-first-name">Prénom</label>
          <input id="team-first-name" name="first_name" type="text" autocomplete="off" maxlength="100">
        </div>
        <div class="field">
          <label for="team-level">Niveau</label>
          <select id="team-level" name="level">${levels.map((l) => html`<option value="${l}">${roleLabel(l)}</option>`)}</select>
        </div>
        <div class="field field-submit">
          <button type="submit" class="button">Ajouter à l'équipe</button>
        </div>
      </form>
      ${statusRegion('team-status')}
    </div>
    <div id="team-list" data-refresh>
      <p class="muted" id="team-count">${active === 1 ? '1 membre actif' : `${active} membres actifs`}${rows.length > active ? ` · ${rows.length - active} retiré(s)` : ''}. Du plus récent au plus ancien.</p>
      ${peopleTable(
        "Membres de l'équipe interne",
        'Niveau',
        rows.map((r) => teamRow(caller, r, timeZone)),
      )}
    </div>
  </section>
</div>
${confirmDialog({ title: "Retirer de l'équipe ?", keepLabel: 'Annuler', confirmLabel: "Retirer de l'équipe" })}`,
  });
}
