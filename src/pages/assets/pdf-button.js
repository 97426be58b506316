/**
 * Every `<button data-pdf-url="/api/…/pdf-url">` of a page: asks the API for the file's signed
 * link and opens it, so that the browser downloads the PDF and the page stays. The
 * result is said in the page's `#status` region (`data-pdf-done`, else a generic message); the
 * focus stays on the button. A page with its own script imports this module as well.
 */
import { announce, api } from './api.js';
import { openFile } from './session.js';

const status = /** @type {HTMLElement | null} */ (document.getElementById('status'));

document.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button[data-pdf-url]');
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    const answer = await api('GET', button.dataset.pdfUrl || '');
    openFile(answer.url);
    if (status) announce(status, button.dataset.pdfDone || 'Téléchargement du PDF.', 'success');
  } catch (error) {
    if (status) announce(status, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.focus();
  }
});
