/**
 * /contrats/{id}: submit, cancel (after a confirmation), generate and download the PDF, add a
 * note. Each action is one API call; the page then shows the server's copy of what changed.
 */
import { api, setFieldError } from './api.js';
import { changeRunner, confirmWith, focusById, openFile } from './session.js';

const root = /** @type {HTMLElement} */ (document.getElementById('contrat'));
const status = /** @type {HTMLElement} */ (document.getElementById('status'));
const id = root.dataset.contractId || '';
const number = root.dataset.contractNumber || '';
const base = `/api/contrats/${encodeURIComponent(id)}`;

/** Runs one action: the API call, a fresh copy of the sections, the message, then the focus. */
const run = changeRunner(root, status);
/**
 * @param {() => Promise<string>} action resolves with the success message
 * @param {string} [focusId] the element to focus afterwards (when it still exists)
 */
const perform = (action, focusId) => run(action, () => focusById(focusId));

const dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById('confirm-cancel'));

root.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button');
  if (!button) return;
  switch (button.id) {
    case 'submit-contract':
      await perform(async () => {
        await api('POST', `${base}/submit`);
        return `Contrat ${number} soumis pour signature.`;
      }, 'generate-pdf');
      break;
    case 'cancel-contract': {
      if (!(await confirmWith(dialog))) {
        button.focus();
        return;
      }
      await perform(async () => {
        await api('POST', `${base}/cancel`);
        return `Contrat ${number} annulé.`;
      }, 'pdf-title');
      break;
    }
    case 'generate-pdf':
      await perform(async () => {
        const answer = await api('POST', '/api/generate-contract-pdf', { contract_id: id });
        openFile(answer.url);
        return `PDF du contrat ${number} généré : le téléchargement commence.`;
      }, 'download-pdf');
      break;
    case 'download-pdf':
      await perform(async () => {
        const answer = await api('GET', `${base}/pdf-url`);
        openFile(answer.url);
        return answer.signed ? 'Téléchargement du contrat signé.' : 'Téléchargement du PDF.';
      }, 'download-pdf');
      break;
    default:
  }
});

const noteForm = /** @type {HTMLFormElement} */ (document.getElementById('note-form'));
const noteText = /** @type {HTMLTextAreaElement} */ (document.getElementById('note-text'));
noteForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = noteText.value.trim();
  setFieldError(noteText, text ? '' : 'Écrivez le texte de la note.');
  if (!text) {
    noteText.focus();
    return;
  }
  await perform(async () => {
    await api('POST', `${base}/notes`, { text });
    noteForm.reset();
    return 'Note ajoutée.';
  }, 'note-text');
});
