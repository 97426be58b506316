/**
 * What every module page shares: the banner's logout button, and `refreshSections()`, which
 * swaps in the `[data-refresh]` sections of a fresh copy of the page (as /vos-acces does), so
 * that what is shown after a change is what the server holds.
 */
import { api } from './api.js';

document.getElementById('logout')?.addEventListener('click', async () => {
  try {
    await api('POST', '/auth/logout');
  } catch {
    // Signed out or not, the way forward is the sign-in page.
  }
  window.location.assign('/login');
});

/**
 * Replaces every `[data-refresh]` element with its counterpart in a fresh copy of the page.
 * @param {string} [address] the page to read (default: this page's path, without its query)
 */
export async function refreshSections(address = window.location.pathname) {
  let response;
  try {
    response = await fetch(address, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'text/html' } });
  } catch {
    return;
  }
  if (response.redirected || !response.ok) {
    window.location.reload();
    return;
  }
  // A parsed document is inert: its scripts never run.
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
  for (const section of document.querySelectorAll('[data-refresh]')) {
    const replacement = fresh.getElementById(section.id);
    if (replacement) section.replaceWith(document.importNode(replacement, true));
    else section.remove();
  }
}

/**
 * Opens a signed file link (MODULES 8: `Content-Disposition: attachment`): the browser
 * downloads it and the page stays.
 * @param {string} url
 */
export function openFile(url) {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Opens a confirmation `<dialog>` (its buttons submit `value="confirm"` or another value);
 * resolves true when confirmed, false when dismissed (another button, Escape) or absent.
 * @param {HTMLDialogElement | null} dialog
 * @returns {Promise<boolean>}
 */
export function confirmWith(dialog) {
  return new Promise((resolve) => {
    if (!dialog) return resolve(false);
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
}
