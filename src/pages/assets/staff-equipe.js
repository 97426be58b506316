/**
 * /staff/equipe: adds a member to the staff team (`POST /api/staff/users/invite`) and
 * removes one (`DELETE /api/staff/users/{id}`), then swaps in the list of a fresh copy of
 * the page. Results are said beside the form.
 */
import { announce, api, ApiError, emailProblem, setFieldError } from './api.js';

const status = /** @type {HTMLElement} */ (document.getElementById('team-status'));
const form = /** @type {HTMLFormElement} */ (document.getElementById('team-form'));
const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm'));
let busy = false;

document.getElementById('logout')?.addEventListener('click', async () => {
  try {
    await api('POST', '/auth/logout');
  } catch {
    // Signed out or not, the way forward is the sign-in page.
  }
  window.location.assign('/login');
});

async function refresh() {
  const response = await fetch(window.location.pathname, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'text/html' } });
  if (response.redirected || !response.ok) {
    window.location.reload();
    return;
  }
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
  const list = fresh.getElementById('team-list');
  if (list) document.getElementById('team-list')?.replaceWith(document.importNode(list, true));
}

/** @param {() => Promise<string>} change */
async function perform(change) {
  if (busy) return;
  busy = true;
  form.setAttribute('aria-busy', 'true');
  try {
    const message = await change();
    await refresh();
    announce(status, message, 'success');
  } catch (error) {
    announce(status, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    busy = false;
    form.removeAttribute('aria-busy');
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const emailInput = /** @type {HTMLInputElement} */ (form.elements.namedItem('email'));
  const email = emailInput.value.trim().toLowerCase();
  const problem = emailProblem(email);
  setFieldError(emailInput, problem);
  if (problem) {
    emailInput.focus();
    return;
  }
  const firstName = /** @type {HTMLInputElement} */ (form.elements.namedItem('first_name')).value.trim();
  const level = /** @type {HTMLSelectElement} */ (form.elements.namedItem('level')).value;
  await perform(async () => {
    try {
      await api('POST', '/api/staff/users/invite', { email, first_name: firstName, level });
    } catch (error) {
      if (error instanceof ApiError && ['missing_email', 'invalid_email'].includes(error.code)) setFieldError(emailInput, error.message);
      throw error;
    }
    form.reset();
    emailInput.focus();
    return `${email} fait partie de l'équipe : un e-mail de bienvenue lui a été envoyé.`;
  });
});

document.getElementById('staff-team')?.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button[data-action="revoke"]');
  if (!button) return;
  const row = /** @type {HTMLElement} */ (button.closest('tr'));
  const { userId, email } = row.dataset;
  /** @type {HTMLElement} */ (document.getElementById('confirm-text')).textContent =
    `${email} perdra immédiatement l'accès de l'équipe interne à toutes les organisations.`;
  dialog.returnValue = '';
  const confirmed = await new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
  if (!confirmed) {
    button.focus();
    return;
  }
  await perform(async () => {
    await api('DELETE', `/api/staff/users/${encodeURIComponent(userId ?? '')}`);
    document.getElementById('team-title')?.focus();
    return `${email} ne fait plus partie de l'équipe.`;
  });
});
