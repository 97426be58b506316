/**
 * /staff/virements: the selection of payslips (one organization per batch, as the API's 400
 * `mixed_organizations` says), the batch (`POST /api/staff/virements`; the page then shows it
 * with `?lot={id}`), the SEPA files, and each batch's "executed" and "cancel".
 */
import { announce, api, download, setFieldError } from './api.js';
import { addMonths, formatPeriodFr, frDate, isoFromFr as isoDate } from '../../format/calendar-shared.js';
import { fieldMessage } from './field-messages.js';
import { plural, setRowResult, wireSelection } from './selection.js';
import { confirmWith, refreshSections } from './session.js';

const status = /** @type {HTMLElement} */ (document.getElementById('transfer-status'));
const batchesStatus = /** @type {HTMLElement} */ (document.getElementById('batches-status'));

/**
 * The organizations of some rows, by id.
 * @param {HTMLElement[]} rows
 */
function orgsOf(rows) {
  return new Map(rows.map((row) => [row.dataset.orgId, row.dataset.orgName]));
}

const selection = wireSelection((checked) => {
  const count = document.getElementById('selection-count');
  if (!count) return;
  const rows = checked.map((box) => /** @type {HTMLElement} */ (box.closest('tr')));
  const orgs = orgsOf(rows);
  count.textContent =
    rows.length === 0
      ? 'Aucun bulletin sélectionné.'
      : orgs.size === 1
        ? `${plural(rows.length, 'bulletin sélectionné', 'bulletins sélectionnés')} (${[...orgs.values()][0]}).`
        : `${plural(rows.length, 'bulletin sélectionné', 'bulletins sélectionnés')}, de ${orgs.size} organisations : un lot n'en concerne qu'une.`;
});

const created = document.getElementById('created-title');
if (created) created.focus();

document.addEventListener('submit', async (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (form.id !== 'transfer-form') return;
  event.preventDefault();
  const rows = selection.selectedRows();
  const date = /** @type {HTMLInputElement} */ (document.getElementById('execution-date'));
  setFieldError(date, '');
  if (rows.length === 0) {
    announce(status, 'Sélectionnez au moins un bulletin.', 'error');
    return;
  }
  const orgs = orgsOf(rows);
  if (orgs.size > 1) {
    announce(
      status,
      `Un lot de virements ne concerne qu'une organisation : la sélection en compte ${orgs.size} (${[...orgs.values()].join(', ')}). Décochez les bulletins des autres, ou filtrez par organisation.`,
      'error',
    );
    return;
  }
  if (!date.value.trim()) {
    setFieldError(date, "Indiquez la date d'exécution (JJ/MM/AAAA).");
    date.focus();
    return;
  }
  // A date far from the months paid is most often a typing slip: said, and confirmed or corrected.
  // (A past date is left to the API, which says why it is refused.)
  const iso = isoDate(date.value);
  const doubt =
    iso >= (date.dataset.today ?? '')
      ? dateDoubt(
          iso,
          rows.map((row) => row.dataset.period ?? ''),
        )
      : '';
  if (doubt) {
    const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-date'));
    const text = document.getElementById('confirm-date-text');
    if (text) text.textContent = doubt;
    if (!(await confirmWith(dialog))) {
      setFieldError(date, doubt);
      date.focus();
      return;
    }
  }
  try {
    const batch = await api('POST', '/api/staff/virements', { payslip_ids: rows.map((row) => row.dataset.payslipId), execution_date: isoDate(date.value) });
    const params = new URLSearchParams(window.location.search);
    params.delete('cursor');
    params.set('lot', batch.id);
    window.location.assign(`/staff/virements?${params}`);
  } catch (error) {
    const e = /** @type {import('./api.js').ApiError} */ (error);
    let said = e.message;
    if (e.code === 'invalid_execution_date' || e.code === 'missing_execution_date') {
      // Said of what was typed: a day that does not exist, one in the past, one too far ahead.
      said = fieldMessage({ code: e.code, message: e.message, kind: 'execution_date', typed: date.value, today: date.dataset.today });
      setFieldError(date, said);
      date.focus();
    }
    if (e.code === 'payslip_unavailable' && Array.isArray(e.body?.payslip_ids)) {
      const refused = new Set(e.body.payslip_ids.map((id) => String(id).toLowerCase()));
      for (const row of rows) if (refused.has(String(row.dataset.payslipId))) setRowResult(row, 'Indisponible', 'skipped');
    }
    if (e.code === 'creditor_name_unwritable' && Array.isArray(e.body?.payslip_ids)) {
      const refused = new Set(e.body.payslip_ids.map((id) => String(id).toLowerCase()));
      for (const row of rows) if (refused.has(String(row.dataset.payslipId))) setRowResult(row, 'Nom du salarié à corriger', 'skipped');
    }
    announce(status, said, 'error');
  }
});

/**
 * The first day of the month `months` after `period`: `('2027-01', 2)` → `2027-03-01`.
 * @param {string} period @param {number} months
 */
function monthStart(period, months) {
  return `${addMonths(period, months)}-01`;
}

/**
 * Why a batch dated `iso` looks wrong for the months it pays, or '': before the latest month
 * has begun (salaries not yet earned), or past the end of the month after the earliest (salaries
 * paid late). Only asked, never refused: staff know of advances and late payments.
 * @param {string} iso @param {string[]} periods @returns {string}
 */
export function dateDoubt(iso, periods) {
  const months = periods.filter((p) => /^\d{4}-\d{2}$/.test(p)).sort();
  const earliest = months[0];
  const latest = months[months.length - 1];
  if (earliest === undefined || latest === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return '';
  if (iso < monthStart(latest, 0)) {
    return `Ces bulletins paient ${formatPeriodFr(latest)} : une exécution le ${frDate(iso)} paierait ces salaires avant le début du mois. Vérifiez la date, ou la période des bulletins.`;
  }
  if (iso >= monthStart(earliest, 2)) {
    return `Ces bulletins paient ${formatPeriodFr(earliest)} : une exécution le ${frDate(iso)} paierait ces salaires plus d'un mois après la fin du mois. Vérifiez la date.`;
  }
  return '';
}

let busy = false;

document.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button[data-sepa], button[data-action]');
  if (!(button instanceof HTMLButtonElement) || busy) return;
  const reference = button.dataset.reference ?? '';
  const region = button.closest('#created') ? /** @type {HTMLElement} */ (document.getElementById('created-status')) : batchesStatus;
  busy = true;
  try {
    if (button.dataset.sepa) {
      await download(`/api/staff/virements/${encodeURIComponent(button.dataset.sepa)}/sepa.xml`, `${reference}.xml`);
      announce(region, `Fichier ${reference}.xml téléchargé : remettez-le à la banque.`, 'success');
      return;
    }
    const executed = button.dataset.action === 'executed';
    const dialog = document.getElementById(executed ? 'confirm-executed' : 'confirm-cancel');
    if (!(await confirmWith(/** @type {HTMLDialogElement} */ (dialog)))) {
      button.focus();
      return;
    }
    const dateError = document.getElementById(`executed-error-${button.dataset.id}`);
    if (dateError) {
      dateError.textContent = '';
      dateError.hidden = true;
    }
    try {
      await api('POST', `/api/staff/virements/${encodeURIComponent(button.dataset.id ?? '')}/${executed ? 'executed' : 'cancel'}`);
    } catch (error) {
      // Before its execution date: said once, next to the batch's date, where the focus goes.
      const e = /** @type {import('./api.js').ApiError} */ (error);
      if (e.code === 'execution_date_in_future' && dateError) {
        dateError.textContent = e.message;
        dateError.hidden = false;
        button.focus();
        return;
      }
      throw error;
    }
    await refreshSections({ address: window.location.pathname + window.location.search });
    announce(batchesStatus, executed ? `Lot ${reference} marqué exécuté.` : `Lot ${reference} annulé : ses bulletins sont de nouveau à payer.`, 'success');
    document.getElementById('batches-title')?.focus();
  } catch (error) {
    announce(region, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    busy = false;
  }
});
