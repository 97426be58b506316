/**
 * Same-origin JSON calls to the API, and the French message of every failure: the page
 * never shows raw JSON. A plain-text 401 means the session is gone: back to /login.
 */

export const FORBIDDEN_MESSAGE = "Vous n'avez pas les droits nécessaires.";
const NETWORK_MESSAGE = 'Le serveur ne répond pas. Vérifiez votre connexion puis réessayez.';
const GENERIC_MESSAGE = 'Une erreur est survenue. Réessayez dans un instant.';

/** Messages for the few error codes the API may send without a `message`. */
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
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
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
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network', NETWORK_MESSAGE);
  }
  const isJson = (response.headers.get('content-type') || '').includes('application/json');
  let data = null;
  if (isJson) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  if (response.ok) return data ?? {};
  if (response.status === 401 && !isJson) {
    window.location.assign('/login');
    throw new ApiError(401, 'unauthorized', 'Votre session a expiré : reconnectez-vous.');
  }
  if (response.status === 403 && !isJson) throw new ApiError(403, 'forbidden', FORBIDDEN_MESSAGE);
  const code = data && typeof data.error === 'string' ? data.error : `http_${response.status}`;
  const message =
    data && typeof data.message === 'string' && data.message
      ? data.message
      : Object.hasOwn(CODE_MESSAGES, code)
        ? CODE_MESSAGES[code]
        : GENERIC_MESSAGE;
  throw new ApiError(response.status, code, message);
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

/** A deliberately loose check, the server has the last word. */
export function looksLikeEmail(value) {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/**
 * Marks a field invalid (or valid again with an empty message), with its visible message.
 * @param {HTMLInputElement} input
 * @param {string} message
 */
export function setFieldError(input, message) {
  const id = input.getAttribute('aria-describedby');
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

/** The French message of an e-mail field's value, or '' when it looks right. */
export function emailProblem(value) {
  if (!value) return 'Indiquez une adresse e-mail.';
  if (!looksLikeEmail(value)) return "Cette adresse e-mail n'est pas valide (exemple : prenom.nom@domaine.fr).";
  return '';
}
