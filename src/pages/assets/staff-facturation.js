/**
 * /staff/facturation: the selection, the bulk notification (`POST
 * /api/staff/facturation/bulk-notify`) with its result written next to each invoice and
 * summed up under the button. Each invoice's PDF: `pdf-button.js`. Then the month's
 * invoices for the organizations checked, their numbers shown once created, and a credit note
 * of an invoice; each refusal next to its field.
 */
import { announce, api, setFieldError } from './api.js';
import { dateProblem, fieldMessage } from './field-messages.js';
import { isoFromFr as isoDate } from '../../format/calendar-shared.js';
import './pdf-button.js';
import { plural, setRowResult, wireSelection } from './selection.js';
import { confirmWith, refreshSections } from './session.js';

/**
 * Why an invoice was not sent.
 * @type {Record<string, string>}
 */
const REASONS = {
  not_found: 'facture introuvable',
  no_recipient: 'aucune adresse de notification',
  already_notified: 'déjà notifiée',
};

/**
 * Turns `reason` at the end of `place`'s text into a link to the organization's page (`/staff/organisations/{id}`).
 * @param {Element} place @param {string} reason @param {string} orgId
 */
function linkReason(place, reason, orgId) {
  const text = place.textContent ?? '';
  const link = document.createElement('a');
  link.href = `/staff/organisations/${encodeURIComponent(orgId)}`;
  link.textContent = reason;
  place.replaceChildren(text.slice(0, text.length - reason.length), link);
}

// Looked up when used: the list is read again (`refreshSections`) after a creation.
const byId = (/** @type {string} */ id) => document.getElementById(id);

const selection = wireSelection((checked) => {
  const count = byId('selection-count');
  if (count)
    count.textContent = checked.length === 0 ? 'Aucune facture sélectionnée.' : `${plural(checked.length, 'facture sélectionnée', 'factures sélectionnées')}.`;
});

/** Today in the operator's calendar, as the server writes it (`23/11/2026`). */
const today = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

let busy = false;

document.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('#notify-selected');
  if (!(button instanceof HTMLButtonElement)) return;
  const status = /** @type {HTMLElement} */ (byId('notify-status'));
  const details = byId('notify-details');
  const force = /** @type {HTMLInputElement | null} */ (byId('notify-force'));
  const rows = selection.selectedRows();
  if (rows.length === 0) {
    announce(status, 'Sélectionnez au moins une facture.', 'error');
    return;
  }
  if (busy) return;
  busy = true;
  button.setAttribute('aria-disabled', 'true');
  const rowOf = new Map(rows.map((row) => [row.dataset.invoiceId, row]));
  try {
    const answer = await api('POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [...rowOf.keys()], force: Boolean(force?.checked) });
    for (const id of answer.notified) {
      const row = rowOf.get(id);
      setRowResult(row, 'Notifiée', 'ok');
      const cell = row?.querySelector('.notified');
      if (cell) cell.textContent = `Oui, le ${today()}`;
    }
    // Its document is still being made: the e-mail leaves once it exists.
    for (const id of answer.waiting ?? []) setRowResult(rowOf.get(id), 'Envoi dès que le document est prêt', 'ok');
    details?.replaceChildren(
      ...answer.skipped.map((/** @type {{ id: string, reason: string }} */ skip) => {
        const row = rowOf.get(skip.id);
        const reason = REASONS[skip.reason] ?? skip.reason;
        setRowResult(row, `Non envoyée : ${reason}`, 'skipped');
        const item = document.createElement('li');
        item.className = 'result-skipped';
        item.textContent = `${row?.dataset.number ?? skip.id} : ${reason}`;
        // No address: the reason leads to the organization's page, where staff add one.
        if (skip.reason === 'no_recipient' && row?.dataset.orgId) {
          for (const place of [row.querySelector('.row-result span'), item]) if (place) linkReason(place, reason, row.dataset.orgId);
        }
        return item;
      }),
    );
    selection.clear();
    const sent = answer.notified.length === 0 ? 'Aucune facture notifiée' : plural(answer.notified.length, 'facture notifiée', 'factures notifiées');
    const waiting =
      (answer.waiting ?? []).length === 0
        ? ''
        : `, ${plural(answer.waiting.length, 'envoyée dès que son document est prêt', 'envoyées dès que leur document est prêt')}`;
    const skipped = answer.skipped.length === 0 ? '' : `, ${plural(answer.skipped.length, 'non envoyée', 'non envoyées')}`;
    announce(status, `${sent}${waiting}${skipped}.`, answer.skipped.length === 0 ? 'success' : 'info');
  } catch (error) {
    announce(status, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    busy = false;
    button.removeAttribute('aria-disabled');
  }
});

// ---- The month's invoices (`POST /api/staff/facturation/bulk-create`) ----------

const NBSP = '\u00a0';

/**
 * `1 234,50` or `1234.5` → `1234.50`-like text the API reads; the API has the last word.
 * @param {string} value
 */
function decimal(value) {
  return value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
}

/**
 * `"1234.5"` → `1 234,50 €`, as the server writes amounts.
 * @param {string} value
 */
function euros(value) {
  const [whole = '', fraction = ''] = String(value).split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, NBSP)},${fraction.padEnd(2, '0')}${NBSP}€`;
}

/**
 * Whether `JJ/MM/AAAA` is a day of the calendar.
 * @param {string} value
 */
function realDate(value) {
  const iso = isoDate(value);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === iso;
}

/**
 * A message next to a box that is not an input (a fieldset's), or none.
 * @param {string} id @param {string} message
 */
function setBoxError(id, message) {
  const box = document.getElementById(id);
  if (!box) return;
  box.textContent = message;
  box.hidden = !message;
}

const createForm = /** @type {HTMLFormElement | null} */ (document.getElementById('create-form'));
const lineRows = /** @type {HTMLTableSectionElement | null} */ (document.getElementById('invoice-lines'));
const lineTemplate = /** @type {HTMLTemplateElement | null} */ (document.getElementById('invoice-line-template'));
const createStatus = /** @type {HTMLElement | null} */ (document.getElementById('create-status'));
const createdList = document.getElementById('created-invoices');
const createField = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** Numbers the lines' fields and labels in their order (`Quantité de la ligne 2`). */
function renumberLines() {
  if (!lineRows) return;
  [...lineRows.rows].forEach((row, index) => {
    const n = String(index + 1);
    for (const label of row.querySelectorAll('label')) {
      const input = row.querySelector(`#${CSS.escape(label.htmlFor)}`);
      const id = `line-${input?.getAttribute('name') ?? ''}-${n}`;
      label.textContent = label.textContent.replace(/ligne (\d+|__N__)/, `ligne ${n}`);
      label.htmlFor = id;
      if (input) input.id = id;
    }
    const hidden = row.querySelector('[data-remove-line] .visually-hidden');
    if (hidden) hidden.textContent = ` la ligne ${n}`;
    /** @type {HTMLButtonElement} */ (row.querySelector('[data-remove-line]')).hidden = lineRows.rows.length === 1;
  });
}
renumberLines();

document.getElementById('add-invoice-line')?.addEventListener('click', () => {
  if (!lineRows || !lineTemplate) return;
  lineRows.append(/** @type {DocumentFragment} */ (lineTemplate.content.cloneNode(true)));
  renumberLines();
  /** @type {HTMLInputElement | null | undefined} */ (lineRows.rows[lineRows.rows.length - 1]?.querySelector('input[name="label"]'))?.focus();
});

lineRows?.addEventListener('click', (event) => {
  const remove = /** @type {HTMLElement} */ (event.target).closest('[data-remove-line]');
  if (!remove || lineRows.rows.length === 1) return;
  const row = /** @type {HTMLTableRowElement} */ (remove.closest('tr'));
  const index = row.sectionRowIndex;
  row.remove();
  renumberLines();
  /** @type {HTMLInputElement | null | undefined} */ (lineRows.rows[Math.min(index, lineRows.rows.length - 1)]?.querySelector('input[name="label"]'))?.focus();
});

/**
 * The field an API refusal of the header names.
 * @type {Record<string, string>}
 */
const CREATE_FIELDS = {
  missing_invoice_type: 'create-type',
  invalid_invoice_type: 'create-type',
  missing_payment_method: 'create-method',
  invalid_payment_method: 'create-method',
  invalid_period_label: 'create-period',
  invalid_issue_date: 'create-issue',
  issue_date_before_last: 'create-issue',
  invalid_due_date: 'create-due',
};
/** @type {Record<string, string>} */
const LINE_FIELDS = { label: 'label', quantity: 'quantity', unit_price: 'unit_price', vat_rate: 'vat_rate', amount: 'unit_price' };

function clearCreateErrors() {
  for (const id of ['create-type', 'create-method', 'create-period', 'create-issue', 'create-due']) setFieldError(createField(id), '');
  setBoxError('create-orgs-error', '');
  setBoxError('create-lines-error', '');
  for (const input of lineRows?.querySelectorAll('[aria-invalid]') ?? []) input.removeAttribute('aria-invalid');
}

/**
 * A refusal of a line (`invoices[0].lines[1] : La quantité n'est pas valide.`): "Ligne 2 : …" next to the lines, the field marked.
 * @param {string} code @param {string} message
 */
function lineError(code, message) {
  const at = /lines\[(\d+)\]/.exec(message);
  const text = message.replace(/^invoices\[\d+\](\.lines\[\d+\])?\s*:\s*/, '');
  const row = at ? lineRows?.rows[Number(at[1])] : undefined;
  const name = LINE_FIELDS[code.replace(/^(missing|invalid)_/, '')];
  const input = row && name ? /** @type {HTMLInputElement | null} */ (row.querySelector(`[name="${name}"]`)) : null;
  setBoxError('create-lines-error', at ? `Ligne ${Number(at[1]) + 1} : ${text}` : text);
  input?.setAttribute('aria-invalid', 'true');
  input?.focus();
}

/**
 * Once created, the form is emptied (no organization checked, one blank line, no label): what
 * was just invoiced cannot be sent again by a second click. The issue date stays.
 */
function resetCreateForm() {
  if (!createForm || !lineRows || !lineTemplate) return;
  for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (createForm.querySelectorAll('input.org-choice'))) box.checked = false;
  for (const id of ['create-period', 'create-due']) createField(id).value = '';
  lineRows.replaceChildren(/** @type {DocumentFragment} */ (lineTemplate.content.cloneNode(true)));
  renumberLines();
  document.getElementById('proposal-summary')?.remove();
  // A reload must not propose (and check) the month just invoiced again.
  const address = new URL(window.location.href);
  if (address.searchParams.has('paie')) {
    address.searchParams.delete('paie');
    window.history.replaceState(null, '', address);
  }
}

let creating = false;

createForm?.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (creating || !createStatus) return;
  clearCreateErrors();
  const chosen = /** @type {HTMLInputElement[]} */ ([...createForm.querySelectorAll('input.org-choice:checked')]);
  if (chosen.length === 0) {
    setBoxError('create-orgs-error', 'Cochez au moins une organisation.');
    /** @type {HTMLInputElement | null} */ (createForm.querySelector('input.org-choice'))?.focus();
    announce(createStatus, 'Cochez au moins une organisation.', 'error');
    return;
  }
  const issue = createField('create-issue');
  const due = createField('create-due');
  for (const input of [issue, due]) {
    const problem = input.value.trim() ? dateProblem(input.value) : '';
    if (problem) {
      setFieldError(input, problem);
      input.focus();
      return;
    }
  }
  const rows = [...(lineRows?.rows ?? [])];
  const lineOf = (/** @type {HTMLTableRowElement} */ row) => {
    const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (row.querySelector(`[name="${name}"]`)).value.trim();
    return { label: value('label'), quantity: decimal(value('quantity')), unit_price: decimal(value('unit_price')), vat_rate: value('vat_rate') };
  };
  // The line of the month's bulletins counts each organization's own; one without any has none.
  const linesFor = (/** @type {HTMLInputElement} */ box) =>
    rows.flatMap((row) => {
      if (!row.hasAttribute('data-per-payslip')) return [lineOf(row)];
      const count = Number(box.dataset.payslips ?? '0');
      return count > 0 ? [{ ...lineOf(row), quantity: String(count) }] : [];
    });
  creating = true;
  createForm.setAttribute('aria-busy', 'true');
  try {
    const answer = await api('POST', '/api/staff/facturation/bulk-create', {
      invoice_type: createField('create-type').value,
      payment_method: createField('create-method').value,
      period_label: createField('create-period').value.trim(),
      ...(issue.value.trim() ? { issue_date: isoDate(issue.value) } : {}),
      ...(due.value.trim() ? { due_date: isoDate(due.value) } : {}),
      invoices: chosen.map((box) => ({ org_id: box.value, lines: linesFor(box) })),
    });
    const names = new Map(chosen.map((box) => [box.value, box.dataset.orgName ?? '']));
    createdList?.replaceChildren(
      ...answer.created.map((/** @type {{ number: string, org_id: string, total_ttc: string }} */ invoice) => {
        const item = document.createElement('li');
        item.className = 'result-ok';
        item.textContent = `${invoice.number} : ${names.get(invoice.org_id)}, ${euros(invoice.total_ttc)} TTC`;
        return item;
      }),
    );
    resetCreateForm();
    await refreshSections({ address: window.location.pathname + window.location.search });
    const numbers = answer.created.map((/** @type {{ number: string }} */ i) => i.number);
    announce(createStatus, `${plural(numbers.length, 'facture créée', 'factures créées')} : ${numbers.join(', ')}.`, 'success');
  } catch (error) {
    const e = /** @type {import('./api.js').ApiError} */ (error);
    const id = CREATE_FIELDS[e.code] ?? (e.code === 'invalid_date' ? (issue.value.trim() && !realDate(issue.value) ? 'create-issue' : 'create-due') : null);
    if (id) {
      // A date said of what was typed, in JJ/MM/AAAA.
      setFieldError(
        createField(id),
        e.code === 'invalid_date' ? fieldMessage({ code: e.code, message: e.message, kind: 'date', typed: createField(id).value }) : e.message,
      );
      createField(id).focus();
    } else if (/^(missing|invalid)_(invoices|lines|label|quantity|unit_price|vat_rate|amount)$/.test(e.code)) {
      if (e.code.endsWith('invoices')) setBoxError('create-orgs-error', e.message);
      else lineError(e.code, e.message);
    } else if (e.code === 'org_not_found') {
      setBoxError('create-orgs-error', e.message);
    }
    announce(createStatus, e.message, 'error');
  } finally {
    creating = false;
    createForm.removeAttribute('aria-busy');
  }
});

// ---- A credit note (`POST /api/staff/facturation/{id}/avoir`) ----------------

let crediting = false;

document.addEventListener('submit', async (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (form.id !== 'credit-form') return;
  event.preventDefault();
  if (crediting) return;
  const invoice = /** @type {HTMLSelectElement} */ (document.getElementById('credit-invoice'));
  const reason = createField('credit-reason');
  const amount = createField('credit-amount');
  const vat = createField('credit-vat');
  const region = /** @type {HTMLElement} */ (document.getElementById('credit-status'));
  for (const input of [invoice, reason, amount]) setFieldError(input, '');
  if (!invoice.value) {
    setFieldError(invoice, 'Choisissez la facture à créditer.');
    invoice.focus();
    return;
  }
  if (!reason.value.trim()) {
    setFieldError(reason, "Indiquez le motif de l'avoir.");
    reason.focus();
    return;
  }
  const number = (invoice.selectedOptions[0]?.textContent ?? '').split(' · ')[0];
  const body = amount.value.trim()
    ? {
        reason: reason.value.trim(),
        lines: [{ label: `Avoir sur la facture ${number}`, quantity: '1', unit_price: decimal(amount.value), vat_rate: vat.value }],
      }
    : { reason: reason.value.trim() };
  // An issued credit note is numbered for good: said, then confirmed.
  const what = invoice.selectedOptions[0]?.textContent ?? number;
  const credit = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-credit'));
  const creditText = document.getElementById('confirm-credit-text');
  if (creditText) {
    creditText.textContent = `${amount.value.trim() ? `${amount.value.trim()} € HT` : 'Toute la facture'} à créditer sur ${what}. Motif : ${reason.value.trim()}. Un avoir émis est numéroté et ne peut plus être modifié ni supprimé.`;
  }
  if (!(await confirmWith(credit))) {
    /** @type {HTMLElement | null} */ (document.getElementById('credit-submit'))?.focus();
    return;
  }
  crediting = true;
  form.setAttribute('aria-busy', 'true');
  try {
    const note = await api('POST', `/api/staff/facturation/${encodeURIComponent(invoice.value)}/avoir`, body);
    await refreshSections({ address: window.location.pathname + window.location.search });
    announce(
      /** @type {HTMLElement} */ (document.getElementById('credit-status')),
      `Avoir ${note.number} émis sur la facture ${number} : ${euros(note.total_ttc)} TTC.`,
      'success',
    );
  } catch (error) {
    const e = /** @type {import('./api.js').ApiError} */ (error);
    let message = e.message;
    if (e.code === 'credit_exceeds_invoice') {
      const remaining = typeof e.body?.remaining_ttc === 'string' ? e.body.remaining_ttc : null;
      message = remaining ? `Ce montant dépasse ce qui reste à créditer sur la facture ${number} : ${euros(remaining)} TTC au plus.` : e.message;
      setFieldError(amount, message);
      amount.focus();
    } else if (e.code === 'missing_reason' || e.code === 'invalid_reason') {
      setFieldError(reason, e.message);
      reason.focus();
    } else if (/^(missing|invalid)_(lines|label|quantity|unit_price|vat_rate|amount)$/.test(e.code)) {
      message = e.message.replace(/^lines\[\d+\]\s*:\s*/, '');
      setFieldError(amount, message);
      amount.focus();
    } else if (e.code === 'not_an_invoice' || e.code === 'not_found') {
      setFieldError(invoice, e.message);
      invoice.focus();
    }
    announce(region, message, 'error');
  } finally {
    crediting = false;
    form.removeAttribute('aria-busy');
  }
});
