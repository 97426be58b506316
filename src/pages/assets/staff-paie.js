/**
 * /staff/paie: "Calculer" starts the run (`POST /api/staff/paie/calcul`) and the
 * progress bar follows it (`GET /api/staff/paie/runs/{id}`, every half second); once it is
 * finished the page shows it (`?run={id}`: drafts, skipped contracts). A draft's bulletin is
 * downloaded; "Valider" asks first, then `POST /api/staff/paie/valider` and the contribution
 * call made (`?appel={id}`). A payslip typed in (`POST /api/staff/payslips`) with its refusals
 * next to their fields, its PDF attached (`PUT …/pdf`), a payslip cancelled after a confirmation.
 */
import { announce, api, ApiError, download, sendFile, setFieldError } from './api.js';
import { fieldMessage } from './field-messages.js';
import { periodFromFr as isoPeriod } from '../../format/calendar-shared.js';
import { confirmWith, refreshSections } from './session.js';

const POLL_MS = 500;

const runSection = /** @type {HTMLElement | null} */ (document.getElementById('run'));
const runStatus = /** @type {HTMLElement | null} */ (document.getElementById('run-status'));

/**
 * This page's address with some parameters changed (`null` removes one).
 * @param {Record<string, string | null>} changes
 */
function hereWith(changes) {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  return `${window.location.pathname}?${params}`;
}

const contracts = (/** @type {number} */ n) => (n <= 1 ? `${n} contrat` : `${n} contrats`);

/**
 * The bar and its text (the same words as the server's `progressText`).
 * @param {{ status: string, done: number, total: number }} run
 */
function showProgress(run) {
  const box = document.getElementById('run-progress-box');
  const bar = /** @type {HTMLProgressElement | null} */ (document.getElementById('run-progress'));
  const text = document.getElementById('run-progress-text');
  if (!box || !bar || !text) return;
  box.hidden = false;
  const max = Math.max(run.total, 1);
  bar.max = max;
  bar.value = run.status === 'termine' ? max : Math.min(run.done, max);
  bar.textContent = `${bar.value} / ${max}`;
  text.textContent =
    run.status === 'termine'
      ? `Calcul terminé : ${contracts(run.total)} calculé${run.total > 1 ? 's' : ''}.`
      : run.status === 'echoue'
        ? 'Calcul échoué.'
        : run.total === 0
          ? 'Calcul en cours…'
          : `Calcul en cours : ${run.done} sur ${contracts(run.total)}.`;
}

/**
 * Follows a run until it is no longer `en_cours`, then shows the page of its result.
 * @param {string} runId
 */
async function follow(runId) {
  for (;;) {
    let run;
    try {
      run = await api('GET', `/api/staff/paie/runs/${encodeURIComponent(runId)}`);
    } catch (error) {
      if (runStatus) announce(runStatus, error instanceof Error ? error.message : String(error), 'error');
      return;
    }
    showProgress(run);
    if (run.status !== 'en_cours') {
      // The bar at its end a moment, then the drafts.
      await new Promise((resolve) => window.setTimeout(resolve, 400));
      window.location.assign(hereWith({ run: runId, appel: null }));
      return;
    }
    await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
  }
}

let busy = false;

document.getElementById('run-start')?.addEventListener('click', async () => {
  if (busy || !runSection) return;
  busy = true;
  const button = /** @type {HTMLButtonElement} */ (document.getElementById('run-start'));
  button.setAttribute('aria-disabled', 'true');
  try {
    const { run_id } = await api('POST', '/api/staff/paie/calcul', { org_id: runSection.dataset.orgId, period: runSection.dataset.period });
    window.history.replaceState(null, '', hereWith({ run: run_id, appel: null }));
    showProgress({ status: 'en_cours', done: 0, total: 0 });
    if (runStatus) announce(runStatus, 'Calcul lancé.', 'info');
    await follow(run_id);
  } catch (error) {
    if (runStatus) announce(runStatus, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    busy = false;
    button.removeAttribute('aria-disabled');
  }
});

// A page shown while its run is still going on: follow it.
if (runSection?.dataset.runId && runSection.dataset.runStatus === 'en_cours') follow(runSection.dataset.runId);

const created = document.getElementById('call-title');
if (created) created.focus();

document.addEventListener('click', async (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const button = target.closest('button[data-bulletin], button#validate, button[data-cancel]');
  if (!(button instanceof HTMLButtonElement) || busy) return;
  busy = true;
  try {
    if (button.dataset.bulletin) await draftBulletin(button);
    else if (button.id === 'validate') await validate(button);
    else await cancel(button);
  } finally {
    busy = false;
  }
});

/** @param {HTMLButtonElement} button */
async function draftBulletin(button) {
  try {
    await download(
      `/api/staff/paie/brouillons/${encodeURIComponent(button.dataset.bulletin ?? '')}/bulletin.pdf`,
      `brouillon-${button.dataset.name ?? 'bulletin'}.pdf`,
    );
    if (runStatus) announce(runStatus, 'Bulletin en brouillon téléchargé.', 'success');
  } catch (error) {
    if (runStatus) announce(runStatus, error instanceof Error ? error.message : String(error), 'error');
  }
}

const paymentDateInput = /** @type {HTMLInputElement | null} */ (document.getElementById('validate-payment-date'));

/** @param {HTMLButtonElement} button */
async function validate(button) {
  const status = /** @type {HTMLElement} */ (document.getElementById('validate-status'));
  if (!(await confirmWith(/** @type {HTMLDialogElement} */ (document.getElementById('confirm-validate'))))) {
    button.focus();
    return;
  }
  button.setAttribute('aria-disabled', 'true');
  try {
    const ids = (button.dataset.ids ?? '').split(',').filter(Boolean);
    // The day printed on the bulletins as their payment date; empty: the API's default.
    const paymentDate = paymentDateInput?.value || undefined;
    const answer = await api('POST', '/api/staff/paie/valider', {
      org_id: runSection?.dataset.orgId,
      period: runSection?.dataset.period,
      payslip_ids: ids,
      payment_date: paymentDate,
    });
    window.location.assign(hereWith({ appel: answer.contribution_call_id }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    announce(status, message, 'error');
    // Shown in the dialog too, next to the date, for the next try.
    if (error instanceof ApiError && error.code === 'invalid_payment_date' && paymentDateInput) setFieldError(paymentDateInput, message);
    button.removeAttribute('aria-disabled');
  }
}

const payslipsStatus = () => /** @type {HTMLElement} */ (document.getElementById('payslips-status'));

/** @param {HTMLButtonElement} button */
async function cancel(button) {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-cancel-payslip'));
  const text = document.getElementById('confirm-cancel-payslip-text');
  if (text)
    text.textContent = `Le bulletin ${button.dataset.ofName ?? ''} passera au statut « Annulé » : il ne sera plus payé, et un autre pourra être publié à sa place.`;
  if (!(await confirmWith(dialog))) {
    button.focus();
    return;
  }
  try {
    await api('POST', `/api/staff/payslips/${encodeURIComponent(button.dataset.cancel ?? '')}/cancel`);
    await refreshSections({ address: window.location.pathname + window.location.search });
    announce(payslipsStatus(), `Bulletin ${button.dataset.ofName ?? ''} annulé.`, 'success');
    document.getElementById('payslips-title')?.focus();
  } catch (error) {
    announce(payslipsStatus(), error instanceof Error ? error.message : String(error), 'error');
  }
}

// The PDF of a published payslip: chosen with the file button, sent as it is.
document.addEventListener('change', async (event) => {
  const input = /** @type {HTMLInputElement} */ (event.target);
  const upload = input.dataset?.upload;
  const file = input.files?.[0];
  if (!upload || !file) return;
  setFieldError(input, '');
  if (file.size > 10 * 1024 * 1024) {
    setFieldError(input, 'Fichier trop volumineux : 10 Mo au plus.');
    return;
  }
  if (file.type && file.type !== 'application/pdf') {
    setFieldError(input, 'Seuls les fichiers PDF sont acceptés.');
    return;
  }
  try {
    await sendFile('PUT', `/api/staff/payslips/${encodeURIComponent(upload)}/pdf`, file, 'application/pdf');
    await refreshSections({ address: window.location.pathname + window.location.search });
    announce(payslipsStatus(), `PDF « ${file.name} » joint au bulletin.`, 'success');
  } catch (error) {
    setFieldError(input, error instanceof Error ? error.message : String(error));
  }
});

// ---- A payslip typed in.

/**
 * `2 700,50` or `2700.5` → `2700.50`; null when it is not an amount.
 * @param {string} value @returns {string | null}
 */
export function amountOf(value) {
  const text = value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [units, cents = ''] = text.split('.');
  return `${units}.${cents.padEnd(2, '0')}`;
}

/**
 * Which field an API refusal of `POST /api/staff/payslips` is about.
 * @type {Record<string, string>}
 */
const FIELD_OF = {
  missing_employee_id: 'payslip-employee',
  invalid_employee_id: 'payslip-employee',
  payslip_exists: 'payslip-employee',
  missing_period: 'payslip-period',
  invalid_period: 'payslip-period',
  missing_gross: 'payslip-gross',
  invalid_amount: 'payslip-gross',
  missing_net_to_pay: 'payslip-net',
  invalid_net_to_pay: 'payslip-net',
};

document.getElementById('payslip-form')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const status = /** @type {HTMLElement} */ (document.getElementById('payslip-status'));
  const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  const employeeSelect = /** @type {HTMLSelectElement} */ (document.getElementById('payslip-employee'));
  const ids = ['payslip-employee', 'payslip-period', 'payslip-gross', 'payslip-net'];
  for (const id of ids) setFieldError(field(id), '');
  /** @type {Array<[id: string, message: string]>} */
  const problems = [];
  const employee = field('payslip-employee').value;
  if (!employee) problems.push(['payslip-employee', 'Choisissez le salarié.']);
  const period = field('payslip-period').value.trim();
  if (!period) problems.push(['payslip-period', 'Indiquez la période (MM/AAAA).']);
  const gross = amountOf(field('payslip-gross').value);
  if (gross === null) problems.push(['payslip-gross', 'Indiquez le salaire brut en euros, par exemple 2 700,00.']);
  const net = amountOf(field('payslip-net').value);
  if (net === null) problems.push(['payslip-net', 'Indiquez le net à payer en euros, par exemple 2 104,50.']);
  const [first] = problems;
  if (first) {
    for (const [id, message] of problems) setFieldError(field(id), message);
    field(first[0]).focus();
    announce(status, 'Le bulletin n’a pas été publié : corrigez les champs signalés.', 'error');
    return;
  }
  if (busy) return;
  // Published, it is final and the organization sees it: said with its figures, then confirmed.
  const who = employeeSelect.selectedOptions[0]?.textContent ?? '';
  const publish = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-publish'));
  const text = document.getElementById('confirm-publish-text');
  if (text)
    text.textContent = `${who}, ${period} : brut ${field('payslip-gross').value.trim()} €, net à payer ${field('payslip-net').value.trim()} €. Publié, le bulletin est visible par l'organisation et ne peut plus être modifié (seulement annulé).`;
  if (!(await confirmWith(publish))) {
    document.getElementById('payslip-submit')?.focus();
    return;
  }
  busy = true;
  try {
    await api('POST', '/api/staff/payslips', { org_id: form.dataset.orgId, employee_id: employee, period: isoPeriod(period), gross, net_to_pay: net });
    const name = employeeSelect.selectedOptions[0]?.textContent ?? '';
    form.reset();
    field('payslip-period').value = period;
    await refreshSections({ address: window.location.pathname + window.location.search });
    announce(status, `Bulletin publié : ${name}, ${period}.`, 'success');
  } catch (error) {
    const e = /** @type {import('./api.js').ApiError} */ (error);
    const id = FIELD_OF[e.code];
    // A period said of what was typed, in MM/AAAA.
    const said = id === 'payslip-period' ? fieldMessage({ code: e.code, message: e.message, kind: 'period', typed: field(id).value }) : e.message;
    if (id) {
      setFieldError(field(id), said);
      field(id).focus();
    }
    announce(status, said, 'error');
  } finally {
    busy = false;
  }
});
