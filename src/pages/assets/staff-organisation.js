/**
 * /staff/organisations/{id}: the organization's settings sent to `PATCH /api/staff/orgs/{id}`,
 * and each employee's category, cadre, PAS rate, IBAN, BIC, address and classification sent to
 * `PATCH /api/staff/orgs/{id}/salaries/{employee_id}`. The API checks everything; its refusal
 * (`invalid_<field>`) is shown next to the field it names. A typed IBAN is sent, then cleared:
 * the page only ever shows its last four characters, as the API answers them.
 */
import { announce, api, ApiError } from './api.js';
import './session.js';

/**
 * `"2.30"` → `2,3`: a decimal as the server writes it (`formatDecimalFr`), trailing zeros dropped.
 * @param {string} value
 */
function frenchDecimal(value) {
  return value
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '')
    .replace('.', ',');
}

/**
 * `2,30` → `2.30`: the API reads a point; it has the last word on the value.
 * @param {string} value
 */
function decimal(value) {
  return value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
}

/**
 * An address list as typed (commas, semicolons or spaces between addresses).
 * @param {string} value
 */
function addresses(value) {
  return value.split(/[\s,;]+/).filter((item) => item !== '');
}

/**
 * Clears the refusals shown in `form`.
 * @param {HTMLFormElement} form
 */
function clearErrors(form) {
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('.field-error'))) {
    box.textContent = '';
    box.hidden = true;
  }
}

/**
 * Shows `message` next to the input (`<id>-error`), and focuses it.
 * @param {HTMLElement} input @param {string} message
 */
function showError(input, message) {
  input.setAttribute('aria-invalid', 'true');
  const box = document.getElementById(`${input.id}-error`);
  if (box) {
    box.textContent = message;
    box.hidden = false;
  }
  input.focus();
}

/**
 * The field an API error names: `invalid_siret` → `siret`, `documents_slug_taken` → `documents_slug`.
 * @param {unknown} error
 */
function fieldOf(error) {
  if (!(error instanceof ApiError)) return '';
  if (error.code === 'documents_slug_taken') return 'documents_slug';
  return error.code.replace(/^(missing|invalid)_/, '');
}

// ---- the organization's settings ---------------------------------------------------------

const orgForm = /** @type {HTMLFormElement | null} */ (document.getElementById('org-form'));
const orgStatus = /** @type {HTMLElement} */ (document.getElementById('org-status'));
let savingOrg = false;

orgForm?.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (savingOrg) return;
  savingOrg = true;
  orgForm.setAttribute('aria-busy', 'true');
  clearErrors(orgForm);
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (orgForm.elements.namedItem(name)).value.trim();
  const body = {
    email_notifs: addresses(value('email_notifs')),
    email_notifs_cc: addresses(value('email_notifs_cc')),
    virements_salaires: value('virements_salaires'),
    documents_slug: value('documents_slug') || null,
    siret: value('siret') || null,
    address_line: value('address_line') || null,
    postcode: value('postcode') || null,
    city: value('city') || null,
    country: value('country') || null,
    effectif: value('effectif'),
    convention: value('convention'),
    categorie_juridique: value('categorie_juridique'),
    taux_at: value('taux_at') ? decimal(value('taux_at')) : null,
    ape_code: value('ape_code') || null,
    urssaf: value('urssaf') || null,
  };
  try {
    const org = await api('PATCH', `/api/staff/orgs/${encodeURIComponent(orgForm.dataset.orgId ?? '')}`, body);
    // What the API kept (normalized: lower-case addresses, SIRET without spaces).
    const set = (/** @type {string} */ name, /** @type {string} */ text) => {
      /** @type {HTMLInputElement} */ (orgForm.elements.namedItem(name)).value = text;
    };
    set('email_notifs', org.email_notifs.join(', '));
    set('email_notifs_cc', org.email_notifs_cc.join(', '));
    set('siret', org.siret ?? '');
    set('documents_slug', org.documents_slug ?? '');
    set('address_line', org.address_line ?? '');
    set('postcode', org.postcode ?? '');
    set('city', org.city ?? '');
    set('country', org.country);
    set('effectif', String(org.effectif));
    // Read back as the field asks for it (two decimals, "2,30"), as the page first shows it.
    set('taux_at', org.taux_at === null ? '' : org.taux_at.replace('.', ','));
    set('ape_code', org.ape_code ?? '');
    set('urssaf', org.urssaf ?? '');
    announce(orgStatus, 'Fiche enregistrée.', 'success');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const input = document.getElementById(`org-${fieldOf(error)}`);
    if (input) showError(input, message);
    announce(orgStatus, message, 'error');
  } finally {
    savingOrg = false;
    orgForm.removeAttribute('aria-busy');
  }
});

// ---- its employees -------------------------------------------------------------------------

const employeesStatus = /** @type {HTMLElement} */ (document.getElementById('employees-status'));

/**
 * `"7.50"` → `7,5 %`, as the server writes a rate.
 * @param {string} rate
 */
function rateText(rate) {
  return `${frenchDecimal(rate)}\u00a0%`;
}

document.addEventListener('submit', async (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches('[data-employee-form]')) return;
  event.preventDefault();
  if (form.getAttribute('aria-busy') === 'true') return;
  form.setAttribute('aria-busy', 'true');
  clearErrors(form);
  const element = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const iban = element('iban').value.trim();
  const body = {
    category: element('category').value || null,
    cadre: element('cadre').checked,
    dfs: element('dfs').value || null,
    pas_rate: element('pas_rate').value.trim() ? decimal(element('pas_rate').value.trim()) : null,
    bic: element('bic').value.trim() || null,
    address_line: element('address_line').value.trim() || null,
    postcode: element('postcode').value.trim() || null,
    city: element('city').value.trim() || null,
    classification: element('classification').value.trim() || null,
    // Sent only when typed: an empty field keeps the IBAN on file.
    ...(iban ? { iban } : {}),
  };
  const name = form.dataset.name ?? '';
  try {
    const employee = await api(
      'PATCH',
      `/api/staff/orgs/${encodeURIComponent(form.dataset.orgId ?? '')}/salaries/${encodeURIComponent(form.dataset.employeeId ?? '')}`,
      body,
    );
    element('iban').value = '';
    element('bic').value = employee.bic ?? '';
    element('postcode').value = employee.postcode ?? '';
    element('classification').value = employee.classification ?? '';
    const row = form.closest('tr');
    /** Writes `text` in the row's `.cell-<key>`, when the row has one. */
    const write = (/** @type {string} */ key, /** @type {string} */ text) => {
      const cell = row?.querySelector(`.cell-${key}`);
      if (cell) cell.textContent = text;
    };
    const masked = employee.iban_last4 ? `•••• ${employee.iban_last4}` : '—';
    write('iban', masked);
    // The category's words are the ones the server wrote in the form's select.
    const categoryOption = /** @type {HTMLSelectElement} */ (form.elements.namedItem('category')).selectedOptions[0];
    write('category', employee.category ? (categoryOption?.textContent ?? employee.category) : '—');
    write('cadre', employee.cadre ? 'Oui' : 'Non');
    write('pas_rate', employee.pas_rate === null ? 'Grille neutre' : rateText(employee.pas_rate));
    const hint = document.getElementById(`${element('iban').id}-hint`);
    if (hint && employee.iban_last4) hint.textContent = `IBAN actuel : ${masked}. Laissez vide pour le garder.`;
    announce(employeesStatus, `${name} : enregistré${employee.iban_last4 ? `, IBAN ${masked}` : ''}.`, 'success');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const input = form.querySelector(`[name="${CSS.escape(fieldOf(error))}"]`);
    if (input) showError(/** @type {HTMLElement} */ (input), message);
    announce(employeesStatus, `${name} : ${message}`, 'error');
  } finally {
    form.removeAttribute('aria-busy');
  }
});
