/**
 * `/staff/virements` (gate `staff`): the payslips a transfer may pay
 * (`GET /api/staff/payslips/available`, filters `org_id` and `period`), their selection and the
 * batch the page's script (`staff-virements.js`) asks of `POST /api/staff/virements`; then the
 * batch made (`?lot={id}`: its count, total and SEPA file), and every batch
 * (`GET /api/staff/virements`) with its actions (executed, cancel, file).
 */
import type { Database } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import { formatDateFr, formatEuros, ofFr, todayInFrance } from '../format/french.ts';
import { listAvailablePayslips, listStaffTransfers, listUnpayablePayslips, readTransfer } from '../transfers/transfers.service.ts';
import { UNPAYABLE_LABELS, type UnpayableReason } from '../transfers/transfer.rules.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { csvLink, dash, listHref, maskedIban, listQueryOf, listSummary, pagerNav, readList, type ListQuery } from './page-parts.ts';
import { confirmDialog, statusRegion } from './layout.ts';
import { labelBadge, periodFromFr, periodLabel, periodToFr } from './payroll-labels.ts';
import { loadOrgChoices, selectAllBox, staffFilterForm, type OrgChoice } from './staff-lists.ts';
import { fieldAttrs, fieldErrorBox, filterFieldError, messageOf, type FieldError } from './field-messages.ts';

/** `lots` is the batches list's own cursor. */
const PARAMS = ['org_id', 'period', 'limit', 'cursor', 'lots', 'lot'] as const;
type Param = (typeof PARAMS)[number];
type Query = ListQuery<Param>;

/** How many batches a page of the batches list shows. */
export const BATCHES_PAGE = 50;

type Payslip = Awaited<ReturnType<typeof listAvailablePayslips>>['items'][number];
type Unpayable = Awaited<ReturnType<typeof listUnpayablePayslips>>[number];
type Batch = Awaited<ReturnType<typeof listStaffTransfers>>['items'][number];
type CreatedBatch = Awaited<ReturnType<typeof readTransfer>>;

export interface StaffTransfersView {
  query: Query;
  orgs: OrgChoice[];
  payslips: Payslip[];
  nextCursor: string | null;
  /** The published payslips left out of "Bulletins à payer", and why. */
  unpayable: Unpayable[];
  /** A refused filter (the API's 400 message), shown instead of rows. */
  error: string | null;
  /** The same refusal placed on its filter field, when it names one. */
  fieldError: FieldError | null;
  batches: Batch[];
  nextBatches: string | null;
  /** The batch just made (`?lot={id}`), shown first with its file. */
  created: CreatedBatch | null;
  today: string;
}

/** A batch that is not there (`?lot=` copied wrong) is not shown; any other failure is one. */
function notFoundAsNull(error: unknown): null {
  if (error instanceof AppError && error.status === 404) return null;
  throw error;
}

export async function loadStaffTransfers(db: Database, rawQuery: unknown): Promise<StaffTransfersView> {
  const query = listQueryOf(PARAMS, rawQuery);
  const period = query.period ? periodFromFr(query.period) : undefined;
  const [orgs, available, unpayable, batches, created] = await Promise.all([
    loadOrgChoices(db),
    readList(() => listAvailablePayslips(db, { org_id: query.org_id, period, limit: query.limit, cursor: query.cursor })),
    readList(async () => ({ items: await listUnpayablePayslips(db, { org_id: query.org_id, period }), next_cursor: null })),
    readList(() => listStaffTransfers(db, { limit: String(BATCHES_PAGE), cursor: query.lots })),
    query.lot && isUuid(query.lot) ? readTransfer(db, query.lot).catch(notFoundAsNull) : Promise.resolve(null),
  ]);
  return {
    query,
    orgs,
    payslips: available.items,
    nextCursor: available.nextCursor,
    unpayable: unpayable.items,
    error: available.error ?? batches.error,
    fieldError: filterFieldError(available.refusal, {
      period: { kind: 'period', typed: query.period, label: 'Période' },
      org_id: { kind: 'other', typed: query.org_id, label: 'Organisation' },
    }),
    batches: batches.items,
    nextBatches: batches.nextCursor,
    created,
    today: todayInFrance(),
  };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

function filterForm(view: StaffTransfersView): SafeHtml {
  return staffFilterForm(
    '/staff/virements',
    'Filtrer les bulletins',
    view.orgs,
    view.query,
    html`<div class="field">
      <label for="filter-period">Période</label>
      <input id="filter-period" name="period" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" value="${view.query.period ?? ''}"${fieldAttrs('filter-period', messageOf(view.fieldError, 'period'), 'filter-period-hint')}>
      <p class="visually-hidden" id="filter-period-hint">Mois et année, par exemple 03/2027.</p>
      ${fieldErrorBox('filter-period', messageOf(view.fieldError, 'period'))}
    </div>`,
    messageOf(view.fieldError, 'org_id'),
  );
}

function payslipRow(p: Payslip): SafeHtml {
  const name = `${p.employee.first_name} ${p.employee.last_name}`;
  return html`<tr data-payslip-id="${p.id}" data-org-id="${p.org_id}" data-org-name="${p.org_name}" data-period="${p.period}">
    <td data-label="Sélection"><input type="checkbox" class="row-select" id="select-${p.id}" value="${p.id}" aria-label="Sélectionner le bulletin ${ofFr(name)}, ${periodLabel(p.period)}"></td>
    <td data-label="Organisation" class="wrap">${p.org_name}</td>
    <td data-label="Salarié" class="wrap">${name}</td>
    <td data-label="IBAN" class="nowrap">${maskedIban(p.iban_last4)}</td>
    <td data-label="Période" class="period">${periodLabel(p.period)}</td>
    <td data-label="Net à payer" class="amount">${formatEuros(p.net_to_pay)}</td>
    <td data-label="État" class="row-result">${dash}</td>
  </tr>`;
}

function availableSection(view: StaffTransfersView): SafeHtml {
  const { query, payslips } = view;
  const count = payslips.length;
  const summary = listSummary({
    error: view.fieldError?.summary ?? view.error,
    count,
    filtered: Boolean(query.org_id || query.period),
    afterFirst: Boolean(query.cursor),
    id: 'list-summary',
    noneMatching: 'Aucun bulletin à payer ne correspond à ces critères.',
    none: 'Aucun bulletin à payer pour le moment.',
    one: '1 bulletin à payer affiché',
    many: (n) => `${n} bulletins à payer affichés`,
    order: ', par organisation puis par période.',
  });
  return html`<section class="card" id="available" data-refresh aria-labelledby="available-title">
    <h2 id="available-title">Bulletins à payer</h2>
    <p class="hint">Bulletins publiés des organisations dont l'opérateur paie les salaires, avec un IBAN valide et sans virement en cours. Un lot ne concerne qu'une organisation.</p>
    ${summary}
    ${
      count
        ? html`${selectAllBox('bulletin')}
    <div class="table-wrap"><table class="table stack selectable" id="payslip-table">
      <caption class="visually-hidden">Bulletins à payer</caption>
      <thead><tr><th scope="col"><span class="visually-hidden">Sélection</span></th><th scope="col">Organisation</th><th scope="col">Salarié</th><th scope="col">IBAN</th><th scope="col">Période</th><th scope="col" class="amount">Net à payer</th><th scope="col">État</th></tr></thead>
      <tbody>${payslips.map(payslipRow)}</tbody>
    </table></div>
    <form class="bulk-bar" id="transfer-form" novalidate>
      <p id="selection-count" aria-live="polite">Aucun bulletin sélectionné.</p>
      <div class="field">
        <label for="execution-date">Date d'exécution</label>
        <input id="execution-date" name="execution_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${formatDateFr(view.today)}" data-today="${view.today}" aria-describedby="execution-date-hint execution-date-error">
        <p class="hint" id="execution-date-hint">Aujourd'hui ou plus tard, au format JJ/MM/AAAA.</p>
        <p id="execution-date-error" class="field-error" hidden></p>
      </div>
      <button type="submit" class="button" id="create-transfer">Créer le virement</button>
    </form>
    ${statusRegion('transfer-status')}`
        : ''
    }
    ${pagerNav({ href: (cursor) => listHref('/staff/virements', PARAMS, query, { lot: undefined, cursor }), current: query.cursor, next: view.nextCursor, label: 'Pages des bulletins' })}
  </section>`;
}

/** Where each reason is fixed: the organization's page (its settings, its employees' IBAN), or the month's payslips. */
export function unpayableFix(p: { org_id: string; period: string; reason: UnpayableReason }): { href: string; label: string } {
  const org = `/staff/organisations/${p.org_id}`;
  switch (p.reason) {
    case 'own_salaries':
      return { href: org, label: 'Modifier le mode de virement' };
    case 'net_zero':
      return { href: `/staff/paie?org_id=${p.org_id}&period=${periodToFr(p.period)}`, label: 'Voir les bulletins du mois' };
    default:
      return { href: org, label: "Saisir l'IBAN du salarié" };
  }
}

function unpayableSection(view: StaffTransfersView): SafeHtml {
  if (view.unpayable.length === 0) return html``;
  return html`<section class="card" id="unpayable" data-refresh aria-labelledby="unpayable-title">
    <h2 id="unpayable-title">Bulletins qui ne peuvent pas être payés</h2>
    <p class="hint">Bulletins publiés absents de la liste ci-dessus, et pourquoi. Corrigez la cause : le bulletin devient à payer.</p>
    <div class="table-wrap"><table class="table stack" id="unpayable-table">
      <caption class="visually-hidden">Bulletins publiés qui ne peuvent pas être payés par virement, avec la raison</caption>
      <thead><tr><th scope="col">Organisation</th><th scope="col">Salarié</th><th scope="col">IBAN</th><th scope="col">Période</th><th scope="col" class="amount">Net à payer</th><th scope="col">Raison</th><th scope="col">Corriger</th></tr></thead>
      <tbody>${view.unpayable.map((p) => {
        const name = `${p.employee.first_name} ${p.employee.last_name}`;
        const fix = unpayableFix(p);
        return html`<tr data-unpayable-id="${p.id}" data-reason="${p.reason}">
        <td data-label="Organisation" class="wrap">${p.org_name}</td>
        <td data-label="Salarié" class="wrap">${name}</td>
        <td data-label="IBAN" class="nowrap">${maskedIban(p.iban_last4)}</td>
        <td data-label="Période" class="period">${periodLabel(p.period)}</td>
        <td data-label="Net à payer" class="amount">${formatEuros(p.net_to_pay)}</td>
        <td data-label="Raison" class="wrap">${UNPAYABLE_LABELS[p.reason]}</td>
        <td data-label="Corriger"><a href="${fix.href}">${fix.label}<span class="visually-hidden"> : ${name}, ${periodLabel(p.period)}</span></a></td>
      </tr>`;
      })}</tbody>
    </table></div>
  </section>`;
}

function createdSection(batch: CreatedBatch): SafeHtml {
  return html`<section class="card card-success" id="created" aria-labelledby="created-title">
    <h2 id="created-title" tabindex="-1">Lot ${batch.reference} créé</h2>
    <p id="created-summary">${batch.org_name} : ${plural(batch.count, 'virement', 'virements')}, total <strong>${formatEuros(batch.total)}</strong>, exécution le ${formatDateFr(batch.execution_date)}.</p>
    <div class="actions">
      <button type="button" class="button" data-sepa="${batch.id}" data-reference="${batch.reference}" id="created-download">Télécharger le fichier SEPA (XML)</button>
    </div>
    ${statusRegion('created-status')}
  </section>`;
}

function batchActions(b: Batch): SafeHtml {
  const file =
    b.status === 'annule'
      ? ''
      : html`<button type="button" class="button button-small button-secondary" data-sepa="${b.id}" data-reference="${b.reference}">Fichier SEPA<span class="visually-hidden"> du lot ${b.reference}</span></button>`;
  const changes =
    b.status === 'genere'
      ? html`<button type="button" class="button button-small" data-action="executed" data-id="${b.id}" data-reference="${b.reference}" aria-describedby="executed-error-${b.id}">Marquer exécuté<span class="visually-hidden"> : lot ${b.reference}</span></button>
      <button type="button" class="button button-small button-danger" data-action="cancel" data-id="${b.id}" data-reference="${b.reference}">Annuler<span class="visually-hidden"> le lot ${b.reference}</span></button>`
      : '';
  return file || changes ? html`<div class="actions">${file}${changes}</div>` : dash;
}

function batchesSection(view: StaffTransfersView): SafeHtml {
  const { query, batches } = view;
  return html`<section class="card" id="batches" data-refresh aria-labelledby="batches-title">
    <h2 id="batches-title" tabindex="-1">Lots de virements</h2>
    ${
      batches.length === 0
        ? html`<p>Aucun lot de virements pour le moment.</p>`
        : html`<div class="table-wrap"><table class="table stack" id="batch-table">
      <caption class="visually-hidden">Lots de virements, de la date d'exécution la plus récente à la plus ancienne</caption>
      <thead><tr><th scope="col">Référence</th><th scope="col">Organisation</th><th scope="col">Exécution</th><th scope="col" class="amount">Virements</th><th scope="col" class="amount">Total</th><th scope="col">Statut</th><th scope="col">Actions</th></tr></thead>
      <tbody>${batches.map(
        (b) => html`<tr data-batch-id="${b.id}">
        <td data-label="Référence" class="nowrap">${b.reference}</td>
        <td data-label="Organisation" class="wrap">${b.org_name}</td>
        <td data-label="Exécution" class="date">${formatDateFr(b.execution_date)}${b.status === 'genere' ? html`<p class="field-error" id="executed-error-${b.id}" role="alert" hidden></p>` : ''}</td>
        <td data-label="Virements" class="amount">${b.count}</td>
        <td data-label="Total" class="amount">${formatEuros(b.total)}</td>
        <td data-label="Statut">${labelBadge('transfer', b.status)}</td>
        <td data-label="Actions">${batchActions(b)}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
    }
    ${batches.length ? csvLink('/api/staff/virements.csv', 'lots de virements', 'batches-csv') : ''}
    ${pagerNav({ href: (lots) => listHref('/staff/virements', PARAMS, query, { lot: undefined, lots }), current: query.lots, next: view.nextBatches, label: 'Pages des lots', id: 'next-batches' })}
  </section>`;
}

export function renderStaffTransfers(view: StaffTransfersView): SafeHtml {
  return html`<div class="page" id="staff-virements">
  <h1>Virements des salaires</h1>
  <p class="lead">Choisissez les bulletins d'une organisation, créez le lot, puis remettez son fichier SEPA à la banque et marquez-le exécuté.</p>
  ${view.created ? createdSection(view.created) : ''}
  <section class="card" aria-labelledby="filters-title">
    <h2 id="filters-title" class="visually-hidden">Filtres</h2>
    ${filterForm(view)}
  </section>
  ${availableSection(view)}
  ${unpayableSection(view)}
  ${statusRegion('batches-status')}
  ${batchesSection(view)}
</div>
${confirmDialog({
  id: 'confirm-cancel',
  title: 'Annuler ce lot de virements ?',
  text: 'Le lot passera au statut « Annulé » : son fichier ne doit pas être remis à la banque, et ses bulletins redeviennent à payer.',
  keepLabel: 'Garder le lot',
  confirmLabel: 'Annuler le lot',
})}
${confirmDialog({
  id: 'confirm-date',
  title: "Vérifier la date d'exécution",
  keepLabel: 'Corriger la date',
  confirmLabel: 'Créer le lot quand même',
})}
${confirmDialog({
  id: 'confirm-executed',
  title: 'Marquer ce lot exécuté ?',
  text: 'Confirmez que la banque a exécuté les virements de ce lot : il ne pourra plus être annulé, et ses bulletins seront payés.',
  keepLabel: 'Ne rien changer',
  confirmLabel: 'Marquer exécuté',
})}`;
}
