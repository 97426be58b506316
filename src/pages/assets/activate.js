/**
 * /activate: reads `#token=…&type=invite|magiclink` after 100 ms, removes it from
 * the address bar, exchanges it for a session, then goes to `/` (the role's page) after 1 s.
 * A wrong, used or expired link shows the API's message and a form to ask for a new link.
 */
import { announce, api } from './api.js';
import { wireEmailForm } from './email-form.js';

const READ_DELAY_MS = 100;
const REDIRECT_DELAY_MS = 1000;

const status = /** @type {HTMLElement} */ (document.getElementById('status'));
const retry = /** @type {HTMLElement} */ (document.getElementById('retry'));
const continueBox = /** @type {HTMLElement} */ (document.getElementById('continue'));
const continueLink = /** @type {HTMLAnchorElement} */ (document.getElementById('continue-link'));

wireEmailForm(/** @type {HTMLFormElement} */ (document.getElementById('email-form')), /** @type {HTMLElement} */ (document.getElementById('retry-status')));

/**
 * Where a signed-in person goes: `/`, which sends each role to the page it works in (the
 * answer's `redirect`, `/vos-acces` as docs/access.md fixes it, is for API clients).
 */
const HOME = '/';

/** @param {string} message */
function showRetry(message) {
  announce(status, message, 'error');
  retry.hidden = false;
}

/**
 * The e-mail of the session this browser holds, or '': written into the page by the server,
 * so that no request answers 401 (logged as an error by the browser) to a visitor.
 */
const signedInAs = document.getElementById('activate')?.dataset.signedInAs ?? '';

/** @param {string} message */
function goOn(message) {
  announce(status, message, 'success');
  continueLink.href = HOME;
  continueBox.hidden = false;
  window.setTimeout(() => window.location.replace(HOME), REDIRECT_DELAY_MS);
}

/**
 * @param {string} token
 * @param {string | null} type `invite` or `magiclink`
 */
async function signIn(token, type) {
  try {
    await api('POST', '/auth/session', { token });
    announce(status, type === 'invite' ? 'Votre compte est activé. Redirection…' : 'Vous êtes connecté. Redirection…', 'success');
    continueLink.href = HOME;
    continueBox.hidden = false;
    window.setTimeout(() => window.location.replace(HOME), REDIRECT_DELAY_MS);
  } catch (error) {
    showRetry(error instanceof Error ? error.message : String(error));
  }
}

/**
 * A browser signed in as someone else: say whose link it is, and switch only when asked
 * (the link would end the current session).
 * @param {string} token
 * @param {string | null} type
 * @param {string} owner the link's account
 * @param {string} me the account this browser is signed in as
 */
function askBeforeSwitching(token, type, owner, me) {
  const box = /** @type {HTMLElement} */ (document.getElementById('switch'));
  /** @type {HTMLElement} */ (document.getElementById('switch-text')).textContent =
    `Ce lien ouvre le compte ${owner}. Vous êtes connecté en tant que ${me} : en continuant, vous serez déconnecté de ce compte.`;
  const confirm = /** @type {HTMLButtonElement} */ (document.getElementById('switch-confirm'));
  confirm.textContent = `Continuer en tant que ${owner}`;
  /** @type {HTMLElement} */ (document.getElementById('switch-stay')).textContent = `Rester connecté en tant que ${me}`;
  status.textContent = '';
  box.hidden = false;
  confirm.focus();
  confirm.addEventListener(
    'click',
    () => {
      box.hidden = true;
      signIn(token, type);
    },
    { once: true },
  );
}

async function activate() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const token = params.get('token');
  const type = params.get('type');
  // The token must not stay in the address bar, the history or a bookmark.
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  if (!token) {
    // A reload after signing in: the link was used already, and this browser is in.
    if (signedInAs) goOn('Vous êtes déjà connecté. Redirection…');
    else showRetry('Ce lien est incomplet ou a déjà été ouvert. Demandez un nouveau lien ci-dessous.');
    return;
  }
  if (signedInAs) {
    let owner;
    try {
      owner = (await api('POST', '/auth/session/account', { token })).email;
    } catch (error) {
      showRetry(error instanceof Error ? error.message : String(error));
      return;
    }
    if (owner !== signedInAs) {
      askBeforeSwitching(token, type, owner, signedInAs);
      return;
    }
  }
  await signIn(token, type);
}

window.setTimeout(activate, READ_DELAY_MS);
