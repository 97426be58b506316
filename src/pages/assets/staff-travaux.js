/**
 * `/staff/travaux`: "Relancer" sends `POST /api/staff/jobs/{id}/retry`; the row leaves the list
 * of failed jobs and the result is announced.
 */
import { announce, api } from './api.js';

const status = /** @type {HTMLElement} */ (document.getElementById('jobs-status'));

document.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button[data-retry]');
  if (!(button instanceof HTMLButtonElement) || button.getAttribute('aria-busy') === 'true') return;
  button.setAttribute('aria-busy', 'true');
  try {
    await api('POST', `/api/staff/jobs/${encodeURIComponent(button.dataset.retry ?? '')}/retry`);
    button.closest('tr')?.remove();
    announce(status, 'Travail relancé : il sera refait dans un instant.', 'success');
    document.getElementById('jobs-title')?.focus();
  } catch (error) {
    announce(status, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    button.removeAttribute('aria-busy');
  }
});
