/**
 * What the staff's money pages (`/staff/facturation`, `/staff/virements`) share: the choice of
 * an organization among all of them (they span every organization), and the "select all on
 * this page" box of a list whose rows carry a checkbox (`assets/selection.js`).
 */
import type { Database } from '../db/database.ts';
import { searchOrganizations } from '../org/org.repository.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { pageSizeAndSubmit, selectOptions } from './page-parts.ts';

export type OrgChoice = { id: string; name: string; structure_api: string | null };

/** How many organizations the filter offers (by name): the switcher's search finds the others. */
export const ORG_CHOICES_MAX = 1000;

export async function loadOrgChoices(db: Database): Promise<OrgChoice[]> {
  return (await searchOrganizations(db, '', ORG_CHOICES_MAX)).map(({ id, name, structure_api }) => ({ id, name, structure_api }));
}

/** A select of every organization, "Toutes les organisations" (or `none`) first; `describedBy`: its hint and error. */
export function orgSelect(
  id: string,
  orgs: readonly OrgChoice[],
  selected: string | undefined,
  none = 'Toutes les organisations',
  describedBy?: string,
): SafeHtml {
  const labels = Object.fromEntries(orgs.map((o) => [o.id, o.structure_api ? `${o.name} (${o.structure_api})` : o.name]));
  return html`<select id="${id}" name="org_id"${describedBy ? html` aria-describedby="${describedBy}"` : ''}>${selectOptions(
    orgs.map((o) => o.id),
    labels,
    selected?.toLowerCase(),
    none,
  )}</select>`;
}

/** The box that checks every row of the page (`what`: "facture", "bulletin"). */
export function selectAllBox(what: string): SafeHtml {
  return html`<p class="select-all"><label class="checkbox" for="select-all"><input type="checkbox" id="select-all"> Tout sélectionner sur cette page<span class="visually-hidden"> (chaque ${what} affiché${what === 'facture' ? 'e' : ''})</span></label></p>`;
}

/**
 * A staff list's filters as a plain GET form to `path`: the organization, the page's own
 * `fields`, the page size, "Filtrer" and "Effacer".
 */
export function staffFilterForm(
  path: string,
  label: string,
  orgs: readonly OrgChoice[],
  query: { org_id?: string; limit?: string },
  fields: SafeHtml,
  orgError: string | null = null,
): SafeHtml {
  return html`<form class="form filters" method="get" action="${path}" role="search" aria-label="${label}">
    <div class="field field-wide">
      <label for="filter-org">Organisation</label>
      ${orgSelect('filter-org', orgs, query.org_id, undefined, orgError ? 'filter-org-error' : undefined)}
      ${orgError ? html`<p id="filter-org-error" class="field-error">${orgError}</p>` : ''}
    </div>
    ${fields}
    ${pageSizeAndSubmit(path, query.limit)}
  </form>`;
}
