/**
 * The contract pages: `/contrats` (the grid), `/contrats/{id}` (a contract, its
 * dates and total, its notes, its PDF), `/contrats/nouveau` and `/contrats/{id}/modifier` (a
 * draft's form). They read through the contracts and employees services, the same functions as
 * `GET /api/contrats…`, in the organization the gate resolved; every change is sent by the
 * page's script to the API, so that the rules live in one place.
 */
import type { Database } from '../db/database.ts';
import {
  contractHistory,
  listAmendments,
  listGrid,
  listNotes,
  listStaffGrid,
  readContract,
  STAFF_NOTE_AUTHOR,
  type AmendmentDetails,
  type ContractView,
  type GridItem,
  type GridQuery,
} from '../contracts/contracts.service.ts';
import { amendmentText } from '../contracts/contract.pdf.ts';
import { loadOrgChoices, orgSelect, type OrgChoice } from './staff-lists.ts';
import { assertEditable, CONTRACT_KINDS, CONTRACT_STATUSES, DATE_NATURES } from '../contracts/contract.rules.ts';
import { findOrganization } from '../org/org.repository.ts';
import { publishedPeriodsOfContract } from '../payroll/payroll.service.ts';
import { periodLabel, periodToFr } from './payroll-labels.ts';
import { isoFromFr } from '../format/calendar-shared.js';
import { formatDateFr, formatEuros, ofFr } from '../format/french.ts';
import type { Money } from '../money/money.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { formatPageDate } from './labels.ts';
import { fieldAttrs, fieldErrorBox, filterFieldError, messageOf, type FieldError, type FilterField } from './field-messages.ts';
import { confirmDialog, statusRegion } from './layout.ts';
import {
  allEmployees,
  dash,
  euros,
  listHref,
  listQueryOf,
  listSummary,
  orgLine,
  PAGE_SIZES,
  pagerNav,
  pageSizeAndSubmit,
  readList,
  selectOptions as options,
  type EmployeeOption,
  type Org,
} from './page-parts.ts';
import { CONTRACT_KIND_LABELS, CONTRACT_STATUS_LABELS, DATE_NATURE_LABELS, contractStatusLabel, dateNatureLabel } from '../contracts/contract.labels.ts';

/** Page sizes offered by the grid (200 at most, the API's limit). */
export const GRID_PAGE_SIZES = PAGE_SIZES;

/** The grid's query parameters: those of `GET /api/contrats`. */
const GRID_PARAMS = ['q', 'status', 'kind', 'employee_id', 'from', 'to', 'limit', 'cursor'] as const;
/** The staff grid's (`GET /api/staff/contrats`): the same, and the organization. */
const STAFF_GRID_PARAMS = [...GRID_PARAMS, 'org_id'] as const;
type StaffGridQuery = GridQuery & { org_id?: string };

// ---------------------------------------------------------------------------------------
// Small formats.

/** `"7.5"` → `"7,5"`. */
export function decimalFr(value: string): string {
  return value.replace('.', ',');
}

function period(c: { start_date: string; end_date: string | null }): string {
  return c.end_date ? `du ${formatDateFr(c.start_date)} au ${formatDateFr(c.end_date)}` : `à partir du ${formatDateFr(c.start_date)}`;
}

export function contractBadge(status: string): SafeHtml {
  return html`<span class="badge badge-contract-${status}">${contractStatusLabel(status)}</span>`;
}

function employeeName(e: { first_name: string; last_name: string }): string {
  return `${e.first_name} ${e.last_name}`;
}

// ---------------------------------------------------------------------------------------
// The grid.

/** The page's query string reduced to the grid's parameters, empty values left out (a GET form sends them). */
export function gridQueryOf(query: unknown): GridQuery {
  return listQueryOf(GRID_PARAMS, query) as GridQuery;
}

export interface GridView {
  org: Org | undefined;
  isStaff: boolean;
  query: StaffGridQuery;
  /** The staff grid (`/staff/contrats`): every organization, to choose from. */
  staff?: { orgs: OrgChoice[] };
  items: GridItem[];
  nextCursor: string | null;
  /** A refused filter (the API's 400 message): the grid shows it instead of rows. */
  error: string | null;
  /** The same refusal placed on its filter field, when it names one. */
  fieldError: FieldError | null;
}

/** The grid's filter fields, for a refusal to be placed on its own. */
function gridFields(query: StaffGridQuery): Record<string, FilterField> {
  return {
    from: { kind: 'date', typed: query.from, label: 'En cours à partir du' },
    to: { kind: 'date', typed: query.to, label: "Jusqu'au" },
    status: { kind: 'other', typed: query.status, label: 'Statut' },
    kind: { kind: 'other', typed: query.kind, label: 'Type' },
    org_id: { kind: 'other', typed: query.org_id, label: 'Organisation' },
  };
}

export async function loadGrid(db: Database, orgId: string, isStaff: boolean, rawQuery: unknown): Promise<GridView> {
  const query = gridQueryOf(rawQuery);
  const org = await findOrganization(db, orgId);
  const list = await readList(() =>
    listGrid(db, orgId, { ...query, ...(query.from ? { from: isoFromFr(query.from) } : {}), ...(query.to ? { to: isoFromFr(query.to) } : {}) }),
  );
  return { org, isStaff, query, ...list, fieldError: filterFieldError(list.refusal, gridFields(query)) };
}

/**
 * `/staff/contrats` (gate `staff`): the grid of every organization
 * (`GET /api/staff/contrats`), filtered by organization too; a row opens the contract in its
 * organization (`/staff/contrats/{id}`).
 */
export async function loadStaffGrid(db: Database, rawQuery: unknown): Promise<GridView> {
  const query = listQueryOf(STAFF_GRID_PARAMS, rawQuery) as StaffGridQuery;
  const [orgs, list] = await Promise.all([
    loadOrgChoices(db),
    readList(() => listStaffGrid(db, { ...query, ...(query.from ? { from: isoFromFr(query.from) } : {}), ...(query.to ? { to: isoFromFr(query.to) } : {}) })),
  ]);
  return { org: undefined, isStaff: true, query, staff: { orgs }, ...list, fieldError: filterFieldError(list.refusal, gridFields(query)) };
}

const gridPath = (view: GridView) => (view.staff ? '/staff/contrats' : '/contrats');

function gridHref(view: GridView, changes: Partial<Record<keyof StaffGridQuery, string | undefined>>): string {
  return view.staff ? listHref('/staff/contrats', STAFF_GRID_PARAMS, view.query, changes) : listHref('/contrats', GRID_PARAMS, view.query, changes);
}

function filterForm(view: GridView): SafeHtml {
  const { query } = view;
  const path = gridPath(view);
  return html`<form class="form filters" method="get" action="${path}" role="search" aria-label="Filtrer les contrats">
    ${query.employee_id ? html`<input type="hidden" name="employee_id" value="${query.employee_id}">` : ''}
    ${
      view.staff
        ? html`<div class="field field-wide">
      <label for="filter-org">Organisation</label>
      ${orgSelect('filter-org', view.staff.orgs, query.org_id, undefined, messageOf(view.fieldError, 'org_id') ? 'filter-org-error' : undefined)}
      ${fieldErrorBox('filter-org', messageOf(view.fieldError, 'org_id'))}
    </div>`
        : ''
    }
    <div class="field field-wide">
      <label for="filter-q">Rechercher</label>
      <input id="filter-q" name="q" type="search" value="${query.q ?? ''}" maxlength="200" placeholder="Nom du salarié, numéro ou spectacle" autocomplete="off">
    </div>
    <div class="field">
      <label for="filter-status">Statut</label>
      <select id="filter-status" name="status"${fieldAttrs('filter-status', messageOf(view.fieldError, 'status'))}>${options(CONTRACT_STATUSES, CONTRACT_STATUS_LABELS, query.status, 'Tous les statuts')}</select>
      ${fieldErrorBox('filter-status', messageOf(view.fieldError, 'status'))}
    </div>
    <div class="field">
      <label for="filter-kind">Type</label>
      <select id="filter-kind" name="kind"${fieldAttrs('filter-kind', messageOf(view.fieldError, 'kind'))}>${options(CONTRACT_KINDS, Object.fromEntries(CONTRACT_KINDS.map((k) => [k, k])), query.kind, 'Tous les types')}</select>
      ${fieldErrorBox('filter-kind', messageOf(view.fieldError, 'kind'))}
    </div>
    <div class="field">
      <label for="filter-from">En cours à partir du</label>
      <input id="filter-from" name="from" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${query.from ?? ''}"${fieldAttrs('filter-from', messageOf(view.fieldError, 'from'), 'filter-date-hint')}>
      ${fieldErrorBox('filter-from', messageOf(view.fieldError, 'from'))}
    </div>
    <div class="field">
      <label for="filter-to">Jusqu'au</label>
      <input id="filter-to" name="to" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${query.to ?? ''}"${fieldAttrs('filter-to', messageOf(view.fieldError, 'to'), 'filter-date-hint')}>
      ${fieldErrorBox('filter-to', messageOf(view.fieldError, 'to'))}
      <p class="visually-hidden" id="filter-date-hint">Format JJ/MM/AAAA.</p>
    </div>
    ${pageSizeAndSubmit(path, query.limit)}
  </form>`;
}

function gridRow(c: GridItem, orgNames: Map<string, string> | null): SafeHtml {
  const what = [c.job_title, c.show_title].filter(Boolean).join(' · ');
  return html`<tr data-contract-id="${c.id}">
    <td data-label="Numéro" class="nowrap"><a href="${orgNames ? '/staff' : ''}/contrats/${c.id}">${c.contract_number}</a></td>
    ${orgNames ? html`<td data-label="Organisation" class="wrap">${orgNames.get(c.org_id) ?? dash}</td>` : ''}
    <td data-label="Salarié">${employeeName(c.employee)}</td>
    <td data-label="Type">${c.kind}</td>
    <td data-label="Emploi · spectacle">${what || dash}</td>
    <td data-label="Période" class="date">${c.end_date ? html`${formatDateFr(c.start_date)} → ${formatDateFr(c.end_date)}` : html`depuis le ${formatDateFr(c.start_date)}`}</td>
    <td data-label="Brut total" class="amount">${euros(c.gross_total)}</td>
    <td data-label="Statut">${contractBadge(c.status)}</td>
  </tr>`;
}

export function renderGrid(view: GridView): SafeHtml {
  const { query, items } = view;
  const filtered = STAFF_GRID_PARAMS.some((p) => p !== 'limit' && p !== 'cursor' && query[p]);
  const orgNames = view.staff ? new Map(view.staff.orgs.map((o) => [o.id, o.name])) : null;
  const count = items.length;
  const summary = listSummary({
    error: view.fieldError?.summary ?? view.error,
    count,
    filtered,
    afterFirst: Boolean(query.cursor),
    id: 'grid-summary',
    noneMatching: 'Aucun contrat ne correspond à ces critères.',
    none: view.staff ? 'Aucun contrat pour le moment.' : 'Aucun contrat pour le moment. Créez le premier avec « Nouveau contrat ».',
    one: '1 contrat affiché',
    many: (n) => `${n} contrats affichés`,
    order: ', du plus récent au plus ancien.',
  });
  return html`<div class="page" id="${view.staff ? 'staff-contrats' : 'contrats'}">
  ${
    view.staff
      ? html`<h1>Tous les contrats</h1>
  <p class="lead">Les contrats de toutes les organisations. Ouvrir un contrat fait de son organisation votre organisation active.</p>`
      : html`<div class="page-head">
    <h1>Contrats</h1>
    <a class="button" href="/contrats/nouveau" id="new-contract">Nouveau contrat</a>
  </div>
  ${orgLine(view.org, view.isStaff)}`
  }
  <section class="card" aria-labelledby="filters-title">
    <h2 id="filters-title" class="visually-hidden">Filtres</h2>
    ${filterForm(view)}
    ${query.employee_id ? html`<p class="muted">Contrats d'un seul salarié. <a href="${gridHref(view, { employee_id: undefined, cursor: undefined })}">Voir tous les salariés</a></p>` : ''}
  </section>
  <section class="card" aria-labelledby="grid-title">
    <h2 id="grid-title">Liste des contrats</h2>
    ${summary}
    ${
      count
        ? html`<div class="table-wrap"><table class="table stack grid">
      <caption class="visually-hidden">Contrats, du plus récent au plus ancien</caption>
      <thead><tr><th scope="col">Numéro</th>${orgNames ? html`<th scope="col">Organisation</th>` : ''}<th scope="col">Salarié</th><th scope="col">Type</th><th scope="col">Emploi · spectacle</th><th scope="col">Période</th><th scope="col" class="amount">Brut total</th><th scope="col">Statut</th></tr></thead>
      <tbody>${items.map((c) => gridRow(c, orgNames))}</tbody>
    </table></div>`
        : ''
    }
    ${pagerNav({ href: (cursor) => gridHref(view, { cursor }), current: query.cursor, next: view.nextCursor })}
  </section>
</div>`;
}

// ---------------------------------------------------------------------------------------
// One contract.

type Note = { id: string; author_email: string; text: string; created_at: Date | string };

export interface ContractPageView {
  org: Org | undefined;
  isStaff: boolean;
  contract: ContractView;
  notes: Note[];
  moreNotes: boolean;
  /** A confirmation carried by the address after a change made on another page (`?cree=1`). */
  flash: string | null;
  /** Its avenants, oldest first. */
  amendments: AmendmentDetails[];
  /** The months (`YYYY-MM`) its published payslips pay: a change in one of them is to be computed again. */
  publishedPeriods: string[];
  /** Staff only: its latest audit events, newest first. */
  history: Awaited<ReturnType<typeof contractHistory>>;
}

/** How many events of its history the contract page shows to staff. */
export const HISTORY_SHOWN = 20;

const FLASHES: Record<string, string> = {
  cree: 'Brouillon créé.',
  modifie: 'Modifications enregistrées.',
};

/** How many notes the page shows (newest first). */
export const NOTES_SHOWN = 50;

export async function loadContractPage(db: Database, orgId: string, isStaff: boolean, id: string, rawQuery: unknown): Promise<ContractPageView> {
  const contract = await readContract(db, orgId, id);
  const [org, notes, amendments, history, publishedPeriods] = await Promise.all([
    findOrganization(db, orgId),
    listNotes(db, orgId, contract.id, { limit: String(NOTES_SHOWN) }, isStaff),
    listAmendments(db, contract.id),
    isStaff ? contractHistory(db, contract.id, HISTORY_SHOWN) : Promise.resolve([]),
    publishedPeriodsOfContract(db, contract.id),
  ]);
  const query = (rawQuery ?? {}) as Record<string, unknown>;
  const flash = Object.keys(FLASHES).find((key) => query[key] === '1');
  return {
    org,
    isStaff,
    contract,
    notes: notes.items as Note[],
    moreNotes: notes.next_cursor !== null,
    flash: flash ? FLASHES[flash]! : null,
    amendments,
    history,
    publishedPeriods,
  };
}

function detailsList(c: ContractView): SafeHtml {
  const row = (label: string, value: SafeHtml | string | null) => html`<div><dt>${label}</dt><dd>${value === null || value === '' ? dash : value}</dd></div>`;
  return html`<dl class="details">
    ${row('Salarié', html`${employeeName(c.employee)} <a class="small-link" href="/contrats?employee_id=${c.employee_id}">(ses contrats)</a>`)}
    ${row('Type', CONTRACT_KIND_LABELS[c.kind as keyof typeof CONTRACT_KIND_LABELS] ?? c.kind)}
    ${row('Emploi', c.job_title)}
    ${row('Objet · spectacle', c.show_title)}
    ${row('IDCC', c.idcc)}
    ${row('Période', period(c))}
    ${c.kind === 'CDDU' ? '' : row('Salaire mensuel brut', euros(c.monthly_gross))}
    ${row('Total brut', html`<strong id="gross-total">${euros(c.gross_total)}</strong>`)}
  </dl>`;
}

/**
 * Staff: the salaries by date edited in place, sent whole to
 * `PATCH /api/staff/contrats/{id}/salaires-par-date`; the new total is shown as it is typed,
 * then as the API recomputed it.
 */
function editableDatesTable(c: ContractView): SafeHtml {
  return html`<form id="salaries-form" class="form" novalidate>
    <p class="hint" id="salaries-hint">Modifiez une quantité ou un montant (en euros, avec une virgule : 180,50), puis enregistrez : le total est recalculé.</p>
    <div class="table-wrap"><table class="table stack dates">
    <caption class="visually-hidden">Salaires par date, modifiables</caption>
    <thead><tr><th scope="col">Date</th><th scope="col">Nature</th><th scope="col" class="amount">Quantité</th><th scope="col" class="amount">Montant brut (€)</th></tr></thead>
    <tbody id="salary-lines">${c.dates.map(
      (d, i) => html`<tr class="salary-line" data-date="${d.date}" data-nature="${d.nature}">
      <td data-label="Date" class="date">${formatDateFr(d.date)}</td>
      <td data-label="Nature">${dateNatureLabel(d.nature)}</td>
      <td data-label="Quantité" class="amount"><label class="visually-hidden" for="salary-quantity-${i + 1}">Quantité du ${formatDateFr(d.date)}</label>
        <input id="salary-quantity-${i + 1}" name="quantity" type="text" inputmode="decimal" size="5" value="${decimalFr(d.quantity)}" aria-describedby="salaries-error"></td>
      <td data-label="Montant" class="amount"><label class="visually-hidden" for="salary-amount-${i + 1}">Montant brut du ${formatDateFr(d.date)}, en euros</label>
        <input id="salary-amount-${i + 1}" name="amount" type="text" inputmode="decimal" size="10" value="${amountInput(d.amount)}" aria-describedby="salaries-error"></td>
    </tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row" colspan="3">${totalLabel(c.dates)}</th><td class="amount"><strong id="salaries-total">${euros(c.gross_total)}</strong></td></tr></tfoot>
    </table></div>
    <p id="salaries-error" class="field-error" hidden></p>
    <div class="actions"><button type="submit" class="button" id="save-salaries">Enregistrer les salaires</button></div>
  </form>`;
}

function datesTable(c: ContractView, editable = false): SafeHtml {
  if (editable && c.dates.length > 0) return editableDatesTable(c);
  if (c.dates.length === 0) {
    return html`<p class="muted">${c.kind === 'CDDU' ? 'Aucune date pour le moment.' : 'Aucune date : le salaire est mensuel.'}</p>`;
  }
  return html`<div class="table-wrap"><table class="table stack dates">
    <caption class="visually-hidden">Salaires par date</caption>
    <thead><tr><th scope="col">Date</th><th scope="col">Nature</th><th scope="col" class="amount">Quantité</th><th scope="col" class="amount">Montant brut</th></tr></thead>
    <tbody>${c.dates.map(
      (d) => html`<tr>
      <td data-label="Date" class="date">${formatDateFr(d.date)}</td>
      <td data-label="Nature">${dateNatureLabel(d.nature)}</td>
      <td data-label="Quantité" class="amount">${decimalFr(d.quantity)}</td>
      <td data-label="Montant" class="amount">${formatEuros(d.amount)}</td>
    </tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row" colspan="3">${totalLabel(c.dates)}</th><td class="amount"><strong>${euros(c.gross_total)}</strong></td></tr></tfoot>
  </table></div>`;
}

/**
 * The caption of a contract's total: the days worked, not the lines (a day may have a rehearsal
 * and a performance): "Total (3 dates)", or "Total (3 dates, 4 lignes)" when a day has several.
 */
export function totalLabel(lines: readonly { date: string }[]): string {
  const days = new Set(lines.map((l) => l.date)).size;
  const dates = days === 1 ? '1 date' : `${days} dates`;
  return days === lines.length ? `Total (${dates})` : `Total (${dates}, ${lines.length} lignes)`;
}

function pdfSection(c: ContractView): SafeHtml {
  const state = c.has_signed_pdf
    ? html`Le contrat signé est disponible${c.signed_at ? html` (déposé le ${formatDateFr(new Date(c.signed_at).toISOString().slice(0, 10))})` : ''}.`
    : c.has_generated_pdf
      ? c.status === 'a_signer'
        ? 'Le contrat est à signer : son PDF est prêt, téléchargez-le pour la signature.'
        : 'Un PDF a été généré. Générez-le à nouveau après une modification.'
      : 'Aucun PDF pour le moment : il est créé quand le contrat est soumis pour signature.';
  // A draft's PDF is generated on demand; the PDF to sign is rendered at submission and again
  // after an avenant, so it is offered only while it is missing.
  const generable = !c.has_signed_pdf && (c.status === 'brouillon' || (c.status === 'a_signer' && !c.has_generated_pdf));
  return html`<section class="card" id="pdf" data-refresh aria-labelledby="pdf-title">
  <h2 id="pdf-title">Document</h2>
  <p id="pdf-state">${state}</p>
  <div class="actions">
    ${generable ? html`<button type="button" class="button" id="generate-pdf">Générer le PDF</button>` : ''}
    ${
      c.has_signed_pdf || c.has_generated_pdf
        ? html`<button type="button" class="button button-secondary" id="download-pdf">${c.has_signed_pdf ? 'Télécharger le contrat signé' : 'Télécharger le PDF'}</button>`
        : ''
    }
  </div>
</section>`;
}

function actionsSection(c: ContractView): SafeHtml {
  const draft = c.status === 'brouillon';
  const cancellable = c.status !== 'signe' && c.status !== 'annule';
  if (!draft && !cancellable) return html``;
  return html`<section class="card" id="contract-actions" data-refresh aria-labelledby="actions-title">
  <h2 id="actions-title">Actions</h2>
  ${draft ? html`<p class="muted">Seul un brouillon peut être modifié. Une fois soumis, le contrat part à la signature.</p>` : ''}
  <div class="actions">
    ${draft ? html`<a class="button" id="edit-contract" href="/contrats/${c.id}/modifier">Modifier le brouillon</a>` : ''}
    ${draft ? html`<button type="button" class="button button-secondary" id="submit-contract">Soumettre pour signature</button>` : ''}
    ${cancellable ? html`<button type="button" class="button button-danger" id="cancel-contract">Annuler le contrat</button>` : ''}
  </div>
</section>`;
}

function notesSection(notes: Note[], more: boolean, timeZone: string, isStaff: boolean): SafeHtml {
  return html`<section class="card" id="notes" aria-labelledby="notes-title">
  <h2 id="notes-title" tabindex="-1">Notes</h2>
  <form id="note-form" class="form" novalidate>
    <div class="field">
      <label for="note-text">Nouvelle note</label>
      <p class="hint" id="note-hint">${
        isStaff
          ? "Visible par l'organisation, signée «\u00a0Équipe paie\u00a0». Les personnes de l'organisation qui ont écrit une note sur ce contrat sont prévenues par e-mail. 5 000 caractères au plus."
          : "Visible par votre organisation et par l'équipe paie, qui est prévenue par e-mail. 5 000 caractères au plus."
      }</p>
      <textarea id="note-text" name="text" rows="3" maxlength="5000" required aria-describedby="note-text-error"></textarea>
      <p id="note-text-error" class="field-error" hidden></p>
    </div>
    <div><button type="submit" class="button">Ajouter la note</button></div>
  </form>
  <div id="notes-list" data-refresh>
  ${
    notes.length
      ? html`<ol class="notes" aria-label="Notes, de la plus récente à la plus ancienne">${notes.map(
          (n) => html`<li class="note">
      <p class="note-meta">${n.author_email === STAFF_NOTE_AUTHOR ? html`<strong>${n.author_email}</strong>` : html`<strong class="email">${n.author_email}</strong>`} · <time datetime="${new Date(n.created_at).toISOString()}">${formatPageDate(n.created_at, timeZone)}</time></p>
      <p class="note-text">${n.text}</p>
    </li>`,
        )}</ol>${more ? html`<p class="muted">Seules les ${NOTES_SHOWN} notes les plus récentes sont affichées.</p>` : ''}`
      : html`<p class="muted" id="no-notes">Aucune note pour le moment.</p>`
  }
  </div>
</section>`;
}

/** Staff: the signed PDF, dropped or chosen, with its progress; its deletion after a confirmation. */
function signedPdfSection(c: ContractView): SafeHtml {
  if (c.status === 'annule') return html``;
  return html`<section class="card" id="signed-pdf" data-refresh aria-labelledby="signed-pdf-title">
  <h2 id="signed-pdf-title" tabindex="-1">Contrat signé</h2>
  <p id="signed-pdf-state">${
    c.has_signed_pdf
      ? html`Un PDF signé est déposé${c.signed_at ? html` (le ${formatDateFr(new Date(c.signed_at).toISOString().slice(0, 10))})` : ''}. En déposer un autre le remplace.`
      : 'Aucun PDF signé. Le déposer fait passer le contrat au statut « Signé ».'
  }</p>
  <div class="dropzone" id="signed-drop">
    <p class="dropzone-text" aria-hidden="true">Glissez le PDF signé ici, ou</p>
    <input id="signed-file" class="visually-hidden file-input" type="file" accept="application/pdf,.pdf" aria-describedby="signed-file-hint signed-file-error">
    <label for="signed-file" class="button button-secondary file-button">Choisir le PDF signé</label>
  </div>
  <p class="hint" id="signed-file-hint">Un fichier PDF, 10 Mo au plus.</p>
  <p id="signed-file-error" class="field-error" hidden></p>
  <div class="upload-progress" id="signed-progress" hidden>
    <label for="signed-progress-bar">Envoi du PDF</label>
    <progress id="signed-progress-bar" max="100" value="0"></progress>
    <span id="signed-progress-text" aria-live="polite">0 %</span>
  </div>
  ${c.has_signed_pdf ? html`<div class="actions"><button type="button" class="button button-danger" id="delete-signed-pdf">Supprimer le PDF signé</button></div>` : ''}
</section>`;
}

const deleteSignedDialog = confirmDialog({
  id: 'confirm-delete-signed',
  title: 'Supprimer le PDF signé ?',
  text: 'Le fichier sera supprimé et le contrat repassera au statut « À signer ».',
  keepLabel: 'Garder le PDF',
  confirmLabel: 'Supprimer le PDF',
});

/** An avenant's line of dates (the draft form's markup, its own ids). */
function amendmentLine(n: string): SafeHtml {
  return html`<tr class="avenant-line">
    <td data-label="Date"><label class="visually-hidden" for="avenant-date-${n}">Date ${n} de l'avenant</label>
      <input id="avenant-date-${n}" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" name="date" required aria-describedby="avenant-date-${n}-error"><p id="avenant-date-${n}-error" class="field-error" hidden></p></td>
    <td data-label="Nature"><label class="visually-hidden" for="avenant-nature-${n}">Nature de la date ${n}</label>
      <select id="avenant-nature-${n}" name="nature">${options(DATE_NATURES, DATE_NATURE_LABELS, 'representation')}</select></td>
    <td data-label="Quantité"><label class="visually-hidden" for="avenant-quantity-${n}">Quantité de la date ${n}</label>
      <input id="avenant-quantity-${n}" type="text" inputmode="decimal" name="quantity" value="1" required size="5"></td>
    <td data-label="Montant brut (€)"><label class="visually-hidden" for="avenant-amount-${n}">Montant brut de la date ${n}, en euros</label>
      <input id="avenant-amount-${n}" type="text" inputmode="decimal" name="amount" required size="10"></td>
  </tr>`;
}

/** The avenants made, and the form of a new one (`POST /api/contrats/{id}/avenants`). */
/**
 * The months of the contract already validated, and what a change in them asks: a new
 * computation of the month, which pays the difference by a complementary payslip.
 */
function publishedMonthsNotice(c: ContractView, periods: string[], isStaff: boolean): SafeHtml {
  if (periods.length === 0) return html``;
  const months = periods.map((period) =>
    isStaff ? html`<a href="/staff/paie?org_id=${c.org_id}&amp;period=${periodToFr(period)}">${periodLabel(period)}</a>` : html`${periodLabel(period)}`,
  );
  return html`<p class="hint" id="avenant-published">Mois déjà validés pour ce contrat : ${months.map((m, i) => html`${i > 0 ? ', ' : ''}${m}`)}. Un avenant ou des salaires par date modifiés dans l’un de ces mois ne sont payés qu’une fois ce mois recalculé (Calcul de la paie) : la différence fait l’objet d’un bulletin complémentaire.</p>`;
}

/** An avenant's dates that fall in months already validated: those months must be computed again. */
function touchedPublished(a: AmendmentDetails, periods: string[]): string[] {
  return periods.filter((period) => a.dates.some((d) => d.date.startsWith(`${period}-`)));
}

function amendmentsSection(c: ContractView, amendments: AmendmentDetails[], publishedPeriods: string[] = [], isStaff = false): SafeHtml {
  if (c.status === 'annule' && amendments.length === 0) return html``;
  return html`<section class="card" id="avenants" data-refresh aria-labelledby="avenants-title">
  <h2 id="avenants-title" tabindex="-1">Avenants</h2>
  ${
    amendments.length
      ? html`<ol class="plain" id="avenant-list">${amendments.map((a) => {
          const touched = touchedPublished(a, publishedPeriods);
          return html`<li>${amendmentText(a)}${touched.length ? html` <strong class="recompute">À recalculer : ${touched.map(periodLabel).join(', ')} (déjà validé, un bulletin complémentaire paiera la différence).</strong>` : ''}</li>`;
        })}</ol>`
      : html`<p class="muted" id="no-avenant">Aucun avenant.</p>`
  }
  ${publishedMonthsNotice(c, publishedPeriods, isStaff)}
  ${
    c.status === 'annule'
      ? ''
      : html`<form id="avenant-form" class="form" novalidate data-start="${c.start_date}" data-end="${c.end_date ?? ''}">
    <p class="hint" id="avenant-hint">Un avenant prolonge la période du contrat (début plus tôt ou fin plus tard) et ajoute ses dates. Le PDF du contrat, s'il existe, le mentionne aussitôt, et un contrat signé revient à la signature.</p>
    <div class="form-row">
      <div class="field">
        <label for="avenant-start_date">Nouvelle date de début</label>
        <input id="avenant-start_date" name="start_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${formatDateFr(c.start_date)}" aria-describedby="avenant-start_date-error">
        <p id="avenant-start_date-error" class="field-error" hidden></p>
      </div>
      ${
        c.end_date === null
          ? ''
          : html`<div class="field">
        <label for="avenant-end_date">Nouvelle date de fin</label>
        <input id="avenant-end_date" name="end_date" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${formatDateFr(c.end_date)}" aria-describedby="avenant-end_date-error">
        <p id="avenant-end_date-error" class="field-error" hidden></p>
      </div>`
      }
    </div>
    <h3 class="subheading" id="avenant-dates-title">Dates ajoutées</h3>
    <div class="table-wrap"><table class="table stack date-lines" aria-labelledby="avenant-dates-title">
      <thead><tr><th scope="col">Date</th><th scope="col">Nature</th><th scope="col">Quantité</th><th scope="col">Montant brut (€)</th></tr></thead>
      <tbody id="avenant-lines">${amendmentLine('1')}</tbody>
    </table></div>
    <template id="avenant-line-template">${amendmentLine('__N__')}</template>
    <p id="avenant-error" class="field-error" hidden></p>
    <div class="actions">
      <button type="button" class="button button-secondary" id="avenant-add-line">Ajouter une date</button>
      <button type="submit" class="button" id="save-avenant">Enregistrer l'avenant</button>
    </div>
  </form>`
  }
</section>`;
}

/** The words of a contract's audit events in its history. */
const HISTORY_LABELS: Record<string, string> = {
  'contract.created': 'Création',
  'contract.updated': 'Brouillon modifié',
  'contract.submitted': 'Soumis pour signature',
  'contract.cancelled': 'Annulé',
  'contract.dates_replaced': 'Salaires par date modifiés',
  'contract.amended': 'Avenant',
  'contract.note_added': 'Note ajoutée',
  'contract.pdf_generated': 'PDF généré',
  'contract.signed_pdf_attached': 'PDF signé déposé',
  'contract.signed_pdf_deleted': 'PDF signé supprimé',
};

/** Staff: the contract's latest audit events (they name staff addresses: never shown to clients). */
function historySection(history: ContractPageView['history'], timeZone: string): SafeHtml {
  return html`<section class="card" id="contract-history" data-refresh aria-labelledby="contract-history-title">
  <h2 id="contract-history-title">Historique</h2>
  ${
    history.length
      ? html`<ol class="notes" aria-label="Historique, du plus récent au plus ancien">${history.map(
          (e) =>
            html`<li class="note"><p class="note-meta"><strong>${HISTORY_LABELS[e.action] ?? e.action}</strong> · <span class="email">${e.actor_email ?? dash}</span> · <time datetime="${new Date(e.created_at).toISOString()}">${formatPageDate(e.created_at, timeZone)}</time></p></li>`,
        )}</ol>${history.length >= HISTORY_SHOWN ? html`<p class="muted">Seuls les ${HISTORY_SHOWN} événements les plus récents sont affichés.</p>` : ''}`
      : html`<p class="muted">Aucun événement.</p>`
  }
</section>`;
}

const cancelDialog = confirmDialog({
  id: 'confirm-cancel',
  title: 'Annuler ce contrat ?',
  text: 'Le contrat passera au statut « Annulé » et ne pourra plus être modifié ni signé.',
  keepLabel: 'Garder le contrat',
  confirmLabel: 'Annuler le contrat',
});

export function renderContractPage(view: ContractPageView, timeZone: string): SafeHtml {
  const c = view.contract;
  return html`<div class="page" id="contrat" data-contract-id="${c.id}" data-contract-number="${c.contract_number}">
  <p class="breadcrumb">${
    view.isStaff
      ? html`<a href="/staff/contrats">← Tous les contrats</a> · <a href="/contrats">Contrats ${view.org ? ofFr(view.org.name) : "de l'organisation"}</a>`
      : html`<a href="/contrats">← Tous les contrats</a>`
  }</p>
  <div class="page-head" id="contract-head" data-refresh>
    <h1>Contrat <span class="nowrap">${c.contract_number}</span></h1>
    ${contractBadge(c.status)}
  </div>
  ${orgLine(view.org, view.isStaff)}
  <div id="status" class="status" role="status" aria-live="polite" aria-atomic="true"${view.flash ? html` data-kind="success"` : ''}>${view.flash ?? ''}</div>
  <div class="columns">
    <div>
      <section class="card" id="summary" data-refresh aria-labelledby="summary-title">
        <h2 id="summary-title">Informations</h2>
        ${detailsList(c)}
      </section>
      <section class="card" id="dates" data-refresh aria-labelledby="dates-title">
        <h2 id="dates-title">Salaires par date</h2>
        ${datesTable(c, view.isStaff && c.status !== 'annule')}
      </section>
      ${amendmentsSection(c, view.amendments, view.publishedPeriods, view.isStaff)}
    </div>
    <div>
      ${actionsSection(c)}
      ${view.isStaff ? signedPdfSection(c) : ''}
      ${pdfSection(c)}
      ${notesSection(view.notes, view.moreNotes, timeZone, view.isStaff)}
      ${view.isStaff ? historySection(view.history, timeZone) : ''}
    </div>
  </div>
</div>
${c.status !== 'signe' && c.status !== 'annule' ? cancelDialog : ''}
${view.isStaff ? deleteSignedDialog : ''}`;
}

// ---------------------------------------------------------------------------------------
// A draft's form (creation and edit).

export interface FormView {
  org: Org | undefined;
  isStaff: boolean;
  employees: EmployeeOption[];
  /** The draft edited; null for a new one. */
  contract: ContractView | null;
}

export async function loadForm(db: Database, orgId: string, isStaff: boolean, id: string | null): Promise<FormView> {
  const [org, employees, contract] = await Promise.all([
    findOrganization(db, orgId),
    allEmployees(db, orgId),
    id === null ? Promise.resolve(null) : readContract(db, orgId, id),
  ]);
  // The API's own rule (409 contract_locked): the page never offers a form it would refuse.
  if (contract) assertEditable(contract.status);
  return { org, isStaff, employees, contract };
}

/** An amount as typed in French (`180,00`). */
function amountInput(value: Money | null): string {
  return value === null ? '' : value.replace('.', ',');
}

function dateRow(index: number | '__N__', line: { date: string; nature: string; quantity: string; amount: string } | null): SafeHtml {
  const n = typeof index === 'number' ? String(index + 1) : index;
  // Each field's refusal is shown under it, on its own line (`line-<name>-<n>-error`).
  const box = (name: string) => html`<p id="line-${name}-${n}-error" class="field-error" hidden></p>`;
  return html`<tr class="date-line">
    <td data-label="Date"><label class="visually-hidden" for="line-date-${n}">Date de la ligne ${n}</label>
      <input id="line-date-${n}" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" name="date" value="${line ? formatDateFr(line.date) : ''}" required aria-describedby="date-format-hint line-date-${n}-error">${box('date')}</td>
    <td data-label="Nature"><label class="visually-hidden" for="line-nature-${n}">Nature de la ligne ${n}</label>
      <select id="line-nature-${n}" name="nature" aria-describedby="line-nature-${n}-error">${options(DATE_NATURES, DATE_NATURE_LABELS, line?.nature ?? 'representation')}</select>${box('nature')}</td>
    <td data-label="Quantité"><label class="visually-hidden" for="line-quantity-${n}">Quantité de la ligne ${n}</label>
      <input id="line-quantity-${n}" type="text" inputmode="decimal" name="quantity" value="${line ? decimalFr(line.quantity) : '1'}" required size="5" aria-describedby="line-quantity-${n}-error">${box('quantity')}</td>
    <td data-label="Montant brut (€)"><label class="visually-hidden" for="line-amount-${n}">Montant brut de la ligne ${n}, en euros</label>
      <input id="line-amount-${n}" type="text" inputmode="decimal" name="amount" value="${line ? amountInput(line.amount as Money) : ''}" required size="10" aria-describedby="line-amount-${n}-error">${box('amount')}</td>
    <td data-label="Retirer"><button type="button" class="button button-small button-secondary" data-remove-line>Retirer<span class="visually-hidden"> la ligne ${n}</span></button></td>
  </tr>`;
}

export function renderForm(view: FormView): SafeHtml {
  const c = view.contract;
  const title = c ? `Modifier le contrat ${c.contract_number}` : 'Nouveau contrat';
  const kind = c?.kind ?? 'CDDU';
  const text = (id: string, name: string, label: string, value: string | null, extra: SafeHtml | string = '', hint = '') => html`<div class="field">
      <label for="${id}">${label}</label>
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
      <input id="${id}" name="${name}" type="text" value="${value ?? ''}" aria-describedby="${hint ? `${id}-hint ` : ''}${id}-error" ${extra}>
      <p id="${id}-error" class="field-error" hidden></p>
    </div>`;
  const date = (id: string, name: string, label: string, value: string | null, required: boolean) => html`<div class="field" data-field="${name}">
      <label for="${id}">${label}${required ? html` <span class="required">(obligatoire)</span>` : ''}</label>
      <input id="${id}" name="${name}" type="text" inputmode="numeric" placeholder="JJ/MM/AAAA" maxlength="10" autocomplete="off" value="${value ? formatDateFr(value) : ''}" aria-describedby="date-format-hint ${id}-error">
      <p id="${id}-error" class="field-error" hidden></p>
    </div>`;
  return html`<div class="page" id="contract-form-page">
  <p class="breadcrumb"><a href="${c ? `/contrats/${c.id}` : '/contrats'}">← ${c ? `Retour au contrat ${c.contract_number}` : 'Tous les contrats'}</a></p>
  <h1>${title}</h1>
  ${orgLine(view.org, view.isStaff)}
  ${statusRegion()}
  <form id="contract-form" class="card form" novalidate data-mode="${c ? 'edit' : 'create'}" data-contract-id="${c?.id ?? ''}">
    <fieldset class="fieldset">
      <legend>Salarié</legend>
      <div class="field">
        <label for="contract-employee_id">Salarié <span class="required">(obligatoire)</span></label>
        <select id="contract-employee_id" name="employee_id" aria-describedby="contract-employee_id-error">
          <option value="">Choisissez un salarié</option>
          ${view.employees.map((e) => html`<option value="${e.id}" data-category="${e.category ?? ''}"${c?.employee_id === e.id ? html` selected` : ''}>${e.last_name} ${e.first_name}</option>`)}
        </select>
        <p id="contract-employee_id-error" class="field-error" hidden></p>
      </div>
      <details class="new-employee" id="new-employee">
        <summary>Le salarié n'est pas dans la liste ? Ajoutez-le</summary>
        <div class="form-row">
          <div class="field"><label for="new-employee-first">Prénom</label><input id="new-employee-first" type="text" maxlength="100" autocomplete="off"></div>
          <div class="field"><label for="new-employee-last">Nom</label><input id="new-employee-last" type="text" maxlength="100" autocomplete="off"></div>
          <div class="field">
            <label for="new-employee-category">Catégorie <span class="required">(obligatoire)</span></label>
            <select id="new-employee-category" aria-describedby="new-employee-category-hint new-employee-category-error">
              <option value="">Choisissez une catégorie</option>
              <option value="artiste">Artiste</option>
              <option value="technicien">Technicien</option>
              <option value="permanent">Personnel permanent</option>
            </select>
            <p class="hint" id="new-employee-category-hint">Elle décide des cotisations d’un CDDU : un CDDU ne part pas à la signature sans elle.</p>
            <p id="new-employee-category-error" class="field-error" hidden></p>
          </div>
          <div class="field">
            <label for="new-employee-iban">IBAN <span class="muted">(facultatif)</span></label>
            <input id="new-employee-iban" type="text" maxlength="64" autocomplete="off" spellcheck="false" aria-describedby="new-employee-iban-hint new-employee-iban-error">
            <p class="hint" id="new-employee-iban-hint">Pour payer le salaire par virement ; seuls ses 4 derniers caractères seront réaffichés.</p>
            <p id="new-employee-iban-error" class="field-error" hidden></p>
          </div>
          <div class="field field-submit"><button type="button" class="button button-secondary" id="add-employee">Ajouter le salarié</button></div>
        </div>
      </details>
    </fieldset>
    <p id="date-format-hint" class="visually-hidden">Format JJ/MM/AAAA.</p>
    <fieldset class="fieldset">
      <legend>Contrat</legend>
      <div class="form-row">
        <div class="field">
          <label for="contract-kind">Type de contrat <span class="required">(obligatoire)</span></label>
          <select id="contract-kind" name="kind" aria-describedby="contract-kind-error">${options(CONTRACT_KINDS, Object.fromEntries(CONTRACT_KINDS.map((k) => [k, k])), kind)}</select>
          <p id="contract-kind-error" class="field-error" hidden></p>
        </div>
        ${text('contract-job_title', 'job_title', 'Emploi', c?.job_title ?? null, html`maxlength="200"`, 'Par exemple : comédienne, régisseur lumière.')}
        ${text('contract-show_title', 'show_title', 'Objet · spectacle', c?.show_title ?? null, html`maxlength="200"`, 'Obligatoire pour un CDDU.')}
        ${text('contract-idcc', 'idcc', 'IDCC', c?.idcc ?? null, html`maxlength="4" inputmode="numeric" size="6"`, 'Quatre chiffres, par exemple 3090.')}
      </div>
      <div class="form-row">
        ${date('contract-start_date', 'start_date', 'Date de début', c?.start_date ?? null, true)}
        ${date('contract-end_date', 'end_date', 'Date de fin', c?.end_date ?? null, false)}
        ${text('contract-monthly_gross', 'monthly_gross', 'Salaire mensuel brut (€)', c ? amountInput(c.monthly_gross) : null, html`inputmode="decimal"`, 'CDD et CDI seulement.')}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Salaires par date</legend>
      <p class="hint">Dates au format JJ/MM/AAAA, dans la période du contrat. Montants en euros, avec une virgule : 180,50.</p>
      <p class="hint" id="date-lines-quantity-hint">Un artiste est payé en cachets : représentations ou répétitions, la quantité en cachets. Un technicien est payé à l’heure : nature « heures », la quantité en heures rémunérées (la paie en dépend).</p>
      <div class="table-wrap" id="date-lines-wrap"${c?.dates.length ? '' : html` hidden`}><table class="table stack date-lines">
        <caption class="visually-hidden">Salaires par date</caption>
        <thead><tr><th scope="col">Date</th><th scope="col">Nature</th><th scope="col">Quantité</th><th scope="col">Montant brut (€)</th><th scope="col"><span class="visually-hidden">Retirer</span></th></tr></thead>
        <tbody id="date-lines">${(c?.dates ?? []).map((d, i) => dateRow(i, d))}</tbody>
      </table></div>
      <p id="no-lines" class="muted"${c?.dates.length ? html` hidden` : ''}>Aucune date.</p>
      <button type="button" class="button button-secondary" id="add-line">Ajouter une date</button>
      <template id="date-line-template">${dateRow('__N__', null)}</template>
    </fieldset>
    <div class="actions">
      <button type="submit" class="button" id="save-contract">${c ? 'Enregistrer les modifications' : 'Créer le brouillon'}</button>
      <a class="button button-secondary" href="${c ? `/contrats/${c.id}` : '/contrats'}">Annuler</a>
    </div>
  </form>
</div>`;
}
