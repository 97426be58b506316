/**
 * /vos-acces. The page arrives complete from the server; this script sends changes to the
 * API (same-origin JSON), says what happened in the live region, and swaps in the sections
 * of a fresh copy of the page, so that what is shown is always what the server holds.
 */
import { announce, api, ApiError, emailProblem, setFieldError } from './api.js';
import { changeRunner, confirmWith, focusById } from './session.js';
import { wireOrgSwitcher } from './org-switcher.js';

const root = /** @type {HTMLElement} */ (document.getElementById('vos-acces'));
const status = /** @type {HTMLElement} */ (document.getElementById('status'));
// The result of an invitation or of a change to a member is said where the action is: at the
// top of the members card, beside the invite form.
const membersStatus = document.getElementById('members-status') ?? status;
const pageOrgId = root.dataset.orgId || '';

const orgSearch = /** @type {HTMLInputElement | null} */ (document.getElementById('org-search'));
if (orgSearch) {
  wireOrgSwitcher({
    input: orgSearch,
    list: /** @type {HTMLUListElement} */ (document.getElementById('org-results')),
    searchStatus: /** @type {HTMLElement} */ (document.getElementById('org-search-status')),
    status,
  });
}

// Staff: back to no organization, the global view of every membership.
document.getElementById('org-clear')?.addEventListener('click', async () => {
  try {
    await api('DELETE', '/api/staff/active-org');
    announce(status, 'Vue globale choisie. Chargement…', 'success');
    window.location.reload();
  } catch (error) {
    announce(status, error instanceof Error ? error.message : String(error), 'error');
  }
});

/**
 * Addresses as the server keeps them (trimmed, lower case), in every message.
 * @param {string} value
 */
function normalEmail(value) {
  return value.trim().toLowerCase();
}

/**
 * A staff member may have chosen another organization in another tab since this page was
 * shown: a change must not land in an organization the page does not show.
 */
async function ensureSameOrganization() {
  const me = await api('GET', '/api/me');
  if ((me.active_org?.id ?? '') !== pageOrgId) {
    throw new ApiError(409, 'stale_page', "L'organisation active a changé depuis l'affichage de cette page : rechargez la page avant de continuer.");
  }
}

/**
 * Focuses the first of these elements that exists (after a refresh), else the members heading.
 * @param {...string} ids
 */
function focusFirst(...ids) {
  if (!ids.some(focusById)) focusById('members-title');
}

/** Runs one change: checks the organization, calls the API, refreshes, announces, then `after()` (focus). */
const perform = changeRunner(root, membersStatus, { before: ensureSameOrganization, whenMissing: 'reload' });

// ---- members table: role change, re-activation, re-sending, revocation ----------------

const dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById('confirm'));

root.addEventListener('click', async (event) => {
  const button = /** @type {HTMLButtonElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('button[data-action]'));
  if (!button) return;
  const row = /** @type {HTMLTableRowElement} */ (button.closest('tr'));
  const { userId, email, role: currentRole } = row.dataset;
  const select = /** @type {HTMLSelectElement | null} */ (row.querySelector('[data-role-select]'));
  const action = button.dataset.action;

  if (action === 'change-role' || action === 'reactivate') {
    if (!select) return;
    const role = select.value;
    const label = select.selectedOptions[0]?.textContent ?? role;
    if (action === 'change-role' && role === currentRole) {
      announce(membersStatus, `${email} a déjà le rôle « ${label} » : choisissez un autre rôle dans la liste.`, 'error');
      select.focus();
      return;
    }
    await perform(
      async () => {
        await api('POST', '/api/access', { email, role });
        const ofEmail = select.dataset.ofEmail;
        return action === 'reactivate' ? `Accès ${ofEmail} rétabli, rôle « ${label} ».` : `Rôle ${ofEmail} changé : « ${label} ».`;
      },
      () => focusFirst(`change-role-${userId}`),
    );
  } else if (action === 'resend') {
    await perform(
      async () => {
        const answer = await api('POST', `/api/access/${encodeURIComponent(userId ?? '')}/resend`);
        return `${answer.message} à ${email}.`;
      },
      () => focusFirst(`resend-${userId}`, `revoke-${userId}`),
    );
  } else if (action === 'revoke') {
    const orgName = root.dataset.orgName || "l'organisation";
    const confirmed = await confirmWith(dialog, `${email} perdra immédiatement son accès à ${orgName}. Vous pourrez le rétablir plus tard.`);
    if (!confirmed) {
      button.focus();
      return;
    }
    await perform(
      async () => {
        const answer = await api('DELETE', `/api/access/${encodeURIComponent(userId ?? '')}`);
        return `${answer.message} : ${email}.`;
      },
      () => focusFirst(`reactivate-${userId}`),
    );
  }
});

// ---- invite form -------------------------------------------------------------------------

const inviteForm = /** @type {HTMLFormElement | null} */ (document.getElementById('invite-form'));
if (inviteForm) {
  const emailInput = /** @type {HTMLInputElement} */ (inviteForm.elements.namedItem('email'));
  const firstNameInput = /** @type {HTMLInputElement} */ (inviteForm.elements.namedItem('first_name'));
  inviteForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const email = normalEmail(emailInput.value);
    const problem = emailProblem(email);
    setFieldError(emailInput, problem);
    if (problem) {
      emailInput.focus();
      return;
    }
    await perform(
      async () => {
        try {
          // Read now: a refresh replaces the list (SUPER_ADMIN leaves it once given).
          const role = /** @type {HTMLSelectElement} */ (inviteForm.elements.namedItem('role')).value;
          const body = { email, first_name: firstNameInput.value.trim(), role };
          // Staff give an organization its SUPER_ADMIN through the staff route.
          const answer = await api('POST', role === 'SUPER_ADMIN' ? '/api/access/nouveau' : '/api/access', body);
          inviteForm.reset();
          return `${answer.message} : ${email}.`;
        } catch (error) {
          if (error instanceof ApiError && ['missing_email', 'invalid_email'].includes(error.code)) setFieldError(emailInput, error.message);
          throw error;
        }
      },
      () => /** @type {HTMLInputElement} */ (inviteForm.elements.namedItem('email')).focus(),
    );
  });
}
