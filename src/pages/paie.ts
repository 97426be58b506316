/**
 * `/paie`: the organization's payslips, for every role of the read
 * set, with the filters and keyset pages of `GET /api/payslips` (read through the same service
 * function), and a button per payslip that downloads its PDF through
 * `GET /api/payslips/{id}/pdf-url` (`assets/pdf-button.js`).
 */
import type { Database } from '../db/database.ts';
import { findOrganization } from '../org/org.repository.ts';
import { listPayslips, type PayslipView } from '../payslips/payslips.service.ts';
import { ofFr } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { statusRegion } from './layout.ts';
import {
  allEmployees,
  csvLink,
  euros,
  listHref,
  listQueryOf,
  listSummary,
  orgLine,
  pagerNav,
  pageSizeAndSubmit,
  readList,
  selectOptions,
  type EmployeeOption,
  type ListQuery,
  type ListRead,
  type Org,
} from './page-parts.ts';
import { clientTransferBadge, labelBadge, periodFromFr, periodLabel } from './payroll-labels.ts';
import { COMPLEMENT_TITLE } from '../payroll/payroll.labels.ts';
import { fieldAttrs, fieldErrorBox, filterFieldError, messageOf, type FieldError } from './field-messages.ts';

/** The page's query parameters: those of `GET /api/payslips`. */
const PAYSLIP_PARAMS = ['period', 'employee_id', 'limit', 'cursor'] as const;
type PayslipQuery = ListQuery<(typeof PAYSLIP_PARAMS)[number]>;

export interface PaieView extends ListRead<PayslipView> {
  org: Org | undefined;
  isStaff: boolean;
  query: PayslipQuery;
  employees: EmployeeOption[];
  /** The CSV export is the money set's (`GET /api/payslips.csv`); the page is the read set's. */
  mayExport: boolean;
  /** The refusal placed on its filter field, when it names one. */
  fieldError: FieldError | null;
}

export async function loadPaie(db: Database, orgId: string, isStaff: boolean, rawQuery: unknown, mayExport = false): Promise<PaieView> {
  const query = listQueryOf(PAYSLIP_PARAMS, rawQuery);
  const org = await findOrganization(db, orgId);
  const employees = await allEmployees(db, orgId);
  const list = await readList(() => listPayslips(db, orgId, { ...query, ...(query.period ? { period: periodFromFr(query.period) } : {}) }));
  const fieldError = filterFieldError(list.refusal, {
    period: { kind: 'period', typed: query.period, label: 'Période' },
    employee_id: { kind: 'other', typed: query.employee_id, label: 'Salarié' },
  });
  return { org, isStaff, query, employees, ...list, mayExport, fieldError };
}

const paieHref = (query: PayslipQuery, changes: Partial<PayslipQuery>) => listHref('/paie', PAYSLIP_PARAMS, query, changes);

function filterForm(view: PaieView): SafeHtml {
  const { query } = view;
  const names = Object.fromEntries(view.employees.map((e) => [e.id, `${e.last_name} ${e.first_name}`]));
  return html`<form class="form filters filters-paie" method="get" action="/paie" role="search" aria-label="Filtrer les bulletins">
    <div class="field">
      <label for="filter-period">Période</label>
      <input id="filter-period" name="period" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" value="${query.period ?? ''}"${fieldAttrs('filter-period', messageOf(view.fieldError, 'period'), 'filter-period-hint')}>
      <p class="visually-hidden" id="filter-period-hint">Mois et année, par exemple 03/2027.</p>
      ${fieldErrorBox('filter-period', messageOf(view.fieldError, 'period'))}
    </div>
    <div class="field field-employee">
      <label for="filter-employee">Salarié</label>
      <select id="filter-employee" name="employee_id"${fieldAttrs('filter-employee', messageOf(view.fieldError, 'employee_id'))}>${selectOptions(
        view.employees.map((e) => e.id),
        names,
        query.employee_id,
        'Tous les salariés',
      )}</select>
      ${fieldErrorBox('filter-employee', messageOf(view.fieldError, 'employee_id'))}
    </div>
    ${pageSizeAndSubmit('/paie', query.limit)}
  </form>`;
}

function pdfCell(p: PayslipView, who: string): SafeHtml {
  if (!p.has_pdf) return html`<span class="muted">${p.source === 'calcule' ? 'Bulletin en préparation' : 'PDF pas encore disponible'}</span>`;
  const what = `bulletin ${ofFr(periodLabel(p.period))} ${ofFr(who)}`;
  return html`<button type="button" class="button button-small button-secondary" data-pdf-url="/api/payslips/${p.id}/pdf-url" data-pdf-done="Téléchargement du ${what}.">Télécharger le PDF<span class="visually-hidden"> du ${what}</span></button>`;
}

function payslipRow(p: PayslipView): SafeHtml {
  const who = `${p.employee.first_name} ${p.employee.last_name}`;
  const complement = p.kind === 'complementaire';
  return html`<tr data-payslip-id="${p.id}"${complement ? html` data-kind="complementaire" data-complements="${p.complements_id ?? ''}"` : ''}>
    <td data-label="Période" class="nowrap">${periodLabel(p.period)}</td>
    <td data-label="Salarié" class="wrap">${who}${complement ? html`<br><span class="muted">${COMPLEMENT_TITLE} : la différence due après une modification du contrat</span>` : ''}</td>
    <td data-label="Brut" class="amount">${euros(p.gross)}</td>
    <td data-label="Net à payer" class="amount"><strong>${euros(p.net_to_pay)}</strong></td>
    <td data-label="Statut">${labelBadge('payslip', p.status)}</td>
    <td data-label="Virement">${p.transfer_status ? clientTransferBadge(p.transfer_status) : html`<span class="muted">Aucun</span>`}</td>
    <td data-label="Bulletin">${pdfCell(p, who)}</td>
  </tr>`;
}

export function renderPaie(view: PaieView): SafeHtml {
  const { query, items } = view;
  const filtered = Boolean(query.period || query.employee_id);
  const count = items.length;
  const summary = listSummary({
    error: view.fieldError?.summary ?? view.error,
    count,
    filtered,
    afterFirst: Boolean(query.cursor),
    id: 'list-summary',
    noneMatching: 'Aucun bulletin ne correspond à ces critères.',
    none: "Aucun bulletin de paie pour le moment : ils s'affichent ici dès que l'équipe paie les publie.",
    one: '1 bulletin affiché',
    many: (n) => `${n} bulletins affichés`,
    order: ', du mois le plus récent au plus ancien.',
  });
  return html`<div class="page" id="paie">
  <h1>Paie</h1>
  ${orgLine(view.org, view.isStaff)}
  ${statusRegion()}
  <section class="card" aria-labelledby="filters-title">
    <h2 id="filters-title" class="visually-hidden">Filtres</h2>
    ${filterForm(view)}
  </section>
  <section class="card" aria-labelledby="payslips-title">
    <h2 id="payslips-title">Bulletins de paie</h2>
    ${summary}
    ${
      count
        ? html`<div class="table-wrap"><table class="table stack payslips">
      <caption class="visually-hidden">Bulletins de paie, du mois le plus récent au plus ancien</caption>
      <thead><tr><th scope="col">Période</th><th scope="col">Salarié</th><th scope="col" class="amount">Brut</th><th scope="col" class="amount">Net à payer</th><th scope="col">Statut</th><th scope="col">Virement</th><th scope="col">Bulletin</th></tr></thead>
      <tbody>${items.map(payslipRow)}</tbody>
    </table></div>`
        : ''
    }
    ${
      count && view.mayExport
        ? csvLink(
            listHref(
              '/api/payslips.csv',
              ['period', 'employee_id'],
              { period: query.period ? periodFromFr(query.period) : undefined, employee_id: query.employee_id },
              {},
            ),
            'bulletins de paie',
            'payslips-csv',
          )
        : ''
    }
    ${pagerNav({ href: (cursor) => paieHref(query, { cursor }), current: query.cursor, next: view.nextCursor })}
  </section>
</div>`;
}
