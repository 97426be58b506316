/**
 * `/staff/cotisations` (gate `staff`): every organization's contribution calls as
 * `GET /api/staff/cotisations` lists them (filters `org_id`, `period`, `status`; keyset pages),
 * each with its lines per organism, total, due date, status and notification; the form of a new
 * call, and each call's "Notifier" and "Marquer payé" (after a confirmation), which the page's
 * script (`staff-cotisations.js`) sends to `POST /api/staff/cotisations`, `…/{id}/notifier` and
 * `…/{id}/paye`.
 */
import type { Database } from '../db/database.ts';
import { formatDateFr, formatEuros, ofFr, todayInFrance } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { listStaffContributionCalls } from '../contributions/contributions.service.ts';
import { KNOWN_ORGANISMS } from '../contributions/contribution.rules.ts';
import { callKindLabel, organismLabel } from '../contributions/contribution.labels.ts';
import { csvLink, dash, listHref, listQueryOf, listSummary, pagerNav, readList, selectOptions, type ListQuery } from './page-parts.ts';
import { confirmDialog, statusRegion } from './layout.ts';
import { labelBadge, periodFromFr, periodLabel } from './payroll-labels.ts';
import { loadOrgChoices, orgSelect, staffFilterForm, type OrgChoice } from './staff-lists.ts';
import { fieldAttrs, fieldErrorBox, filterFieldError, messageOf, type FieldError } from './field-messages.ts';

const PARAMS = ['org_id', 'period', 'status', 'limit', 'cursor'] as const;
type Query = ListQuery<(typeof PARAMS)[number]>;

type Call = Awaited<ReturnType<typeof listStaffContributionCalls>>['items'][number];

export interface StaffCallsView {
  query: Query;
  orgs: OrgChoice[];
  items: Call[];
  nextCursor: string | null;
  /** A refused filter (the API's 400 message), shown instead of rows. */
  error: string | null;
  /** The same refusal placed on its filter field, when it names one. */
  fieldError: FieldError | null;
  today: string;
}

export async function loadStaffCalls(db: Database, rawQuery: unknown): Promise<StaffCallsView> {
  const query = listQueryOf(PARAMS, rawQuery);
  const [orgs, list] = await Promise.all([
    loadOrgChoices(db),
    readList(() => listStaffContributionCalls(db, { ...query, period: query.period ? periodFromFr(query.period) : undefined })),
  ]);
  const fieldError = filterFieldError(list.refusal, {
    period: { kind: 'period', typed: query.period, label: 'Période' },
    status: { kind: 'other', typed: query.status, label: 'Statut' },
    org_id: { kind: 'other', typed: query.org_id, label: 'Organisation' },
  });
  return { query, orgs, ...list, fieldError, today: todayInFrance() };
}

const STATUS_LABELS = { a_payer: 'À payer', paye: 'Payés' };

/** "Oui, le 12/03/2027" (the day in the operator's calendar) or "Non". */
function notifiedLabel(call: Call): string {
  return call.notified_at ? `Oui, le ${formatDateFr(todayInFrance(new Date(call.notified_at)))}` : 'Non';
}

function filterForm(view: StaffCallsView): SafeHtml {
  const { query } = view;
  return staffFilterForm(
    '/staff/cotisations',
    'Filtrer les appels de cotisations',
    view.orgs,
    query,
    html`<div class="field">
      <label for="filter-period">Période</label>
      <input id="filter-period" name="period" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" value="${query.period ?? ''}"${fieldAttrs('filter-period', messageOf(view.fieldError, 'period'), 'filter-period-hint')}>
      <p class="visually-hidden" id="filter-period-hint">Mois et année, par exemple 03/2027.</p>
      ${fieldErrorBox('filter-period', messageOf(view.fieldError, 'period'))}
    </div>
    <div class="field">
      <label for="filter-status">Statut</label>
      <select id="filter-status" name="status"${fieldAttrs('filter-status', messageOf(view.fieldError, 'status'))}>${selectOptions(['a_payer', 'paye'], STATUS_LABELS, query.status, 'Tous')}</select>
      ${fieldErrorBox('filter-status', messageOf(view.fieldError, 'status'))}
    </div>`,
    messageOf(view.fieldError, 'org_id'),
  );
}

/** The form of a new call: one line per usual organism (an empty amount is left out), and one more for any other. */
function createForm(view: StaffCallsView): SafeHtml {
  const line = (organism: string, i: number) => html`<tr>
        <th scope="row" data-label="Organisme">${organismLabel(organism)}<input type="hidden" name="organism" value="${organism}"></th>
        <td data-label="Montant (€)"><label class="visually-hidden" for="call-amount-${i}">Montant ${organismLabel(organism)} (€)</label><input id="call-amount-${i}" name="amount" type="text" inputmode="decimal" autocomplete="off" placeholder="0,00"></td>
      </tr>`;
  const other = KNOWN_ORGANISMS.length;
  return html`<section class="card" id="new-call" aria-labelledby="new-call-title">
    <h2 id="new-call-title">Nouvel appel de cotisations</h2>
    <form id="call-form" class="form" novalidate>
      <div class="form-row">
        <div class="field">
          <label for="call-org">Organisation <span class="required">(obligatoire)</span></label>
          ${orgSelect('call-org', view.orgs, undefined, 'Choisissez une organisation', 'call-org-error')}
          <p id="call-org-error" class="field-error" hidden></p>
        </div>
        <div class="field">
          <label for="call-period">Période <span class="required">(obligatoire)</span></label>
          <input id="call-period" name="period" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" aria-describedby="call-period-hint call-period-error">
          <p class="hint" id="call-period-hint">Le mois des salaires, par exemple 11/2026.</p>
          <p id="call-period-error" class="field-error" hidden></p>
        </div>
        <div class="field">
          <label for="call-due">Échéance <span class="required">(obligatoire)</span></label>
          <input id="call-due" name="due_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" aria-describedby="call-due-hint call-due-error">
          <p class="hint" id="call-due-hint">Format JJ/MM/AAAA.</p>
          <p id="call-due-error" class="field-error" hidden></p>
        </div>
      </div>
      <fieldset class="fieldset" aria-describedby="call-lines-hint">
        <legend>Montants par organisme</legend>
        <p class="hint" id="call-lines-hint">En euros, avec une virgule : 1 234,56. Un organisme sans montant n'est pas appelé.</p>
        <div class="table-wrap"><table class="table stack call-lines" id="call-lines">
          <caption class="visually-hidden">Montants par organisme</caption>
          <thead><tr><th scope="col">Organisme</th><th scope="col">Montant (€)</th></tr></thead>
          <tbody>${KNOWN_ORGANISMS.map(line)}
          <tr>
            <td data-label="Autre organisme"><label class="visually-hidden" for="call-other-organism">Autre organisme</label><input id="call-other-organism" name="organism" type="text" maxlength="100" autocomplete="off" placeholder="Autre organisme"></td>
            <td data-label="Montant (€)"><label class="visually-hidden" for="call-amount-${other}">Montant de l'autre organisme (€)</label><input id="call-amount-${other}" name="amount" type="text" inputmode="decimal" autocomplete="off" placeholder="0,00"></td>
          </tr></tbody>
        </table></div>
        <p class="total-line">Total : <strong id="call-total">0,00&nbsp;€</strong></p>
        <p id="call-lines-error" class="field-error" hidden></p>
      </fieldset>
      <div class="actions">
        <button type="submit" class="button" id="create-call">Créer l'appel</button>
      </div>
      ${statusRegion('call-status')}
    </form>
  </section>`;
}

function callActions(call: Call): SafeHtml {
  if (call.status === 'paye') return html`<span class="muted">Payé le ${call.paid_date ? formatDateFr(call.paid_date) : dash}</span>`;
  const what = `${call.number}, ${call.org_name}, ${periodLabel(call.period)}`;
  return html`<div class="actions">
      <button type="button" class="button button-small button-secondary" data-action="notify" data-id="${call.id}">${call.notified_at ? 'Notifier à nouveau' : 'Notifier'}<span class="visually-hidden"> : ${what}</span></button>
      <button type="button" class="button button-small" data-action="paid" data-id="${call.id}">Marquer payé<span class="visually-hidden"> : ${what}</span></button>
    </div>`;
}

/**
 * A notification's result is written under the row's buttons, and the call's kind wraps under its
 * number: a column of its own and an unbreakable kind pushed the table past its card at 1,280 px.
 */
function callRow(call: Call): SafeHtml {
  return html`<tr data-call-id="${call.id}" data-org-id="${call.org_id}" data-org-name="${call.org_name}" data-period="${periodLabel(call.period)}" data-of-org-name="${ofFr(call.org_name)}" data-of-period="${ofFr(periodLabel(call.period))}" data-total="${formatEuros(call.total)}">
    <td data-label="Référence"><span class="nowrap">${call.number}</span><br><span class="muted small">${callKindLabel(call)}</span></td>
    <td data-label="Organisation" class="wrap">${call.org_name}</td>
    <td data-label="Période" class="period">${periodLabel(call.period)}</td>
    <td data-label="Échéance" class="date">${formatDateFr(call.due_date)}</td>
    <td data-label="Organismes" class="wrap"><ul class="plain small call-organisms">${call.lines.map((l) => html`<li><span class="nowrap">${organismLabel(l.organism)} :</span> <span class="nowrap">${formatEuros(l.amount)}</span></li>`)}</ul></td>
    <td data-label="Total" class="amount">${formatEuros(call.total)}</td>
    <td data-label="Statut" class="call-status">${labelBadge('call', call.status)}</td>
    <td data-label="Notifié" class="notified">${notifiedLabel(call)}</td>
    <td data-label="Actions">${callActions(call)}<div class="row-result small"></div></td>
  </tr>`;
}

function listSection(view: StaffCallsView): SafeHtml {
  const { query, items } = view;
  const count = items.length;
  const summary = listSummary({
    error: view.fieldError?.summary ?? view.error,
    count,
    filtered: Boolean(query.org_id || query.period || query.status),
    afterFirst: Boolean(query.cursor),
    id: 'list-summary',
    noneMatching: 'Aucun appel de cotisations ne correspond à ces critères.',
    none: 'Aucun appel de cotisations pour le moment.',
    one: '1 appel affiché',
    many: (n) => `${n} appels affichés`,
    order: ', de la période la plus récente à la plus ancienne.',
  });
  return html`<section class="card" id="calls" data-refresh aria-labelledby="calls-title">
    <h2 id="calls-title" tabindex="-1">Appels de cotisations</h2>
    ${summary}
    ${
      count
        ? html`<div class="table-wrap"><table class="table stack" id="call-table">
      <caption class="visually-hidden">Appels de cotisations, de la période la plus récente à la plus ancienne</caption>
      <thead><tr><th scope="col">Référence</th><th scope="col">Organisation</th><th scope="col">Période</th><th scope="col">Échéance</th><th scope="col">Organismes</th><th scope="col" class="amount">Total</th><th scope="col">Statut</th><th scope="col">Notifié</th><th scope="col">Actions</th></tr></thead>
      <tbody>${items.map(callRow)}</tbody>
    </table></div>`
        : ''
    }
    ${
      count
        ? csvLink(
            listHref(
              '/api/staff/cotisations.csv',
              ['org_id', 'period', 'status'],
              { ...query, period: query.period ? periodFromFr(query.period) : undefined },
              {},
            ),
            'appels de cotisations de ces critères',
            'calls-csv',
          )
        : ''
    }
    ${pagerNav({ href: (cursor) => listHref('/staff/cotisations', PARAMS, query, { cursor }), current: query.cursor, next: view.nextCursor })}
  </section>`;
}

export function renderStaffCalls(view: StaffCallsView): SafeHtml {
  return html`<div class="page" id="staff-cotisations">
  <h1>Cotisations</h1>
  <p class="lead">Les appels de cotisations de toutes les organisations. La validation de la paie fait l'appel du mois et le révise tant qu'il n'est pas payé ; après paiement, un appel complémentaire le suit. Notifiez-le à l'organisation (un e-mail à ses adresses de notification, qui dit à qui payer), puis marquez-le payé. Le formulaire ci-dessous sert aux appels hors paie.</p>
  ${createForm(view)}
  <section class="card" aria-labelledby="filters-title">
    <h2 id="filters-title" class="visually-hidden">Filtres</h2>
    ${filterForm(view)}
  </section>
  ${statusRegion('calls-status')}
  ${listSection(view)}
</div>
${confirmDialog({
  id: 'confirm-paid',
  title: 'Marquer cet appel payé ?',
  keepLabel: 'Ne rien changer',
  confirmLabel: 'Marquer payé',
  fields: html`<div class="field">
      <label for="paid-date">Date du paiement</label>
      <input id="paid-date" name="paid_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${formatDateFr(view.today)}" aria-describedby="paid-date-hint paid-date-error">
      <p class="hint" id="paid-date-hint">Aujourd'hui ou avant, au format JJ/MM/AAAA.</p>
      <p id="paid-date-error" class="field-error" hidden></p>
    </div>`,
})}`;
}
