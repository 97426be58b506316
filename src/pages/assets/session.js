/**
 * What every signed-in page shares: the banner's logout button; `refreshSections()`, which
 * swaps in the `[data-refresh]` sections of a fresh copy of the page, so that what is shown
 * after a change is what the server holds; `changeRunner()`, one change at a time with its
 * result announced; `confirmWith()`, the confirmation dialog; `openFile()`, a signed download.
 */
import { announce, api } from './api.js';

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
 * A section the fresh copy no longer has is removed, or with `whenMissing: 'reload'` the whole
 * page is shown again (what the caller may see has changed). `address`: the copy to read
 * (default: this page's path, without its query; a list page passes its filters).
 * @param {{ whenMissing?: 'remove' | 'reload', address?: string }} [options]
 */
export async function refreshSections({ whenMissing = 'remove', address = window.location.pathname } = {}) {
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
    if (replacement) {
      section.replaceWith(document.importNode(replacement, true));
    } else if (whenMissing === 'reload') {
      window.location.reload();
      return;
    } else {
      section.remove();
    }
  }
}

/**
 * Runs changes one at a time: `busyElement` is marked busy, `before()` may refuse, the change
 * resolves with its success message, the sections are refreshed, the message is announced in
 * `status`, then `after()` runs (to place the focus). An error is announced instead.
 * @param {HTMLElement} busyElement
 * @param {HTMLElement} status
 * @param {{ before?: () => Promise<void>, whenMissing?: 'remove' | 'reload', address?: string }} [options]
 * @returns {(change: () => Promise<string>, after?: () => void) => Promise<void>}
 */
export function changeRunner(busyElement, status, options = {}) {
  let busy = false;
  return async (change, after) => {
    if (busy) return;
    busy = true;
    busyElement.setAttribute('aria-busy', 'true');
    try {
      await options.before?.();
      const message = await change();
      await refreshSections(options);
      announce(status, message, 'success');
      after?.();
    } catch (error) {
      announce(status, error instanceof Error ? error.message : String(error), 'error');
    } finally {
      busy = false;
      busyElement.removeAttribute('aria-busy');
    }
  };
}

/**
 * Focuses the element `id` when it exists (after a refresh); true when it did.
 * @param {string} [id]
 */
export function focusById(id) {
  const element = id ? document.getElementById(id) : null;
  element?.focus();
  return Boolean(element);
}

/**
 * Shows a confirmation `<dialog>` (its confirm button has `value="confirm"`), with `text` in
 * its `#confirm-text` when given; resolves with the answer.
 * @param {HTMLDialogElement | null} dialog
 * @param {string} [text]
 * @returns {Promise<boolean>}
 */
export function confirmWith(dialog, text) {
  return new Promise((resolve) => {
    if (!dialog) return resolve(false);
    const place = dialog.querySelector('#confirm-text');
    if (text !== undefined && place) place.textContent = text;
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
}

/**
 * Opens a signed file link (`Content-Disposition: attachment`): the browser
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
