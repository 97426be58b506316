/**
 * /staff/operateur: the operator's settings sent to `PATCH /api/staff/operator`. Only the fields
 * changed are sent, so that a value the server's environment gives stays a default until staff
 * type another. The API checks everything; its refusal (`invalid_<field>`) is shown next to the
 * field it names, and what it kept (written without spaces, upper case) replaces what was typed.
 */
import { announce, api, ApiError } from './api.js';
import './session.js';

const form = /** @type {HTMLFormElement | null} */ (document.getElementById('operator-form'));
/** The settings the form holds, in its order; their names are the page's labels (`staff-operateur.ts`). */
const FIELDS = form ? [...form.querySelectorAll('input[name]')].map((field) => /** @type {HTMLInputElement} */ (field).name) : [];

/** @param {string} name */
function labelOf(name) {
  return document.querySelector(`label[for="operator-${name}"]`)?.textContent?.trim() || name;
}
const status = /** @type {HTMLElement} */ (document.getElementById('operator-status'));
let saving = false;

/** @param {string} name */
function input(name) {
  return /** @type {HTMLInputElement} */ (form?.elements.namedItem(name));
}

function clearErrors() {
  for (const field of form?.querySelectorAll('[aria-invalid]') ?? []) field.removeAttribute('aria-invalid');
  for (const box of /** @type {NodeListOf<HTMLElement> | undefined} */ (form?.querySelectorAll('.field-error')) ?? []) {
    box.textContent = '';
    box.hidden = true;
  }
}

/**
 * The field an API error names: `invalid_siret` → `siret`.
 * @param {unknown} error
 */
function fieldOf(error) {
  return error instanceof ApiError ? error.code.replace(/^(missing|invalid)_/, '') : '';
}

/**
 * What the missing settings disable, as the page first said it.
 * @param {{ missing: { invoices: string[], sepa: string[] } }} settings
 */
function showGaps(settings) {
  const region = document.getElementById('operator-gaps-region');
  if (!region) return;
  const names = (/** @type {string[]} */ fields) => fields.map(labelOf).join(', ');
  const lines = [];
  if (settings.missing.invoices.length) lines.push(`Factures : aucun document (Factur-X) tant que manque : ${names(settings.missing.invoices)}.`);
  if (settings.missing.sepa.length)
    lines.push(
      `Virements : aucun lot ni fichier SEPA, ni facture payable par virement, tant que manque ou n'est pas valide : ${names(settings.missing.sepa)}.`,
    );
  region.replaceChildren();
  if (lines.length === 0) {
    const p = document.createElement('p');
    p.className = 'hint';
    p.id = 'operator-gaps';
    p.textContent = 'Tout est renseigné : factures et fichiers SEPA peuvent être produits.';
    region.append(p);
    return;
  }
  const section = document.createElement('section');
  section.className = 'notice';
  section.id = 'operator-gaps';
  const title = document.createElement('h2');
  title.textContent = 'Réglages incomplets';
  const list = document.createElement('ul');
  for (const line of lines) {
    const item = document.createElement('li');
    item.textContent = line;
    list.append(item);
  }
  section.append(title, list);
  region.append(section);
}

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (saving) return;
  clearErrors();
  /** @type {Record<string, string>} */
  const body = {};
  for (const name of FIELDS) {
    const field = input(name);
    if (field && field.value.trim() !== (field.dataset.initial ?? '')) body[name] = field.value.trim();
  }
  if (Object.keys(body).length === 0) {
    announce(status, 'Aucune modification à enregistrer.', 'success');
    return;
  }
  saving = true;
  form.setAttribute('aria-busy', 'true');
  try {
    const settings = await api('PATCH', '/api/staff/operator', body);
    for (const name of FIELDS) {
      const field = input(name);
      const value = settings[name] ?? '';
      field.value = value;
      field.dataset.initial = value;
      const origin = document.getElementById(`operator-${name}-origin`);
      if (origin) origin.textContent = settings.saved.includes(name) ? 'Enregistré ici.' : "Valeur par défaut de l'environnement du serveur.";
    }
    showGaps(settings);
    announce(status, 'Réglages enregistrés.', 'success');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const field = document.getElementById(`operator-${fieldOf(error)}`);
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      const box = document.getElementById(`${field.id}-error`);
      if (box) {
        box.textContent = message;
        box.hidden = false;
      }
      field.focus();
    }
    announce(status, message, 'error');
  } finally {
    saving = false;
    form.removeAttribute('aria-busy');
  }
});
