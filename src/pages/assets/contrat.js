/**
 * /contrats/{id}: submit, cancel (after a confirmation), generate and download the PDF, add a
 * note, make an avenant; for staff, the signed PDF (dropped or chosen, with its progress, and
 * deleted after a confirmation) and the salaries by date edited in place. Each action is one
 * API call; the page then shows the server's copy of what changed.
 */
import { announce, api, ApiError, FORBIDDEN_MESSAGE, setFieldError } from './api.js';
import { fieldMessage } from './field-messages.js';
import { isoFromFr as isoDate } from '../../format/calendar-shared.js';
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
        return `Contrat ${number} soumis pour signature. Son PDF à signer est prêt.`;
      }, 'download-pdf');
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

// ---- Staff's signed PDF, salaries by date in place; anyone's avenant ----------

/** The API's own limit (413 past it); checked here first to spare the upload. */
const PDF_LIMIT = 10 * 1024 * 1024;

/** `1 234,50` or `1234.5` → `1234.50`-like text the API reads; the API has the last word. */
const decimal = (/** @type {string} */ value) => value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');

const byId = (/** @type {string} */ elementId) => /** @type {HTMLElement | null} */ (document.getElementById(elementId));
const signedFileInput = () => /** @type {HTMLInputElement | null} */ (byId('signed-file'));

/**
 * Shows a refusal next to the file control (its box is the second of its descriptions), or clears it.
 * @param {HTMLInputElement} input @param {string} message
 */
function setFileError(input, message) {
  const box = byId('signed-file-error');
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  if (box) {
    box.textContent = message;
    box.hidden = !message;
  }
}

/**
 * The French refusal of a file before it is sent (the server checks again), or ''.
 * @param {File} file
 */
function fileProblem(file) {
  const isPdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
  if (!isPdf) return `« ${file.name} » n'est pas un PDF : déposez le contrat signé au format PDF.`;
  if (file.size > PDF_LIMIT) {
    const mo = (file.size / (1024 * 1024)).toLocaleString('fr-FR', { maximumFractionDigits: 1 });
    return `« ${file.name} » pèse ${mo} Mo : 10 Mo au plus.`;
  }
  if (file.size === 0) return `« ${file.name} » est vide.`;
  return '';
}

/**
 * The progress bar of the upload: `null` hides it.
 * @param {number | null} percent
 */
function showProgress(percent) {
  const box = byId('signed-progress');
  const bar = /** @type {HTMLProgressElement | null} */ (byId('signed-progress-bar'));
  const text = byId('signed-progress-text');
  if (!box || !bar || !text) return;
  box.hidden = percent === null;
  bar.value = percent ?? 0;
  text.textContent = `${percent ?? 0} %`;
}

/**
 * `PUT /api/staff/contrats/{id}/signed-pdf` by XMLHttpRequest, whose upload reports its
 * progress (fetch does not); rejects with an ApiError in French.
 * @param {File} file
 * @returns {Promise<unknown>}
 */
function sendSignedPdf(file) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/staff/contrats/${encodeURIComponent(id)}/signed-pdf`);
    xhr.setRequestHeader('content-type', 'application/pdf');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) showProgress(Math.round((event.loaded * 100) / event.total));
    });
    xhr.addEventListener('load', () => {
      let data = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data);
      const message =
        data && typeof data.message === 'string' && data.message
          ? data.message
          : xhr.status === 413
            ? 'Le fichier dépasse 10 Mo.'
            : xhr.status === 403
              ? FORBIDDEN_MESSAGE
              : 'Le dépôt a échoué. Réessayez dans un instant.';
      reject(new ApiError(xhr.status, data?.error ?? `http_${xhr.status}`, message, data ?? {}));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network', "Le dépôt n'a pas abouti : vérifiez votre connexion puis réessayez.")));
    xhr.send(file);
  });
}

/**
 * Checks, sends and shows one file; a refusal is shown next to the file control.
 * @param {File} file
 */
async function uploadSigned(file) {
  const input = signedFileInput();
  if (!input) return;
  const problem = fileProblem(file);
  setFileError(input, problem);
  if (problem) {
    announce(status, problem, 'error');
    input.value = '';
    input.focus();
    return;
  }
  let refusal = '';
  await run(
    async () => {
      showProgress(0);
      try {
        await sendSignedPdf(file);
      } catch (error) {
        refusal = error instanceof Error ? error.message : String(error);
        showProgress(null);
        throw error;
      }
      return `PDF signé « ${file.name} » déposé : le contrat ${number} est signé.`;
    },
    () => focusById('signed-pdf-title'),
  );
  if (refusal) {
    const again = signedFileInput();
    if (again) {
      setFileError(again, refusal);
      again.value = '';
      again.focus();
    }
  }
}

root.addEventListener('change', (event) => {
  const target = /** @type {HTMLInputElement} */ (event.target);
  const file = target.files?.[0];
  if (target.id !== 'signed-file' || !file) return;
  void uploadSigned(file);
});

for (const type of ['dragenter', 'dragover']) {
  root.addEventListener(type, (event) => {
    const zone = /** @type {HTMLElement} */ (event.target).closest?.('#signed-drop');
    if (!zone) return;
    event.preventDefault();
    zone.classList.add('dropzone-over');
  });
}
root.addEventListener('dragleave', (event) => {
  /** @type {HTMLElement} */ (event.target).closest?.('#signed-drop')?.classList.remove('dropzone-over');
});
root.addEventListener('drop', (event) => {
  const zone = /** @type {HTMLElement} */ (event.target).closest?.('#signed-drop');
  if (!zone) return;
  event.preventDefault();
  zone.classList.remove('dropzone-over');
  const file = event.dataTransfer?.files?.[0];
  if (file) void uploadSigned(file);
});

const deleteDialog = /** @type {HTMLDialogElement | null} */ (document.getElementById('confirm-delete-signed'));
root.addEventListener('click', async (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest('button');
  if (!button) return;
  if (button.id === 'delete-signed-pdf') {
    if (!(await confirmWith(deleteDialog))) {
      button.focus();
      return;
    }
    await perform(async () => {
      await api('DELETE', `/api/staff/contrats/${encodeURIComponent(id)}/delete-signed-pdf`);
      return `PDF signé supprimé : le contrat ${number} est de nouveau à signer.`;
    }, 'signed-file');
  } else if (button.id === 'avenant-add-line') {
    addAvenantLine();
  }
});

// ---- the salaries by date, in place ----

/**
 * Cents of an amount as typed (`180,50`), or null when it does not read as one.
 * @param {string} value @returns {number | null}
 */
function cents(value) {
  const text = decimal(value);
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [units, fraction = ''] = text.split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'));
}

const euroIntl = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
/** `1 234,50 €` with no-break spaces, as the server writes amounts (format/french.ts). */
const euroFormat = { format: (/** @type {number} */ value) => euroIntl.format(value).replace(/[\s\u202f]/g, '\u00a0') };

/** The total as typed, before it is saved: the server recomputes it. */
root.addEventListener('input', (event) => {
  const target = /** @type {HTMLInputElement} */ (event.target);
  if (!target.closest('#salaries-form') || target.name !== 'amount') return;
  const total = byId('salaries-total');
  if (!total) return;
  const amounts = [...document.querySelectorAll('#salary-lines input[name="amount"]')].map((input) => cents(/** @type {HTMLInputElement} */ (input).value));
  total.textContent = amounts.some((c) => c === null)
    ? '—'
    : `${euroFormat.format(amounts.reduce((/** @type {number} */ sum, c) => sum + (c ?? 0), 0) / 100)} (non enregistré)`;
});

root.addEventListener('submit', async (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (form.id === 'salaries-form') {
    event.preventDefault();
    let error = /** @type {HTMLInputElement} */ (form.querySelector('input[name="amount"]'));
    const dates = [...form.querySelectorAll('#salary-lines tr')].map((row) => {
      const line = /** @type {HTMLElement} */ (row);
      const get = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (line.querySelector(`[name="${name}"]`)).value.trim();
      return { date: line.dataset.date, nature: line.dataset.nature, quantity: decimal(get('quantity')), amount: decimal(get('amount')) };
    });
    let failed = '';
    await run(
      async () => {
        try {
          const answer = await api('PATCH', `/api/staff/contrats/${encodeURIComponent(id)}/salaires-par-date`, { dates });
          return `Salaires enregistrés : total ${answer.gross_total === null ? '—' : euroFormat.format(Number(answer.gross_total))}.`;
        } catch (caught) {
          failed = caught instanceof Error ? caught.message : String(caught);
          // The line the API names (`dates[2].amount`), when it does.
          const line =
            caught instanceof ApiError && typeof caught.body?.field === 'string' ? /^dates\[(\d+)\]\.(quantity|amount)$/.exec(caught.body.field) : null;
          const named = line ? form.querySelectorAll('#salary-lines tr')[Number(line[1])]?.querySelector(`input[name="${line[2]}"]`) : null;
          if (named) error = /** @type {HTMLInputElement} */ (named);
          throw caught;
        }
      },
      () => focusById('salaries-total') || focusById('dates-title'),
    );
    if (failed && error) {
      setFieldError(error, failed);
      error.focus();
    }
  } else if (form.id === 'avenant-form') {
    event.preventDefault();
    await submitAvenant(form);
  }
});

// ---- the avenant ----

let avenantCounter = 1;
function addAvenantLine() {
  const lines = byId('avenant-lines');
  const template = /** @type {HTMLTemplateElement | null} */ (document.getElementById('avenant-line-template'));
  if (!lines || !template) return;
  avenantCounter = Math.max(avenantCounter, lines.querySelectorAll('tr').length) + 1;
  const n = String(avenantCounter);
  const fragment = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
  for (const element of fragment.querySelectorAll('[id]')) {
    element.id = element.id.replace('__N__', n);
    const described = element.getAttribute('aria-describedby');
    if (described) element.setAttribute('aria-describedby', described.replaceAll('__N__', n));
  }
  for (const label of fragment.querySelectorAll('label')) {
    label.htmlFor = label.htmlFor.replace('__N__', n);
    label.textContent = label.textContent.replace('__N__', n);
  }
  lines.append(fragment);
  /** @type {HTMLInputElement} */ (lines.querySelector(`#avenant-date-${n}`)).focus();
}

/**
 * Which field an avenant's refusal belongs next to: the one the API names (`dates[1].date`: the
 * second line sent, `start_date`), else the one its code means.
 * @param {ApiError} failure @param {HTMLFormElement} form @param {Element[]} rows the lines sent
 * @returns {HTMLInputElement | null}
 */
function avenantField(failure, form, rows) {
  const code = failure.code;
  const named = typeof failure.body?.field === 'string' ? failure.body.field : '';
  const line = /^dates\[(\d+)\]\.(date|nature|quantity|amount)$/.exec(named);
  if (line) return /** @type {HTMLInputElement | null} */ (rows[Number(line[1])]?.querySelector(`[name="${line[2]}"]`) ?? null);
  if (named === 'start_date' || named === 'end_date') return /** @type {HTMLInputElement | null} */ (byId(`avenant-${named}`));
  if (code === 'period_not_extended' || code === 'invalid_end_date')
    return /** @type {HTMLInputElement | null} */ (byId('avenant-end_date') ?? byId('avenant-start_date'));
  if (/^missing_(date|nature|quantity|amount)$/.test(code)) {
    const name = code.replace('missing_', '');
    return (
      /** @type {HTMLInputElement | undefined} */ (
        [...form.querySelectorAll(`#avenant-lines [name="${name}"]`)].find((input) => !(/** @type {HTMLInputElement} */ (input).value.trim()))
      ) ?? null
    );
  }
  return null;
}

/** @param {HTMLFormElement} form */
async function submitAvenant(form) {
  const value = (/** @type {string} */ name) => {
    const element = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name));
    return element ? element.value.trim() : '';
  };
  const rows = [...form.querySelectorAll('#avenant-lines tr')].filter((row) =>
    [...row.querySelectorAll('input[name="date"], input[name="amount"]')].some((input) => /** @type {HTMLInputElement} */ (input).value.trim()),
  );
  const dates = rows.map((row) => {
    const get = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (row.querySelector(`[name="${name}"]`)).value.trim();
    return { date: isoDate(get('date')), nature: get('nature'), quantity: decimal(get('quantity')), amount: decimal(get('amount')) };
  });
  /** @type {{ start_date: string | null, end_date?: string | null, dates: typeof dates }} */
  const body = { start_date: value('start_date') ? isoDate(value('start_date')) : null, dates };
  if (form.elements.namedItem('end_date')) body.end_date = value('end_date') ? isoDate(value('end_date')) : null;
  for (const input of form.querySelectorAll('[aria-invalid]')) setFieldError(/** @type {HTMLInputElement} */ (input), '');
  const general = /** @type {HTMLElement} */ (byId('avenant-error'));
  general.hidden = true;
  // Set by the change's callback: typed by a cast, which keeps them from being narrowed to null here.
  let failure = /** @type {unknown} */ (null);
  const contractPeriod = { start_date: form.dataset.start ?? '', end_date: form.dataset.end || null };
  let field = /** @type {HTMLInputElement | null} */ (null);
  let said = '';
  /** @type {{ status?: string, has_generated_pdf?: boolean } | undefined} */
  let amended;
  await run(
    async () => {
      try {
        amended = await api('POST', `${base}/avenants`, body);
      } catch (caught) {
        failure = caught;
        if (!(caught instanceof ApiError)) throw caught;
        // Said of what was typed there (a day that does not exist, one outside the new period).
        field = avenantField(caught, form, rows);
        const period = {
          start_date: body.start_date ?? contractPeriod.start_date,
          end_date: 'end_date' in body ? (body.end_date ?? contractPeriod.end_date) : contractPeriod.end_date,
        };
        const kind = field?.name === 'date' ? 'contract_date' : field?.name === 'start_date' || field?.name === 'end_date' ? 'date' : 'other';
        said = field ? fieldMessage({ code: caught.code, message: caught.message, kind, typed: field.value, period }) : caught.message;
        throw new ApiError(caught.status, caught.code, said, caught.body);
      }
      const added = dates.length === 0 ? 'aucune date ajoutée' : dates.length === 1 ? '1 date ajoutée' : `${dates.length} dates ajoutées`;
      // The server renders the PDF again with the avenant, and a signed contract goes back to signature.
      const pdf = amended?.has_generated_pdf ? ' Le PDF du contrat le mentionne.' : " Générez le PDF pour qu'il le mentionne.";
      return `Avenant enregistré : ${added}.${pdf}${amended?.status === 'a_signer' ? ' Le contrat est à signer de nouveau.' : ''}`;
    },
    () => focusById('avenants-title'),
  );
  if (failure) {
    const message = said || (failure instanceof Error ? failure.message : String(failure));
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      const box = byId(`${field.id}-error`);
      if (box) {
        box.textContent = message;
        box.hidden = false;
      } else {
        field.setAttribute('aria-describedby', 'avenant-error');
        general.textContent = message;
        general.hidden = false;
      }
      field.focus();
    } else {
      general.textContent = message;
      general.hidden = false;
    }
  }
}
