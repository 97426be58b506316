/**
 * The draft's form (/contrats/nouveau, /contrats/{id}/modifier): the lines of salaries by
 * date, an employee added on the spot, and the draft sent to the API (`POST` or `PATCH
 * /api/contrats`). The API checks everything; its refusal is shown next to the field it names.
 */
import { announce, api, ApiError } from './api.js';
import { isoFromFr as isoDate, nextDayFr } from '../../format/calendar-shared.js';
import { fieldMessage, isoOfTyped } from './field-messages.js';
import './session.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('contract-form'));
const status = /** @type {HTMLElement} */ (document.getElementById('status'));
const lines = /** @type {HTMLTableSectionElement} */ (document.getElementById('date-lines'));
const template = /** @type {HTMLTemplateElement} */ (document.getElementById('date-line-template'));
const noLines = /** @type {HTMLElement} */ (document.getElementById('no-lines'));
// A table without rows is no table (WCAG 1.3.1): hidden while the contract has no date.
const linesWrap = /** @type {HTMLElement} */ (document.getElementById('date-lines-wrap'));
const kind = /** @type {HTMLSelectElement} */ (document.getElementById('contract-kind'));
const mode = form.dataset.mode;
const contractId = form.dataset.contractId || '';

/**
 * `1 234,50` or `1234.5` → `1234.50`-like text the API reads; the API has the last word.
 * @param {string} value
 */
function decimal(value) {
  return value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
}

// ---- the lines -----------------------------------------------------------------------

let counter = lines.rows.length;

/** Gives the lines' fields ids and labels that follow their order (`Date de la ligne 2`). */
function renumber() {
  [...lines.rows].forEach((row, index) => {
    const n = String(index + 1);
    for (const label of row.querySelectorAll('label')) {
      const input = row.querySelector(`#${CSS.escape(label.htmlFor)}`);
      const name = input?.getAttribute('name') ?? '';
      const newId = `line-${name}-${n}`;
      label.textContent = label.textContent.replace(/\d+|__N__/, n);
      label.htmlFor = newId;
      if (input) {
        // The field's error box follows it (`<id>-error`), and so does its aria-describedby.
        const box = row.querySelector(`#${CSS.escape(`${input.id}-error`)}`);
        if (box) box.id = `${newId}-error`;
        const hints = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && !id.endsWith('-error'));
        input.setAttribute('aria-describedby', [...hints, `${newId}-error`].join(' '));
        input.id = newId;
      }
    }
    const hidden = row.querySelector('[data-remove-line] .visually-hidden');
    if (hidden) hidden.textContent = ` la ligne ${n}`;
  });
  noLines.hidden = lines.rows.length > 0;
  linesWrap.hidden = lines.rows.length === 0;
}

function addLine() {
  counter += 1;
  const fragment = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
  for (const element of fragment.querySelectorAll('[id], [for]')) {
    if (element.id) element.id = element.id.replace('__N__', `new${counter}`);
    const described = element.getAttribute('aria-describedby');
    if (described) element.setAttribute('aria-describedby', described.replaceAll('__N__', `new${counter}`));
    if (element instanceof HTMLLabelElement) element.htmlFor = element.htmlFor.replace('__N__', `new${counter}`);
  }
  // The first line starts on the contract's first day; each next one the day after the line
  // before it (a run of performances), never past the contract's last day.
  const start = /** @type {HTMLInputElement} */ (form.elements.namedItem('start_date')).value;
  const end = /** @type {HTMLInputElement | null} */ (form.elements.namedItem('end_date'))?.value ?? '';
  const previous = /** @type {HTMLInputElement | null | undefined} */ (lines.rows[lines.rows.length - 1]?.querySelector('input[name="date"]'))?.value ?? '';
  const following = previous ? nextDayFr(previous) : null;
  const pastEnd = following && nextDayFr(end) !== null && isoDate(following) > isoDate(end);
  const dateInput = /** @type {HTMLInputElement} */ (fragment.querySelector('input[name="date"]'));
  const suggested = following ? (pastEnd ? end.trim() : following) : start;
  if (suggested) dateInput.value = suggested;
  // A technician is paid by the hour: the payroll counts the hours of each date.
  const chosen = employeeSelect.selectedOptions[0];
  if (chosen?.dataset.category && chosen.dataset.category !== 'artiste') {
    /** @type {HTMLSelectElement} */ (fragment.querySelector('select[name="nature"]')).value = 'heures';
  }
  lines.append(fragment);
  renumber();
  const added = /** @type {HTMLInputElement} */ (lines.rows[lines.rows.length - 1]?.querySelector('input[name="date"]'));
  added.focus();
  added.select(); // typing replaces the suggested date
}

document.getElementById('add-line')?.addEventListener('click', addLine);

lines.addEventListener('click', (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('[data-remove-line]');
  if (!button) return;
  const row = /** @type {HTMLTableRowElement} */ (button.closest('tr'));
  const next = row.nextElementSibling ?? row.previousElementSibling;
  row.remove();
  renumber();
  const focus = next?.querySelector('[data-remove-line]') ?? document.getElementById('add-line');
  /** @type {HTMLElement} */ (focus).focus();
  announce(status, 'Ligne retirée.');
});

// ---- the kind decides which fields apply -------------------------------------------------

function applyKind() {
  const value = kind.value;
  const end = /** @type {HTMLElement} */ (form.querySelector('[data-field="end_date"]'));
  end.hidden = value === 'CDI';
  const monthly = /** @type {HTMLElement} */ (document.getElementById('contract-monthly_gross')?.closest('.field'));
  monthly.hidden = value === 'CDDU';
}
kind.addEventListener('change', applyKind);
applyKind();

// ---- an employee added on the spot -----------------------------------------------------

const employeeSelect = /** @type {HTMLSelectElement} */ (document.getElementById('contract-employee_id'));
document.getElementById('add-employee')?.addEventListener('click', async () => {
  const first = /** @type {HTMLInputElement} */ (document.getElementById('new-employee-first'));
  const last = /** @type {HTMLInputElement} */ (document.getElementById('new-employee-last'));
  const iban = /** @type {HTMLInputElement} */ (document.getElementById('new-employee-iban'));
  const ibanError = /** @type {HTMLElement} */ (document.getElementById('new-employee-iban-error'));
  const category = /** @type {HTMLSelectElement} */ (document.getElementById('new-employee-category'));
  const categoryError = /** @type {HTMLElement} */ (document.getElementById('new-employee-category-error'));
  for (const [input, error] of /** @type {Array<[HTMLElement, HTMLElement]>} */ ([
    [iban, ibanError],
    [category, categoryError],
  ])) {
    input.removeAttribute('aria-invalid');
    error.textContent = '';
    error.hidden = true;
  }
  // The category decides a CDDU's contributions: asked here, where the employee is made.
  if (!category.value) {
    category.setAttribute('aria-invalid', 'true');
    categoryError.textContent = 'Choisissez la catégorie du salarié (artiste, technicien ou personnel permanent).';
    categoryError.hidden = false;
    category.focus();
    return;
  }
  try {
    const typedIban = iban.value.trim();
    const employee = await api('POST', '/api/salaries', {
      first_name: first.value.trim(),
      last_name: last.value.trim(),
      category: category.value,
      ...(typedIban ? { iban: typedIban } : {}),
    });
    const option = new Option(`${employee.last_name} ${employee.first_name}`, employee.id, true, true);
    option.dataset.category = employee.category ?? '';
    employeeSelect.append(option);
    first.value = '';
    last.value = '';
    iban.value = '';
    category.value = '';
    /** @type {HTMLDetailsElement} */ (document.getElementById('new-employee')).open = false;
    clearErrors();
    announce(status, `${employee.first_name} ${employee.last_name} ajouté(e) et choisi(e) pour ce contrat.`, 'success');
    employeeSelect.focus();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    announce(status, message, 'error');
    if (error instanceof ApiError && error.code === 'invalid_iban') {
      // The refusal next to the IBAN field (invalid, or outside the SEPA zone).
      iban.setAttribute('aria-invalid', 'true');
      ibanError.textContent = message;
      ibanError.hidden = false;
      iban.focus();
      return;
    }
    (error instanceof ApiError && error.code.endsWith('first_name') ? first : last).focus();
  }
});

// ---- sending ---------------------------------------------------------------------------

function clearErrors() {
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('.field-error'))) {
    box.textContent = '';
    box.hidden = true;
  }
}

/** The contract's period as typed (ISO), for a line's date refused outside it. */
function typedPeriod() {
  const end = kind.value === 'CDI' ? '' : fieldValue('end_date');
  return { start_date: isoOfTyped(fieldValue('start_date')) ?? '', end_date: end ? isoOfTyped(end) : null };
}

/**
 * Marks the field an API refusal names, says what is wrong with what was typed there
 * (`field-messages.js`), and focuses it: the API's `field` (`dates[2].date`: the third line's
 * date, `start_date`), else the field its code names (`missing_show_title` → Objet). Returns
 * the message for the status region, with the line it is on.
 * @param {ApiError} error
 */
function showFieldError(error) {
  const { code, message } = error;
  const named = typeof error.body?.field === 'string' ? error.body.field : '';
  const line = /^dates\[(\d+)\]\.(date|nature|quantity|amount)$/.exec(named);
  const field = line?.[2] ?? (named || code.replace(/^(missing|invalid)_/, ''));
  /** @type {HTMLInputElement | null} */
  let input = line
    ? (lines.rows[Number(line[1])]?.querySelector(`[name="${field}"]`) ?? null)
    : /** @type {HTMLInputElement | null} */ (document.getElementById(`contract-${field}`));
  // A line's field left empty, from an API that did not name the line: the first such line.
  if (!input && code.startsWith('missing_') && ['date', 'nature', 'quantity', 'amount'].includes(field)) {
    input = /** @type {HTMLInputElement[]} */ ([...lines.querySelectorAll(`[name="${field}"]`)]).find((element) => !element.value.trim()) ?? null;
  }
  if (!input) return message;
  const kindOf = line && field === 'date' ? 'contract_date' : field === 'start_date' || field === 'end_date' ? 'date' : 'other';
  const said = fieldMessage({ code, message, kind: kindOf, typed: input.value, period: typedPeriod() });
  input.setAttribute('aria-invalid', 'true');
  const box = document.getElementById(`${input.id}-error`);
  if (box) {
    box.textContent = said;
    box.hidden = false;
  }
  input.focus();
  return line ? `Ligne ${Number(line[1]) + 1} : ${said}` : said;
}

/** @param {string} name */
function fieldValue(name) {
  const element = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name));
  return element ? element.value.trim() : '';
}

function body() {
  const value = kind.value;
  const optional = (/** @type {string} */ name) => fieldValue(name) || null;
  return {
    employee_id: fieldValue('employee_id') || undefined,
    kind: value,
    job_title: optional('job_title'),
    show_title: optional('show_title'),
    idcc: optional('idcc'),
    start_date: isoDate(fieldValue('start_date')) || undefined,
    end_date: value === 'CDI' || !fieldValue('end_date') ? null : isoDate(fieldValue('end_date')),
    monthly_gross: value === 'CDDU' || !fieldValue('monthly_gross') ? null : decimal(fieldValue('monthly_gross')),
    dates: [...lines.rows].map((row) => {
      const get = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (row.querySelector(`[name="${name}"]`)).value.trim();
      return { date: isoDate(get('date')), nature: get('nature'), quantity: decimal(get('quantity')), amount: decimal(get('amount')) };
    }),
  };
}

let busy = false;
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (busy) return;
  busy = true;
  form.setAttribute('aria-busy', 'true');
  clearErrors();
  try {
    const saved = mode === 'edit' ? await api('PATCH', `/api/contrats/${encodeURIComponent(contractId)}`, body()) : await api('POST', '/api/contrats', body());
    window.location.assign(`/contrats/${encodeURIComponent(saved.id)}?${mode === 'edit' ? 'modifie' : 'cree'}=1`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    announce(status, error instanceof ApiError ? showFieldError(error) : message, 'error');
    busy = false;
    form.removeAttribute('aria-busy');
  }
});
