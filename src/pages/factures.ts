/**
 * `/factures`, for the money set (SUPER_ADMIN, ADMIN, COMPTA): the organization's
 * invoices (`GET /api/factures`, PDF through `GET /api/factures/{id}/pdf-url` by
 * `assets/pdf-button.js`), its contribution calls (`GET /api/cotisations`) and its salary
 * transfers (`GET /api/virements`, never an IBAN), each read through the service function of
 * its API, each section with its own keyset pages.
 */
import type { Database } from '../db/database.ts';
import { listContributionCalls } from '../contributions/contributions.service.ts';
import { formatDateFr, formatEuros } from '../format/french.ts';
import { listInvoices } from '../invoices/invoices.service.ts';
import type { Money } from '../money/money.ts';
import { findOrganization } from '../org/org.repository.ts';
import { listOrgTransfers } from '../transfers/transfers.service.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { statusRegion } from './layout.ts';
import { csvLink, dash, euros, listHref, listQueryOf, orgLine, pagerNav, readList, type ListQuery, type ListRead, type Org } from './page-parts.ts';
import { callKindLabel, organismLabel } from '../contributions/contribution.labels.ts';
import { documentLabel, ofDocument, signedAmount } from '../invoices/invoice.labels.ts';
import { clientTransferBadge, labelBadge, periodLabel } from './payroll-labels.ts';

/** Each section pages on its own cursor. */
const SECTION_PARAMS = ['cursor_factures', 'cursor_appels', 'cursor_virements'] as const;
type SectionParam = (typeof SECTION_PARAMS)[number];
type SectionQuery = ListQuery<SectionParam>;

type Invoice = Awaited<ReturnType<typeof listInvoices>>['items'][number];
type ContributionCall = Awaited<ReturnType<typeof listContributionCalls>>['items'][number];
type Transfer = Awaited<ReturnType<typeof listOrgTransfers>>['items'][number];

export interface FacturesView {
  org: Org | undefined;
  isStaff: boolean;
  query: SectionQuery;
  invoices: ListRead<Invoice>;
  calls: ListRead<ContributionCall>;
  transfers: ListRead<Transfer>;
}

export async function loadFactures(db: Database, orgId: string, isStaff: boolean, rawQuery: unknown): Promise<FacturesView> {
  const query = listQueryOf(SECTION_PARAMS, rawQuery);
  const org = await findOrganization(db, orgId);
  const invoices = await readList(() => listInvoices(db, orgId, { cursor: query.cursor_factures }));
  const calls = await readList(() => listContributionCalls(db, orgId, { cursor: query.cursor_appels }));
  const transfers = await readList(() => listOrgTransfers(db, orgId, { cursor: query.cursor_virements }));
  return { org, isStaff, query, invoices, calls, transfers };
}

/** The status a page answers: 400 when one of its lists refused its address (a broken cursor). */
export function facturesStatus(view: FacturesView): number {
  return view.invoices.error || view.calls.error || view.transfers.error ? 400 : 200;
}

interface SectionSpec<T> {
  id: string;
  title: string;
  param: SectionParam;
  list: ListRead<T>;
  empty: string;
  /** "3 factures" */
  counted: (n: number) => string;
  head: SafeHtml;
  row: (item: T) => SafeHtml;
  caption: string;
  className: string;
  /** The section's CSV export. */
  csv: string;
}

function section<T>(query: SectionQuery, spec: SectionSpec<T>): SafeHtml {
  const { list } = spec;
  const count = list.items.length;
  const summary = list.error
    ? html`<p class="status" data-kind="error" role="alert">${list.error}</p>`
    : count === 0
      ? html`<p>${spec.empty}</p>`
      : html`<p class="muted">${spec.counted(count)}${query[spec.param] ? ' (page suivante)' : ''}.</p>`;
  return html`<section class="card" id="${spec.id}" aria-labelledby="${spec.id}-title">
    <h2 id="${spec.id}-title">${spec.title}</h2>
    ${summary}
    ${
      count
        ? html`<div class="table-wrap"><table class="table stack ${spec.className}">
      <caption class="visually-hidden">${spec.caption}</caption>
      <thead><tr>${spec.head}</tr></thead>
      <tbody>${list.items.map(spec.row)}</tbody>
    </table></div>`
        : ''
    }
    ${count && !list.error ? csvLink(spec.csv, spec.title.toLowerCase(), `${spec.id}-csv`) : ''}
    ${pagerNav({
      href: (cursor) => listHref('/factures', SECTION_PARAMS, query, { [spec.param]: cursor }, `#${spec.id}`),
      current: query[spec.param],
      next: list.nextCursor,
      id: `${spec.id}-next`,
      label: `Pages : ${spec.title.toLowerCase()}`,
    })}
  </section>`;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

function invoiceRow(i: Invoice): SafeHtml {
  return html`<tr data-invoice-id="${i.id}">
    <td data-label="Numéro" class="nowrap">${i.number}</td>
    <td data-label="Objet">${documentLabel(i)}</td>
    <td data-label="Période" class="period">${i.period_label || dash}</td>
    <td data-label="Émise le" class="date">${formatDateFr(i.issue_date)}</td>
    <td data-label="Échéance" class="date">${i.kind === 'avoir' ? dash : formatDateFr(i.due_date)}</td>
    <td data-label="Total TTC" class="amount"><strong>${formatEuros(signedAmount(i, i.total_ttc as Money))}</strong></td>
    <td data-label="Document"><button type="button" class="button button-small button-secondary" data-pdf-url="/api/factures/${i.id}/pdf-url" data-pdf-done="Téléchargement ${ofDocument(i)}.">Télécharger le PDF<span class="visually-hidden"> ${ofDocument(i)}</span></button></td>
  </tr>`;
}

function callRow(c: ContributionCall): SafeHtml {
  return html`<tr data-call-id="${c.id}">
    <td data-label="Référence" class="nowrap">${c.number}<br><span class="muted small">${callKindLabel(c)}</span></td>
    <td data-label="Période" class="nowrap">${periodLabel(c.period)}</td>
    <td data-label="Échéance" class="date">${formatDateFr(c.due_date)}</td>
    <td data-label="Organismes"><ul class="plain organism-lines">${c.lines.map(
      (l) => html`<li><span class="organism">${organismLabel(l.organism)}</span> <span class="amount">${formatEuros(l.amount as Money)}</span></li>`,
    )}</ul></td>
    <td data-label="Total" class="amount"><strong>${euros(c.total as Money)}</strong></td>
    <td data-label="Statut">${labelBadge('call', c.status)}</td>
  </tr>`;
}

function transferRow(v: Transfer): SafeHtml {
  return html`<tr data-transfer-id="${v.id}">
    <td data-label="Exécution" class="date">${formatDateFr(v.execution_date)}</td>
    <td data-label="Salaires" class="amount">${plural(v.count, 'bulletin', 'bulletins')}</td>
    <td data-label="Total" class="amount"><strong>${formatEuros(v.total as Money)}</strong></td>
    <td data-label="Statut">${clientTransferBadge(v.status)}</td>
  </tr>`;
}

const th = (label: string, amount = false) => html`<th scope="col"${amount ? html` class="amount"` : ''}>${label}</th>`;

export function renderFactures(view: FacturesView): SafeHtml {
  const { query } = view;
  return html`<div class="page" id="factures">
  <h1>Factures et paiements</h1>
  ${orgLine(view.org, view.isStaff)}
  <nav class="toc" aria-label="Sur cette page">
    <ul class="plain org-links"><li><a href="#invoices">Factures</a></li><li><a href="#calls">Appels de cotisations</a></li><li><a href="#transfers">Virements de salaires</a></li></ul>
  </nav>
  ${statusRegion()}
  ${section(query, {
    id: 'invoices',
    title: 'Factures',
    param: 'cursor_factures',
    list: view.invoices,
    empty: 'Aucune facture pour le moment.',
    counted: (n) => `${plural(n, 'facture', 'factures')}, de la plus récente à la plus ancienne`,
    head: html`${th('Numéro')}${th('Objet')}${th('Période')}${th('Émise le')}${th('Échéance')}${th('Total TTC', true)}${th('Facture')}`,
    row: invoiceRow,
    caption: 'Factures, de la plus récente à la plus ancienne',
    className: 'invoices',
    csv: '/api/factures.csv',
  })}
  ${section(query, {
    id: 'calls',
    title: 'Appels de cotisations',
    param: 'cursor_appels',
    list: view.calls,
    empty: 'Aucun appel de cotisations pour le moment.',
    counted: (n) => `${plural(n, 'appel', 'appels')}, du mois le plus récent au plus ancien`,
    head: html`${th('Référence')}${th('Période')}${th('Échéance')}${th('Organismes')}${th('Total', true)}${th('Statut')}`,
    row: callRow,
    caption: 'Appels de cotisations, du mois le plus récent au plus ancien',
    className: 'calls',
    csv: '/api/cotisations.csv',
  })}
  ${section(query, {
    id: 'transfers',
    title: 'Virements de salaires',
    param: 'cursor_virements',
    list: view.transfers,
    empty: "Aucun virement de salaires pour le moment : l'équipe paie les prépare quand elle verse les salaires pour vous.",
    counted: (n) => `${plural(n, 'virement', 'virements')}, du plus récent au plus ancien`,
    head: html`${th("Date d'exécution")}${th('Salaires', true)}${th('Montant total', true)}${th('Statut')}`,
    row: transferRow,
    caption: 'Virements de salaires, du plus récent au plus ancien',
    className: 'transfers',
    csv: '/api/virements.csv',
  })}
</div>`;
}
