/**
 * `/staff/facturation` (gate `staff`): the invoices of every organization as
 * `GET /api/staff/facturation` lists them (filters `notified`, `org_id`, `invoice_type`; keyset
 * pages of 200 at most), with a "Notifiée" column, a selection, and the bulk notification that
 * the page's script (`staff-facturation.js`) sends to `POST /api/staff/facturation/bulk-notify`,
 * showing its result per invoice. Then the month's invoices for a selection of
 * organizations (`POST /api/staff/facturation/bulk-create`, their numbers shown once created),
 * and a credit note of an invoice (`POST /api/staff/facturation/{id}/avoir`).
 */
import type { Database } from '../db/database.ts';
import { formatDateFr, formatEuros, formatPeriodFr, todayInFrance } from '../format/french.ts';
import { parsePeriod } from '../format/calendar.ts';
import { publishedPayslipCounts } from '../payslips/payslips.service.ts';
import { periodFromFr } from './payroll-labels.ts';
import { listStaffInvoices } from '../invoices/invoices.service.ts';
import { DEFAULT_TERM_DAYS, INVOICE_TYPES, MAX_ISSUE_DAYS_AHEAD, PAYMENT_METHODS } from '../invoices/invoice.rules.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { csvLink, dash, listHref, listQueryOf, listSummary, pagerNav, readList, selectOptions, type ListQuery } from './page-parts.ts';
import { confirmDialog, statusRegion } from './layout.ts';
import { INVOICE_TYPE_LABELS, PAYMENT_METHOD_LABELS, documentLabel, ofDocument, signedAmount } from '../invoices/invoice.labels.ts';
import { loadOrgChoices, selectAllBox, staffFilterForm, type OrgChoice } from './staff-lists.ts';

/** `paie`: the month (`MM/AAAA`) whose published payslips the invoices to create are proposed from. */
const PARAMS = ['notified', 'org_id', 'invoice_type', 'limit', 'cursor', 'paie'] as const;
type Query = ListQuery<(typeof PARAMS)[number]>;

type Invoice = Awaited<ReturnType<typeof listStaffInvoices>>['items'][number];

export interface StaffInvoicesView {
  query: Query;
  orgs: OrgChoice[];
  items: Invoice[];
  nextCursor: string | null;
  /** A refused filter (the API's 400 message), shown instead of rows. */
  error: string | null;
  today: string;
  /** The month's published payslips by organization (`?paie=`), the invoices' proposal; or why the month was refused. */
  proposal: { period: string; counts: Map<string, number> } | { error: string } | null;
}

export async function loadStaffInvoices(db: Database, rawQuery: unknown): Promise<StaffInvoicesView> {
  const query = listQueryOf(PARAMS, rawQuery);
  const period = query.paie ? parsePeriod(periodFromFr(query.paie)) : null;
  const [orgs, list, counts] = await Promise.all([
    loadOrgChoices(db),
    readList(() => listStaffInvoices(db, query)),
    period ? publishedPayslipCounts(db, period) : Promise.resolve(null),
  ]);
  const proposal = !query.paie ? null : period && counts ? { period, counts } : { error: 'Indiquez le mois de paie au format MM/AAAA, par exemple 01/2027.' };
  return { query, orgs, ...list, today: todayInFrance(), proposal };
}

/** "Oui, le 12/03/2027" (the day in the operator's calendar) or "Non". */
export function notifiedLabel(invoice: { notified: boolean; notified_at: Date | string | null }): string {
  if (!invoice.notified) return 'Non';
  return invoice.notified_at ? `Oui, le ${formatDateFr(todayInFrance(new Date(invoice.notified_at)))}` : 'Oui';
}

const NOTIFIED_LABELS = { false: 'Non notifiées', true: 'Notifiées' };

function filterForm(view: StaffInvoicesView): SafeHtml {
  const { query } = view;
  return staffFilterForm(
    '/staff/facturation',
    'Filtrer les factures',
    view.orgs,
    query,
    html`<div class="field">
      <label for="filter-notified">Notification</label>
      <select id="filter-notified" name="notified">${selectOptions(['false', 'true'], NOTIFIED_LABELS, query.notified, 'Toutes')}</select>
    </div>
    <div class="field field-double">
      <label for="filter-type">Type</label>
      <select id="filter-type" name="invoice_type">${selectOptions(INVOICE_TYPES, INVOICE_TYPE_LABELS, query.invoice_type, 'Tous les types')}</select>
    </div>`,
  );
}

function invoiceRow(invoice: Invoice): SafeHtml {
  return html`<tr data-invoice-id="${invoice.id}" data-number="${invoice.number}" data-org-id="${invoice.org_id}">
    <td data-label="Sélection"><input type="checkbox" class="row-select" id="select-${invoice.id}" value="${invoice.id}" aria-label="Sélectionner la facture ${invoice.number}"></td>
    <td data-label="Numéro" class="nowrap">${invoice.number}</td>
    <td data-label="Organisation" class="wrap">${invoice.org_name}</td>
    <td data-label="Type">${documentLabel(invoice)}</td>
    <td data-label="Période" class="period">${invoice.period_label || dash}</td>
    <td data-label="Émise le" class="date">${formatDateFr(invoice.issue_date)}</td>
    <td data-label="Total TTC" class="amount">${formatEuros(signedAmount(invoice, invoice.total_ttc))}</td>
    <td data-label="Notifiée" class="notified">${notifiedLabel(invoice)}</td>
    <td data-label="PDF"><button type="button" class="button button-small button-secondary" data-pdf-url="/api/staff/facturation/${invoice.id}/pdf-url" data-pdf-done="Téléchargement ${ofDocument(invoice)}.">PDF<span class="visually-hidden"> ${ofDocument(invoice)}</span></button></td>
    <td data-label="Envoi" class="row-result">${dash}</td>
  </tr>`;
}

export function renderStaffInvoices(view: StaffInvoicesView): SafeHtml {
  const { query, items } = view;
  const filtered = Boolean(query.notified || query.org_id || query.invoice_type);
  const count = items.length;
  const summary = listSummary({
    error: view.error,
    count,
    filtered,
    afterFirst: Boolean(query.cursor),
    id: 'list-summary',
    noneMatching: 'Aucune facture ne correspond à ces critères.',
    none: 'Aucune facture pour le moment.',
    one: '1 facture affichée',
    many: (n) => `${n} factures affichées`,
    order: ', de la plus récente à la plus ancienne.',
  });
  return html`<div class="page" id="staff-facturation">
  <h1>Facturation</h1>
  <p class="lead">Les factures de toutes les organisations. Cochez-les puis notifiez-les : chaque organisation reçoit un e-mail par facture, aux adresses de notification de sa <a href="/staff/organisations">fiche</a>.</p>
  <section class="card" aria-labelledby="filters-title">
    <h2 id="filters-title" class="visually-hidden">Filtres</h2>
    ${filterForm(view)}
  </section>
  <section class="card" id="invoices" data-refresh aria-labelledby="invoices-title">
    <h2 id="invoices-title">Factures</h2>
    ${summary}
    ${statusRegion()}
    ${
      count
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
        : ''
    }
    ${count ? csvLink(listHref('/api/staff/facturation.csv', ['notified', 'org_id', 'invoice_type'], query, {}), 'factures et avoirs de ces critères', 'invoices-csv') : ''}
    ${pagerNav({ href: (cursor) => listHref('/staff/facturation', PARAMS, query, { cursor }), current: query.cursor, next: view.nextCursor })}
  </section>
  ${createSection(view)}
  ${creditSection(view)}
</div>
${confirmDialog({
  id: 'confirm-credit',
  title: 'Émettre cet avoir ?',
  keepLabel: 'Ne pas émettre',
  confirmLabel: "Émettre l'avoir",
})}`;
}

const VAT_RATES = ['20', '10', '5.5', '2.1', '0'];
const VAT_LABELS: Record<string, string> = { '20': '20 %', '10': '10 %', '5.5': '5,5 %', '2.1': '2,1 %', '0': '0 %' };

/**
 * A line of the invoices to create: its fields carry `name`s, their ids are numbered by the
 * script. `perPayslip`: the line of the month's bulletins, its quantity each organization's count.
 */
function invoiceLineRow(n: string, perPayslip?: { label: string }): SafeHtml {
  const quantity = perPayslip
    ? html`<input id="line-quantity-${n}" name="quantity" type="hidden" value=""><span class="muted">Ses bulletins publiés</span>`
    : html`<label class="visually-hidden" for="line-quantity-${n}">Quantité de la ligne ${n}</label><input id="line-quantity-${n}" name="quantity" type="text" inputmode="decimal" autocomplete="off" value="1" size="6">`;
  return html`<tr class="invoice-line"${perPayslip ? html` data-per-payslip` : ''}>
      <td data-label="Libellé"><label class="visually-hidden" for="line-label-${n}">Libellé de la ligne ${n}</label><input id="line-label-${n}" name="label" type="text" maxlength="300" autocomplete="off" value="${perPayslip?.label ?? ''}"></td>
      <td data-label="Quantité">${quantity}</td>
      <td data-label="Prix unitaire HT (€)"><label class="visually-hidden" for="line-unit_price-${n}">Prix unitaire HT de la ligne ${n} (€)</label><input id="line-unit_price-${n}" name="unit_price" type="text" inputmode="decimal" autocomplete="off" placeholder="0,00" size="10"></td>
      <td data-label="TVA"><label class="visually-hidden" for="line-vat_rate-${n}">TVA de la ligne ${n}</label><select id="line-vat_rate-${n}" name="vat_rate">${selectOptions(VAT_RATES, VAT_LABELS, '20')}</select></td>
      <td data-label="Retirer"><button type="button" class="button button-small button-secondary" data-remove-line>Retirer<span class="visually-hidden"> la ligne ${n}</span></button></td>
    </tr>`;
}

/** The month's invoices, the same lines for every organization chosen. */
function createSection(view: StaffInvoicesView): SafeHtml {
  const field = (id: string, label: string, input: SafeHtml, hint = '') => html`<div class="field">
        <label for="${id}">${label}</label>
        ${input}
        ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
        <p id="${id}-error" class="field-error" hidden></p>
      </div>`;
  const described = (id: string, hint = false) => (hint ? `${id}-hint ${id}-error` : `${id}-error`);
  const proposal = view.proposal && 'period' in view.proposal ? view.proposal : null;
  const proposalError = view.proposal && 'error' in view.proposal ? view.proposal.error : null;
  const count = (orgId: string) => proposal?.counts.get(orgId) ?? 0;
  const month = proposal ? formatPeriodFr(proposal.period) : '';
  return html`<section class="card" id="create-invoices" aria-labelledby="create-invoices-title">
    <h2 id="create-invoices-title">Créer les factures du mois</h2>
    <p class="hint">Une facture par organisation cochée, avec les mêmes lignes, numérotées à la suite (F-AAAA-NNNNNN) dans l'ordre de la liste.</p>
    <form id="propose-form" class="form form-inline" method="get" action="/staff/facturation" aria-label="Proposer les factures d'un mois de paie">
      ${(['notified', 'org_id', 'invoice_type', 'limit'] as const).map((k) => (view.query[k] ? html`<input type="hidden" name="${k}" value="${view.query[k]}">` : ''))}
      <div class="field">
        <label for="propose-month">Mois de paie</label>
        <input id="propose-month" name="paie" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" value="${view.query.paie ?? ''}" aria-describedby="propose-month-hint${proposalError ? ' propose-month-error' : ''}"${proposalError ? html` aria-invalid="true"` : ''}>
        <p class="hint" id="propose-month-hint">Coche les organisations qui ont publié des bulletins ce mois-là, avec une ligne de leurs bulletins ; le prix reste à saisir.</p>
        ${proposalError ? html`<p id="propose-month-error" class="field-error">${proposalError}</p>` : ''}
      </div>
      <div class="actions"><button type="submit" class="button button-secondary" id="propose-submit">Proposer depuis les bulletins</button></div>
    </form>
    ${
      proposal
        ? html`<p id="proposal-summary">${(() => {
            const orgs = view.orgs.filter((o) => count(o.id) > 0);
            const total = orgs.reduce((sum, o) => sum + count(o.id), 0);
            return orgs.length === 0
              ? `Aucun bulletin publié pour ${month} : rien à proposer.`
              : `${month} : ${total} bulletin${total > 1 ? 's' : ''} publié${total > 1 ? 's' : ''} dans ${orgs.length} organisation${orgs.length > 1 ? 's' : ''}, cochée${orgs.length > 1 ? 's' : ''} ci-dessous.`;
          })()}</p>`
        : ''
    }
    <form id="create-form" class="form" novalidate>
      <fieldset class="fieldset" aria-describedby="create-orgs-error">
        <legend>Organisations facturées</legend>
        ${
          view.orgs.length
            ? html`<ul class="plain org-choices" id="create-orgs">${view.orgs.map(
                (o) =>
                  html`<li><label class="checkbox" for="create-org-${o.id}"><input type="checkbox" class="org-choice" id="create-org-${o.id}" value="${o.id}" data-org-name="${o.name}" data-payslips="${String(count(o.id))}"${count(o.id) > 0 ? html` checked` : ''}> <span>${o.name}${o.structure_api ? html` <span class="muted">(${o.structure_api})</span>` : ''}${proposal && count(o.id) > 0 ? html` <span class="muted">· ${count(o.id) > 1 ? `${count(o.id)} bulletins` : '1 bulletin'}</span>` : ''}</span></label></li>`,
              )}</ul>`
            : html`<p>Aucune organisation.</p>`
        }
        <p id="create-orgs-error" class="field-error" hidden></p>
      </fieldset>
      <div class="form-row">
        ${field('create-type', 'Type de facture', html`<select id="create-type" name="invoice_type" aria-describedby="${described('create-type')}">${selectOptions(INVOICE_TYPES, INVOICE_TYPE_LABELS, 'paie_mensuelle')}</select>`)}
        ${field('create-method', 'Règlement', html`<select id="create-method" name="payment_method" aria-describedby="${described('create-method')}">${selectOptions(PAYMENT_METHODS, PAYMENT_METHOD_LABELS, 'prelevement')}</select>`)}
        ${field('create-period', 'Libellé de période', html`<input id="create-period" name="period_label" type="text" maxlength="100" autocomplete="off" placeholder="novembre 2026" value="${month}" aria-describedby="${described('create-period', true)}">`, 'Facultatif. Par exemple : novembre 2026.')}
      </div>
      <div class="form-row">
        ${field('create-issue', "Date d'émission", html`<input id="create-issue" name="issue_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${formatDateFr(view.today)}" aria-describedby="${described('create-issue', true)}">`, `Au plus ${MAX_ISSUE_DAYS_AHEAD} jours après aujourd'hui, jamais avant la dernière facture émise.`)}
        ${field('create-due', 'Échéance', html`<input id="create-due" name="due_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" aria-describedby="${described('create-due', true)}">`, `Facultative : ${DEFAULT_TERM_DAYS} jours après l'émission.`)}
      </div>
      <fieldset class="fieldset" aria-describedby="create-lines-hint create-lines-error">
        <legend>Lignes de chaque facture</legend>
        <p class="hint" id="create-lines-hint">Montants hors taxes en euros, avec une virgule : 85,00.</p>
        <div class="table-wrap"><table class="table stack invoice-lines">
          <caption class="visually-hidden">Lignes de chaque facture</caption>
          <thead><tr><th scope="col">Libellé</th><th scope="col">Quantité</th><th scope="col">Prix unitaire HT (€)</th><th scope="col">TVA</th><th scope="col"><span class="visually-hidden">Retirer</span></th></tr></thead>
          <tbody id="invoice-lines">${proposal ? invoiceLineRow('1', { label: `Bulletins de paie, ${month}` }) : invoiceLineRow('1')}</tbody>
        </table></div>
        <template id="invoice-line-template">${invoiceLineRow('__N__')}</template>
        <button type="button" class="button button-secondary" id="add-invoice-line">Ajouter une ligne</button>
        <p id="create-lines-error" class="field-error" hidden></p>
      </fieldset>
      <div class="actions">
        <button type="submit" class="button" id="create-invoices-submit">Créer les factures</button>
      </div>
      ${statusRegion('create-status')}
      <ul class="plain" id="created-invoices"></ul>
    </form>
  </section>`;
}

/** A credit note of one invoice of this page: all of it, or an amount. */
function creditSection(view: StaffInvoicesView): SafeHtml {
  const invoices = view.items.filter((i) => i.kind === 'facture');
  return html`<section class="card" id="credit-note" data-refresh aria-labelledby="credit-note-title">
    <h2 id="credit-note-title">Émettre un avoir</h2>
    <p class="hint">Un avoir (A-AAAA-NNNNNN) annule tout ou partie d'une facture ; le total des avoirs d'une facture ne dépasse jamais le sien.</p>
    ${
      invoices.length === 0
        ? html`<p>Aucune facture sur cette page.</p>`
        : html`<form id="credit-form" class="form" novalidate>
      <div class="form-row">
        <div class="field">
          <label for="credit-invoice">Facture</label>
          <select id="credit-invoice" name="invoice" aria-describedby="credit-invoice-error">${selectOptions(
            invoices.map((i) => i.id),
            Object.fromEntries(invoices.map((i) => [i.id, `${i.number} · ${i.org_name} · ${formatEuros(i.total_ttc)} TTC`])),
            undefined,
            'Choisissez une facture',
          )}</select>
          <p id="credit-invoice-error" class="field-error" hidden></p>
        </div>
        <div class="field">
          <label for="credit-reason">Motif</label>
          <input id="credit-reason" name="reason" type="text" maxlength="300" autocomplete="off" placeholder="Erreur de quantité" aria-describedby="credit-reason-error">
          <p id="credit-reason-error" class="field-error" hidden></p>
        </div>
      </div>
      <div class="form-row">
        <div class="field">
          <label for="credit-amount">Montant HT à créditer (€)</label>
          <input id="credit-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" placeholder="0,00" aria-describedby="credit-amount-hint credit-amount-error">
          <p class="hint" id="credit-amount-hint">Laissez vide pour créditer toute la facture.</p>
          <p id="credit-amount-error" class="field-error" hidden></p>
        </div>
        <div class="field">
          <label for="credit-vat">TVA</label>
          <select id="credit-vat" name="vat_rate">${selectOptions(VAT_RATES, VAT_LABELS, '20')}</select>
        </div>
      </div>
      <div class="actions">
        <button type="submit" class="button" id="credit-submit">Émettre l'avoir</button>
      </div>
      ${statusRegion('credit-status')}
    </form>`
    }
  </section>`;
}
