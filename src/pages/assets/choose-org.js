/**
 * A module page opened by staff before choosing an organization (`refusals.ts`): the switcher
 * of /vos-acces; once an organization is chosen, it reloads this same address, which then
 * shows the page asked for.
 */
import './session.js';
import { wireOrgSwitcher } from './org-switcher.js';

wireOrgSwitcher({
  input: /** @type {HTMLInputElement} */ (document.getElementById('org-search')),
  list: /** @type {HTMLUListElement} */ (document.getElementById('org-results')),
  searchStatus: /** @type {HTMLElement} */ (document.getElementById('org-search-status')),
  status: /** @type {HTMLElement} */ (document.getElementById('status')),
});
