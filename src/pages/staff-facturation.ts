/**
 * `/staff/facturation` (MODULES 10, gate `staff`): the invoices of every organization as
 * `GET /api/staff/facturation` lists them (filters `notified`, `org_id`, `invoice_type`; keyset
 * pages of 200 at most), with a "Notifiée" column, a selection, and the bulk notification that
 * the page's script (`staff-facturation.js`) sends to `POST /api/staff/facturation/bulk-notify`,
 * showing its result per invoice.
 */
import type { Database } from '../db/database.ts';
import { formatDateFr, formatEuros, todayInFrance } from '../format/french.ts';
import { listStaffInvoices } from '../invoices/invoices.service.ts';
import { INVOICE_TYPES } from '../invoices/invoice.rules.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { dash, listHref, listQueryOf, listSummary, pagerNav, readList, selectOptions, type ListQuery } from './page-parts.ts';
import { statusRegion } from './layout.ts';
import { INVOICE_TYPE_LABELS, invoiceTypeLabel } from '../invoices/invoice.labels.ts';
import { loadOrgChoices, selectAllBox, staffFilterForm, type OrgChoice } from './staff-lists.ts';

const PARAMS = ['notified', 'org_id', 'invoice_type', 'limit', 'cursor'] as const;
type Query = ListQuery<(typeof PARAMS)[number]>;

type Invoice = Awaited<ReturnType<typeof listStaffInvoices>>['items'][number];

export interface StaffInvoicesView {
  query: Query;
  orgs: OrgChoice[];
  items: Invoice[];
  nextCursor: string | null;
  /** A refused filter (the API's 400 message), shown instead of rows. */
  error: string | null;
}

export async function loadStaffInvoices(db: Database, rawQuery: unknown): Promise<StaffInvoicesView> {
  const query = listQueryOf(PARAMS, rawQuery);
  const [orgs, list] = await Promise.all([loadOrgChoices(db), readList(() => listStaffInvoices(db, query))]);
  return { query, orgs, ...list };
}

/** "Oui, le 12/03/2027" (the day in the operator's calendar) or "Non". */
export function notifiedLabel(invoice: { notified: boolean; notified_at: Date | string | null }): string {
  if (!invoice.notified) return 'Non';
  return invoice.notified_at ? `Oui, le ${formatDateFr(todayInFrance(new Date(invoice.notified_at)))}` : 'Oui';
}

const NOTIFIED_LABELS = { false: 'Non notifiées', true: 'Notifiées' };

function filterForm(view: StaffInvoicesView): SafeHtml {
  const { query } = view;
  return staffFilterForm('/staff/facturation', 'Filtrer les factures', view.orgs, query, html`<div class="field">
      <label for="filter-notified">Notification</label>
      <select id="filter-notified" name="notified">${selectOptions(['false', 'true'], NOTIFIED_LABELS, query.notified, 'Toutes')}</select>
    </div>
    <div class="field">
      <label for="filter-type">Type</label>
      <select id="filter-type" name="invoice_type">${selectOptions(INVOICE_TYPES, INVOICE_TYPE_LABELS, query.invoice_type, 'Tous les types')}</select>
    </div>`);
}

function invoiceRow(invoice: Invoice): SafeHtml {
  return html`<tr data-invoice-id="${invoice.id}" data-number="${invoice.number}" data-org-id="${invoice.org_id}">
    <td data-label="Sélection"><input type="checkbox" class="row-select" id="select-${invoice.id}" value="${invoice.id}" aria-label="Sélectionner la facture ${invoice.number}"></td>
    <td data-label="Numéro" class="nowrap">${invoice.number}</td>
    <td data-label="Organisation" class="wrap">${invoice.org_name}</td>
    <td data-label="Type">${invoiceTypeLabel(invoice.invoice_type)}</td>
    <td data-label="Période" class="wrap">${invoice.period_label || dash}</td>
    <td data-label="Émise le" class="date">${formatDateFr(invoice.issue_date)}</td>
    <td data-label="Total TTC" class="amount">${formatEuros(invoice.total_ttc)}</td>
    <td data-label="Notifiée" class="notified">${notifiedLabel(invoice)}</td>
    <td data-label="PDF"><button type="button" class="button button-small button-secondary" data-pdf-url="/api/staff/facturation/${invoice.id}/pdf-url" data-pdf-done="Téléchargement de la facture ${invoice.number}.">PDF<span class="visually-hidden"> de la facture ${invoice.number}</span></button></td>
    <td data-label="Envoi" class="row-result">${dash}</td>
  </tr>`;
}

export function renderStaffInvoices(view: StaffInvoicesView): SafeHtml {
  const { query, items } = view;
  const filtered = Boolean(query.notified || query.org_id || query.invoice_type);
  const count = items.length;
  const summary = listSummary({
    error: view.error, count, filtered, afterFirst: Boolean(query.cursor), id: 'list-summary',
    noneMatching: 'Aucune facture ne correspond à ces critères.',
    none: 'Aucune facture pour le moment.',
    one: '1 facture affichée', many: (n) => `${n} factures affichées`, order: ', de la plus récente à la plus ancienne.',
  });
  return html`<div class="page" id="staff-facturation">
  <h1>Facturation</h1>
  <p class="lead">Les factures de toutes les organisations. Cochez-les puis notifiez-les : chaque organisation reçoit un e-mail par facture, aux adresses de notification de sa <a href="/staff/organisations">fiche</a>.</p>
  <section class="card" aria-labelledby="filters-title">
    <h2 id="filters-title" class="visually-hidden">Filtres</h2>
    ${filterForm(view)}
  </section>
  <section class="card" id="invoices" aria-labelledby="invoices-title">
    <h2 id="invoices-title">Factures</h2>
    ${summary}
    ${statusRegion()}
    ${count
      ? html`${selectAllBox('facture')}
    <div class="table-wrap"><table class="table stack selectable" id="invoice-table">
      <caption class="visually-hidden">Factures, de la plus récente à la plus ancienne</caption>
      <thead><tr><th scope="col"><span class="visually-hidden">Sélection</span></th><th scope="col">Numéro</th><th scope="col">Organisation</th><th scope="col">Type</th><th scope="col">Période</th><th scope="col">Émise le</th><th scope="col" class="amount">Total TTC</th><th scope="col">Notifiée</th><th scope="col">PDF</th><th scope="col">Envoi</th></tr></thead>
      <tbody>${items.map(invoiceRow)}</tbody>
    </table></div>
    <div class="bulk-bar" id="notify-bar">
      <p id="selection-count" aria-live="polite">Aucune facture sélectionnée.</p>
      <label class="checkbox" for="notify-force"><input type="checkbox" id="notify-force"> Renvoyer aussi les factures déjà notifiées (forcer)</label>
      <button type="button" class="button" id="notify-selected">Notifier la sélection</button>
    </div>
    ${statusRegion('notify-status')}
    <ul class="plain" id="notify-details"></ul>`
      : ''}
    ${pagerNav({ href: (cursor) => listHref('/staff/facturation', PARAMS, query, { cursor }), current: query.cursor, next: view.nextCursor })}
  </section>
</div>`;
}
