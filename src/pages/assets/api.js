/**
 * Same-origin JSON calls to the API, and the French message of every failure: the page
 * never shows raw JSON. A plain-text 401 means the session is gone: back to /login.
 */

export const FORBIDDEN_MESSAGE = "Vous n'avez pas les droits nécessaires.";
const NETWORK_MESSAGE = 'Le serveur ne répond pas. Vérifiez votre connexion puis réessayez.';
const GENERIC_MESSAGE = 'Une erreur est survenue. Réessayez dans un instant.';

/**
 * Messages for the few error codes the API may send without a `message`.
 * @type {Record<string, string>}
 */
const CODE_MESSAGES = {
  not_found: "Élément introuvable : la page n'est peut-être plus à jour. Rechargez-la.",
  invite_failed: "L'invitation n'a pas pu être créée. Réessayez.",
  already_activated: 'Ce compte est déjà activé : aucune invitation à renvoyer.',
  rate_limited: 'Trop de demandes : réessayez dans un moment.',
  cross_site_request: 'Requête refusée : elle ne vient pas de ce site.',
};

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status (0 when the server could not be reached)
   * @param {string} code the API's `error`, or a code of this page
   * @param {string} message French, ready to show
   * @param {Record<string, unknown>} [body] the whole JSON answer (e.g. `payslip_ids` of a 409)
   */
  constructor(status, code, message, body = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * Calls the API. Resolves with the parsed JSON answer; rejects with an ApiError whose
 * message is French.
 * @param {string} method
 * @param {string} path same-origin path, e.g. `/api/access`
 * @param {unknown} [body] sent as JSON
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await jsonOf(response);
  if (response.ok) return data ?? {};
  throw failure(response, data);
}

/**
 * Downloads a file the API answers with a session (e.g. a SEPA XML file): the browser saves
 * it under `filename`, and the page stays. Rejects with an ApiError (French) when refused.
 * @param {string} path same-origin path
 * @param {string} filename
 */
export async function download(path, filename) {
  const response = await send(path, { method: 'GET', headers: { accept: '*/*' } });
  if (!response.ok) throw failure(response, await jsonOf(response));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Sends a file as the request's body (e.g. `PUT …/pdf` with `application/pdf`). Resolves with
 * the parsed JSON answer; rejects with an ApiError whose message is French (413, 415…).
 * @param {string} method
 * @param {string} path same-origin path
 * @param {File | Blob} file
 * @param {string} contentType
 */
export async function sendFile(method, path, file, contentType) {
  const response = await send(path, { method, headers: { accept: 'application/json', 'content-type': contentType }, body: file });
  const data = await jsonOf(response);
  if (response.ok) return data ?? {};
  throw failure(response, data);
}

/**
 * fetch, same origin, never cached; a network failure is an ApiError.
 * @param {string} path
 * @param {RequestInit} init
 */
async function send(path, init) {
  try {
    return await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', NETWORK_MESSAGE);
  }
}

/**
 * The JSON body of an answer, or null when it has none.
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function jsonOf(response) {
  if (!(response.headers.get('content-type') || '').includes('application/json')) return null;
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/**
 * The ApiError of a refused answer, its message in French.
 * @param {Response} response
 * @param {any} data its JSON body, or null
 */
function failure(response, data) {
  if (response.status === 401 && data === null) {
    window.location.assign('/login');
    return new ApiError(401, 'unauthorized', 'Votre session a expiré : reconnectez-vous.');
  }
  if (response.status === 403 && data === null) return new ApiError(403, 'forbidden', FORBIDDEN_MESSAGE);
  const code = data && typeof data.error === 'string' ? data.error : `http_${response.status}`;
  const message =
    data && typeof data.message === 'string' && data.message ? data.message : Object.hasOwn(CODE_MESSAGES, code) ? CODE_MESSAGES[code] : GENERIC_MESSAGE;
  return new ApiError(response.status, code, message, data ?? {});
}

/**
 * Shows a message in a live region (`role="status"`). The text is cleared first so that the
 * same message said twice is announced twice.
 * @param {HTMLElement} region
 * @param {string} message
 * @param {'info' | 'success' | 'error'} [kind]
 */
export function announce(region, message, kind = 'info') {
  region.textContent = '';
  region.dataset.kind = kind;
  window.setTimeout(() => {
    region.textContent = message;
  }, 30);
}

/**
 * A deliberately loose check, the server has the last word.
 * @param {string} value
 */
export function looksLikeEmail(value) {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/**
 * Marks a field invalid (or valid again with an empty message), with its visible message.
 * @param {Element} input an input, a select or a textarea
 * @param {string} message
 */
export function setFieldError(input, message) {
  // The error box is the described-by id ending in `-error` (a hint may come first), else the only one.
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const id = ids.find((one) => one.endsWith('-error')) ?? (ids.length === 1 ? ids[0] : null);
  const box = id ? document.getElementById(id) : null;
  if (message) {
    input.setAttribute('aria-invalid', 'true');
    if (box) {
      box.textContent = message;
      box.hidden = false;
    }
  } else {
    input.removeAttribute('aria-invalid');
    if (box) {
      box.textContent = '';
      box.hidden = true;
    }
  }
}

/**
 * The French message of an e-mail field's value, or '' when it looks right.
 * @param {string} value
 */
export function emailProblem(value) {
  if (!value) return 'Indiquez une adresse e-mail.';
  if (!looksLikeEmail(value)) return "Cette adresse e-mail n'est pas valide (exemple : prenom.nom@domaine.fr).";
  return '';
}
