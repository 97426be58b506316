/**
 * The staff organization switcher: a combobox (WAI-ARIA pattern, list autocomplete) over
 * `GET /api/staff/orgs?q=`; choosing one calls `PUT /api/staff/active-org`, then the page
 * reloads on that organization. Staff serve hundreds of organizations: the list is
 * searched on the server, 20 at a time, never loaded whole.
 */
import { announce, api } from './api.js';

const SEARCH_DELAY_MS = 200;
const RESULTS = 20;

/**
 * @param {{ input: HTMLInputElement, list: HTMLUListElement, searchStatus: HTMLElement, status: HTMLElement }} parts
 */
export function wireOrgSwitcher({ input, list, searchStatus, status }) {
  /** @type {Array<{ id: string, name: string, structure_api: string | null, member_count: number }>} */
  let results = [];
  let active = -1;
  let timer = 0;
  let sequence = 0;
  let choosing = false;

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  /** @param {number} index the option to mark, -1 for none */
  function highlight(index) {
    active = index;
    for (const [i, option] of [...list.children].entries()) {
      option.setAttribute('aria-selected', i === index ? 'true' : 'false');
    }
    const option = index >= 0 ? list.children[index] : undefined;
    if (option) {
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  /** @param {string} query the text the results answer */
  function render(query) {
    list.replaceChildren(
      ...results.map((org, i) => {
        const option = document.createElement('li');
        option.id = `org-option-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.dataset.index = String(i);
        const name = document.createElement('span');
        name.className = 'option-name';
        name.textContent = org.name;
        const details = document.createElement('span');
        details.className = 'option-details';
        // The members card's words: revoked accesses are not counted.
        const members = org.member_count === 1 ? '1 membre actif ou invité' : `${org.member_count} membres actifs ou invités`;
        details.textContent = org.structure_api ? `${org.structure_api} · ${members}` : members;
        option.append(name, details);
        return option;
      }),
    );
    active = -1;
    input.removeAttribute('aria-activedescendant');
    const open = results.length > 0;
    list.hidden = !open;
    input.setAttribute('aria-expanded', open ? 'true' : 'false');
    searchStatus.textContent = open
      ? `${results.length === RESULTS ? 'Au moins ' : ''}${results.length} ${results.length === 1 ? 'organisation trouvée' : 'organisations trouvées'}.`
      : query
        ? `Aucune organisation ne correspond à « ${query} ».`
        : 'Aucune organisation.';
  }

  async function search() {
    const query = input.value.trim();
    const mine = ++sequence;
    try {
      const answer = await api('GET', `/api/staff/orgs?limit=${RESULTS}&q=${encodeURIComponent(query)}`);
      // A newer search is on its way, or the text changed meanwhile: this answer is stale.
      if (mine !== sequence || input.value.trim() !== query) return;
      results = answer.items || [];
      render(query);
    } catch (error) {
      if (mine !== sequence) return;
      close();
      announce(status, error instanceof Error ? error.message : String(error), 'error');
    }
  }

  /** @param {number} index */
  async function choose(index) {
    const org = results[index];
    if (!org || choosing) return;
    choosing = true;
    close();
    input.value = org.name;
    try {
      await api('PUT', '/api/staff/active-org', { org_id: org.id });
      announce(status, `Organisation « ${org.name} » choisie. Chargement…`, 'success');
      window.location.reload();
    } catch (error) {
      choosing = false;
      announce(status, error instanceof Error ? error.message : String(error), 'error');
    }
  }

  input.addEventListener('input', () => {
    // The results shown are those of the previous text: never let Enter pick one of them.
    results = [];
    close();
    // The count on display belonged to the previous text too.
    searchStatus.textContent = 'Recherche…';
    window.clearTimeout(timer);
    timer = window.setTimeout(search, SEARCH_DELAY_MS);
  });
  input.addEventListener('focus', () => {
    if (!results.length) search();
  });
  input.addEventListener('keydown', (event) => {
    const open = !list.hidden;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          if (results.length) render(input.value.trim());
          else search();
          if (results.length) highlight(0);
        } else highlight(Math.min(active + 1, results.length - 1));
        break;
      case 'ArrowUp':
        if (!open) return;
        event.preventDefault();
        highlight(Math.max(active - 1, 0));
        break;
      case 'Enter':
        event.preventDefault();
        if (!open) {
          // Typed faster than the search: search now; the list then opens for a choice.
          window.clearTimeout(timer);
          search();
          return;
        }
        if (active >= 0) choose(active);
        else if (results.length === 1) choose(0);
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        } else input.value = '';
        break;
      default:
    }
  });
  input.addEventListener('blur', close);
  // mousedown would move the focus away (and close the list) before the click lands.
  list.addEventListener('mousedown', (event) => event.preventDefault());
  list.addEventListener('click', (event) => {
    const option = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('[role="option"]'));
    if (option) choose(Number(option.dataset.index));
  });
}
