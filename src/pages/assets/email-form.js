/** The "send me a sign-in link" form of /login and /activate (`POST /auth/magic-link`). */
import { announce, api, emailProblem, setFieldError } from './api.js';

/**
 * @param {HTMLFormElement} form with an `email` input; `data-sent` holds the confirmation
 * @param {HTMLElement} status the live region for the answer
 */
export function wireEmailForm(form, status) {
  const input = /** @type {HTMLInputElement} */ (form.elements.namedItem('email'));
  let busy = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    const email = input.value.trim();
    const problem = emailProblem(email);
    setFieldError(input, problem);
    if (problem) {
      input.focus();
      return;
    }
    busy = true;
    form.setAttribute('aria-busy', 'true');
    try {
      await api('POST', '/auth/magic-link', { email });
      // The same words whether or not the account exists (no account discovery).
      announce(status, form.dataset.sent || '', 'success');
    } catch (error) {
      announce(status, error instanceof Error ? error.message : String(error), 'error');
    } finally {
      busy = false;
      form.removeAttribute('aria-busy');
    }
  });
}
