/**
 * /staff/cotisations: a new contribution call (`POST /api/staff/cotisations`, its refusals next
 * to their field), each call's notification (`POST /api/staff/cotisations/{id}/notifier`; without
 * a notification address, a link to the organization's page) and its payment after a
 * confirmation with its date (`POST /api/staff/cotisations/{id}/paye`). The list is then read
 * again from the server (`refreshSections`).
 */
import { announce, api, setFieldError } from './api.js';
import { dateProblem, fieldMessage } from './field-messages.js';
import { isoFromFr as isoDate, periodFromFr as isoPeriod } from '../../format/calendar-shared.js';
import { setRowResult } from './selection.js';
import { confirmWith, refreshSections } from './session.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('call-form'));
const formStatus = /** @type {HTMLElement} */ (document.getElementById('call-status'));
const callsStatus = /** @type {HTMLElement} */ (document.getElementById('calls-status'));
const org = /** @type {HTMLSelectElement} */ (document.getElementById('call-org'));
const period = /** @type {HTMLInputElement} */ (document.getElementById('call-period'));
const due = /** @type {HTMLInputElement} */ (document.getElementById('call-due'));
const linesError = /** @type {HTMLElement} */ (document.getElementById('call-lines-error'));
const total = /** @type {HTMLElement} */ (document.getElementById('call-total'));
const NBSP = '\u00a0';

/**
 * `1 234,50` or `1234.5` → `1234.50`-like text the API reads; the API has the last word.
 * @param {string} value
 */
function decimal(value) {
  return value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
}

/**
 * Cents → `1 234,50 €`, as the server writes amounts.
 * @param {number} cents
 */
function euros(cents) {
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, NBSP);
  return `${whole},${String(cents % 100).padStart(2, '0')}${NBSP}€`;
}

/** The lines typed: `{ organism, amount }` of each row with an amount. */
function typedLines() {
  const rows = [...form.querySelectorAll('#call-lines tbody tr')];
  return rows
    .map((row) => ({
      organism: /** @type {HTMLInputElement} */ (row.querySelector('[name="organism"]')).value.trim(),
      amount: decimal(/** @type {HTMLInputElement} */ (row.querySelector('[name="amount"]')).value),
      input: /** @type {HTMLInputElement} */ (row.querySelector('[name="amount"]')),
    }))
    .filter((line) => line.amount !== '');
}

function showTotal() {
  let cents = 0;
  for (const line of typedLines()) {
    if (!/^\d+(\.\d{1,2})?$/.test(line.amount)) {
      total.textContent = '—';
      return;
    }
    const [whole, fraction = ''] = line.amount.split('.');
    cents += Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  }
  total.textContent = euros(cents);
}

form.addEventListener('input', showTotal);

/**
 * @param {string} message '' clears it
 * @param {HTMLInputElement[]} [inputs] the fields it is about
 */
function setLinesError(message, inputs = []) {
  linesError.textContent = message;
  linesError.hidden = !message;
  for (const input of form.querySelectorAll('[name="amount"], [name="organism"]')) input.removeAttribute('aria-invalid');
  for (const input of inputs) input.setAttribute('aria-invalid', 'true');
}

/**
 * The field an API refusal names (its `missing_<field>` / `invalid_<field>` codes).
 * @type {Record<string, HTMLInputElement | HTMLSelectElement>}
 */
const FIELD_OF = {
  missing_org_id: org,
  org_not_found: org,
  missing_period: period,
  invalid_period: period,
  missing_due_date: due,
  invalid_date: due,
};

let creating = false;

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (creating) return;
  for (const field of [org, period, due]) setFieldError(field, '');
  setLinesError('');
  const lines = typedLines();
  if (!org.value) {
    setFieldError(org, "Choisissez l'organisation appelée.");
    org.focus();
    return;
  }
  if (!period.value.trim()) {
    setFieldError(period, 'Indiquez la période (MM/AAAA).');
    period.focus();
    return;
  }
  if (!due.value.trim()) {
    setFieldError(due, "Indiquez l'échéance (JJ/MM/AAAA).");
    due.focus();
    return;
  }
  if (lines.length === 0) {
    setLinesError('Indiquez le montant d’au moins un organisme.');
    /** @type {HTMLInputElement} */ (form.querySelector('[name="amount"]')).focus();
    return;
  }
  creating = true;
  form.setAttribute('aria-busy', 'true');
  try {
    const created = await api('POST', '/api/staff/cotisations', {
      org_id: org.value,
      period: isoPeriod(period.value),
      due_date: isoDate(due.value),
      lines: lines.map(({ organism, amount }) => ({ organism, amount })),
    });
    const orgName = org.selectedOptions[0]?.textContent ?? '';
    form.reset();
    showTotal();
    await refreshSections({ address: window.location.pathname + window.location.search });
    const row = document.querySelector(`tr[data-call-id="${CSS.escape(created.id)}"]`);
    setRowResult(row ?? undefined, 'Créé', 'ok');
    announce(
      formStatus,
      `Appel de cotisations créé pour ${orgName} : ${row?.getAttribute('data-period') ?? created.period}, ${row?.getAttribute('data-total') ?? created.total}.`,
      'success',
    );
  } catch (error) {
    const e = /** @type {import('./api.js').ApiError} */ (error);
    const field = FIELD_OF[e.code];
    // Said of what was typed, in the field's format (MM/AAAA, JJ/MM/AAAA).
    const kind = field === period ? 'period' : field === due ? 'date' : 'other';
    const said = field ? fieldMessage({ code: e.code, message: e.message, kind, typed: field.value }) : e.message;
    if (field) {
      setFieldError(field, said);
      field.focus();
    } else if (/^(missing|invalid)_(lines|organism|amount)$/.test(e.code)) {
      const wrong = e.code.endsWith('amount') ? lines.filter((l) => !/^\d+(\.\d{1,2})?$/.test(l.amount)).map((l) => l.input) : [];
      setLinesError(e.message, wrong);
      (wrong[0] ?? /** @type {HTMLInputElement} */ (form.querySelector('[name="amount"]'))).focus();
    }
    announce(formStatus, said, 'error');
  } finally {
    creating = false;
    form.removeAttribute('aria-busy');
  }
});

// ---- each call's notification and payment -----------------------------------------------

const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-paid'));
const paidDate = /** @type {HTMLInputElement} */ (document.getElementById('paid-date'));
const dialogText = /** @type {HTMLElement} */ (document.getElementById('confirm-paid-text'));

/**
 * Reads the list again; the row of `id` then says `text`.
 * @param {string} id @param {string} text @param {'ok' | 'skipped'} kind
 */
async function refreshWith(id, text, kind) {
  await refreshSections({ address: window.location.pathname + window.location.search });
  const row = document.querySelector(`tr[data-call-id="${CSS.escape(id)}"]`);
  setRowResult(row ?? undefined, text, kind);
  return row;
}

/**
 * No notification address: the row says so, with the way to the organization's page.
 * @param {HTMLTableRowElement} row @param {string} message
 */
function noRecipient(row, message) {
  const cell = row?.querySelector('.row-result');
  if (!cell) return;
  const span = document.createElement('span');
  span.className = 'result-skipped';
  span.textContent = 'Non envoyé : aucune adresse de notification. ';
  const link = document.createElement('a');
  link.href = `/staff/organisations/${encodeURIComponent(row.dataset.orgId ?? '')}`;
  link.textContent = `Compléter la fiche ${row.dataset.ofOrgName ?? "de l'organisation"}`;
  cell.replaceChildren(span, link);
  announce(callsStatus, message, 'error');
}

/**
 * Asks for the payment date until it is accepted or the dialog is left; resolves with the answer, or null.
 * @param {HTMLTableRowElement} row
 */
async function askPaid(row) {
  dialogText.textContent = `L'appel ${row.dataset.ofPeriod} ${row.dataset.ofOrgName} (${row.dataset.total}) passera au statut « Payé ». Cela ne peut pas être défait.`;
  setFieldError(paidDate, '');
  for (;;) {
    if (!(await confirmWith(dialog))) return null;
    const problem = dateProblem(paidDate.value);
    if (problem) {
      setFieldError(paidDate, paidDate.value.trim() ? problem : 'Indiquez la date du paiement au format JJ/MM/AAAA.');
      continue;
    }
    try {
      return await api('POST', `/api/staff/cotisations/${encodeURIComponent(row.dataset.callId ?? '')}/paye`, { paid_date: isoDate(paidDate.value) });
    } catch (error) {
      const e = /** @type {import('./api.js').ApiError} */ (error);
      if (e.code !== 'invalid_paid_date') throw e;
      setFieldError(paidDate, fieldMessage({ code: e.code, message: e.message, kind: 'date', typed: paidDate.value }));
    }
  }
}

let busy = false;

document.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button[data-action]');
  if (!(button instanceof HTMLButtonElement) || busy) return;
  const row = /** @type {HTMLTableRowElement} */ (button.closest('tr'));
  const id = button.dataset.id ?? '';
  busy = true;
  button.setAttribute('aria-busy', 'true');
  try {
    if (button.dataset.action === 'notify') {
      try {
        await api('POST', `/api/staff/cotisations/${encodeURIComponent(id)}/notifier`);
      } catch (error) {
        const e = /** @type {import('./api.js').ApiError} */ (error);
        if (e.code === 'no_recipient') return void noRecipient(row, e.message);
        throw e;
      }
      const fresh = await refreshWith(id, 'Notifié', 'ok');
      announce(callsStatus, `Appel ${row.dataset.ofPeriod} notifié à ${row.dataset.orgName} par e-mail.`, 'success');
      /** @type {HTMLElement | null} */ (fresh?.querySelector('button[data-action="paid"]') ?? null)?.focus();
      return;
    }
    const paid = await askPaid(row);
    if (!paid) return void button.focus();
    // Refreshed, the row's actions cell says "Payé le …": no result written under it as well.
    await refreshSections({ address: window.location.pathname + window.location.search });
    announce(callsStatus, `Appel ${row.dataset.ofPeriod} ${row.dataset.ofOrgName} marqué payé le ${paidDate.value.trim()}.`, 'success');
    document.getElementById('calls-title')?.focus();
  } catch (error) {
    setRowResult(row, error instanceof Error ? error.message : String(error), 'skipped');
    announce(callsStatus, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    busy = false;
    button.removeAttribute('aria-busy');
  }
});
