/**
 * /staff/equipe: adds a member to the staff team (`POST /api/staff/users/invite`) and
 * removes one (`DELETE /api/staff/users/{id}`), then swaps in the list of a fresh copy of
 * the page. Results are said beside the form.
 */
import { api, ApiError, emailProblem, setFieldError } from './api.js';
import { changeRunner, confirmWith, focusById } from './session.js';

const status = /** @type {HTMLElement} */ (document.getElementById('team-status'));
const form = /** @type {HTMLFormElement} */ (document.getElementById('team-form'));
const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm'));

const perform = changeRunner(form, status);

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
  await perform(
    async () => {
      try {
        await api('POST', '/api/staff/users/invite', { email, first_name: firstName, level });
      } catch (error) {
        if (error instanceof ApiError && ['missing_email', 'invalid_email'].includes(error.code)) setFieldError(emailInput, error.message);
        throw error;
      }
      form.reset();
      return `${email} fait partie de l'équipe : un e-mail de bienvenue lui a été envoyé.`;
    },
    () => emailInput.focus(),
  );
});

document.getElementById('staff-team')?.addEventListener('click', async (event) => {
  const button = /** @type {HTMLButtonElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('button[data-action="revoke"]'));
  if (!button) return;
  const row = /** @type {HTMLElement} */ (button.closest('tr'));
  const { userId, email } = row.dataset;
  const confirmed = await confirmWith(dialog, `${email} perdra immédiatement l'accès de l'équipe interne à toutes les organisations.`);
  if (!confirmed) {
    button.focus();
    return;
  }
  await perform(
    async () => {
      await api('DELETE', `/api/staff/users/${encodeURIComponent(userId ?? '')}`);
      return `${email} ne fait plus partie de l'équipe.`;
    },
    () => focusById('team-title'),
  );
});
