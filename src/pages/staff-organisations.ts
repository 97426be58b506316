/**
 * `/staff/organisations` and `/staff/organisations/{id}` (gate `staff`): every organization,
 * searched by name or employer key with case and accents ignored (`listOrganizations`, the
 * service of `GET /api/staff/orgs`), in keyset pages; then one organization's settings (docs/modules.md,
 * The bulletin's APE code and URSSAF), which the page's script (`staff-organisation.js`) saves through
 * `PATCH /api/staff/orgs/{id}`, and its employees (category, cadre, PAS rate, IBAN shown as its
 * last four characters only, postal address, classification), edited through `PATCH /api/staff/orgs/{id}/salaries/{employee_id}`.
 */
import type { Database } from '../db/database.ts';
import { listEmployees } from '../employees/employees.service.ts';
import { EMPLOYEE_CATEGORIES, EMPLOYEE_DFS } from '../employees/employee.rules.ts';
import { DFS_LABELS, EMPLOYEE_CATEGORY_LABELS } from '../employees/employee.labels.ts';
import { formatRateFr, ofFr } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { labelOf } from '../format/labels.ts';
import { isUuid } from '../http/input.ts';
import { parseLimit } from '../http/list.ts';
import { CATEGORIES_JURIDIQUES, ORG_CONVENTIONS, SALARY_TRANSFER_MODES } from '../org/org-settings.rules.ts';
import { orgErrors } from '../org/org.errors.ts';
import { findOrganizationSettings } from '../org/org.repository.ts';
import { listOrganizations } from '../staff/staff-orgs.service.ts';
import { statusRegion } from './layout.ts';
import { dash, listHref, listQueryOf, listSummary, maskedIban, pageSizeAndSubmit, pagerNav, readList, selectOptions, type ListQuery } from './page-parts.ts';

// ---- the list ------------------------------------------------------------------------------

const LIST_PARAMS = ['q', 'limit', 'cursor'] as const;
type ListParam = (typeof LIST_PARAMS)[number];

type OrgRow = Awaited<ReturnType<typeof listOrganizations>>['items'][number];

export interface StaffOrgsView {
  query: ListQuery<ListParam>;
  orgs: OrgRow[];
  nextCursor: string | null;
  /** A refused search, size or cursor (the API's 400 message), shown instead of rows. */
  error: string | null;
}

export async function loadStaffOrgs(db: Database, rawQuery: unknown): Promise<StaffOrgsView> {
  const query = listQueryOf(LIST_PARAMS, rawQuery);
  const list = await readList(() => listOrganizations(db, { q: query.q, limit: parseLimit(query.limit), cursor: query.cursor }));
  return { query, orgs: list.items, nextCursor: list.nextCursor, error: list.error };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

export function renderStaffOrgs(view: StaffOrgsView): SafeHtml {
  const { query, orgs } = view;
  const summary = listSummary({
    error: view.error,
    count: orgs.length,
    filtered: Boolean(query.q),
    afterFirst: Boolean(query.cursor),
    id: 'list-summary',
    noneMatching: 'Aucune organisation ne correspond à cette recherche.',
    none: 'Aucune organisation pour le moment.',
    one: '1 organisation affichée',
    many: (n) => `${n} organisations affichées`,
    order: ', par nom.',
  });
  return html`<div class="page" id="staff-organisations">
  <h1>Organisations</h1>
  <p class="lead">Toutes les organisations clientes. Ouvrez-en une pour régler ses adresses de notification, son mode de virement, son SIRET, son adresse, ses paramètres de paie et les IBAN de ses salariés.</p>
  <section class="card" aria-labelledby="search-title">
    <h2 id="search-title" class="visually-hidden">Recherche</h2>
    <form class="form filters" method="get" action="/staff/organisations" role="search" aria-label="Rechercher une organisation">
      <div class="field field-wide">
        <label for="filter-q">Nom ou clé</label>
        <input id="filter-q" name="q" type="search" value="${query.q ?? ''}" maxlength="200" autocomplete="off" placeholder="Par exemple : theatre du soleil" aria-describedby="filter-q-hint">
        <p class="hint" id="filter-q-hint">Majuscules et accents ignorés.</p>
      </div>
      ${pageSizeAndSubmit('/staff/organisations', query.limit)}
    </form>
  </section>
  <section class="card" aria-labelledby="orgs-title">
    <h2 id="orgs-title">Liste</h2>
    ${summary}
    ${
      orgs.length
        ? html`<div class="table-wrap"><table class="table stack" id="org-table">
      <caption class="visually-hidden">Organisations, par nom</caption>
      <thead><tr><th scope="col">Organisation</th><th scope="col">Clé</th><th scope="col" class="amount">Membres</th></tr></thead>
      <tbody>${orgs.map(
        (o) => html`<tr data-org-id="${o.id}">
        <td data-label="Organisation" class="wrap"><a href="/staff/organisations/${o.id}">${o.name}</a></td>
        <td data-label="Clé" class="nowrap">${o.structure_api ?? dash}</td>
        <td data-label="Membres" class="amount">${plural(o.member_count, 'membre', 'membres')}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
        : ''
    }
    ${pagerNav({ href: (cursor) => listHref('/staff/organisations', LIST_PARAMS, query, { cursor }), current: query.cursor, next: view.nextCursor, label: 'Pages des organisations' })}
  </section>
</div>`;
}

// ---- one organization ------------------------------------------------------------------------

const ORG_PARAMS = ['salaries'] as const;
type OrgParam = (typeof ORG_PARAMS)[number];

/** How many employees a page of the organization's list shows. */
export const EMPLOYEES_PAGE = 50;

type Settings = NonNullable<Awaited<ReturnType<typeof findOrganizationSettings>>>;
type EmployeeRow = Awaited<ReturnType<typeof listEmployees>>['items'][number];

export interface StaffOrgView {
  query: ListQuery<OrgParam>;
  org: Settings;
  employees: EmployeeRow[];
  nextEmployees: string | null;
  error: string | null;
}

export async function loadStaffOrg(db: Database, orgId: string, rawQuery: unknown): Promise<StaffOrgView> {
  const org = isUuid(orgId) ? await findOrganizationSettings(db, orgId.toLowerCase()) : undefined;
  if (!org) throw orgErrors.orgNotFound();
  const query = listQueryOf(ORG_PARAMS, rawQuery);
  const employees = await readList(() => listEmployees(db, org.id, { limit: String(EMPLOYEES_PAGE), cursor: query.salaries }));
  return { query, org, employees: employees.items, nextEmployees: employees.nextCursor, error: employees.error };
}

const TRANSFER_LABELS: Record<string, string> = {
  Odentas: "Payés par l'opérateur",
  client: "Payés par l'organisation",
};
const CONVENTION_LABELS: Record<string, string> = {
  SVP: 'Spectacle vivant privé (SVP)',
  droit_commun: 'Droit commun',
};
const CATEGORIE_LABELS: Record<string, string> = {
  association: 'Association',
  SARL: 'SARL',
  SAS: 'SAS',
  SELARL: 'SELARL',
  SELAS: 'SELAS',
  EI: 'Entreprise individuelle (EI)',
  autre: 'Autre',
};

/** A text field of the settings form, its refusal box next to it (`org-<name>-error`). */
function field(
  name: string,
  label: string,
  value: string,
  options: { hint?: string; type?: string; inputmode?: string; maxlength?: number; wide?: boolean; autocomplete?: string } = {},
): SafeHtml {
  const id = `org-${name}`;
  const describedBy = options.hint ? `${id}-hint ${id}-error` : `${id}-error`;
  return html`<div class="field${options.wide ? ' field-wide' : ''}">
        <label for="${id}">${label}</label>
        <input id="${id}" name="${name}" type="${options.type ?? 'text'}"${options.inputmode ? html` inputmode="${options.inputmode}"` : ''} maxlength="${options.maxlength ?? 200}" autocomplete="${options.autocomplete ?? 'off'}" value="${value}" aria-describedby="${describedBy}">
        ${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
        <p id="${id}-error" class="field-error" hidden></p>
      </div>`;
}

function selectField(name: string, label: string, values: readonly string[], labels: Record<string, string>, selected: string): SafeHtml {
  const id = `org-${name}`;
  return html`<div class="field">
        <label for="${id}">${label}</label>
        <select id="${id}" name="${name}" aria-describedby="${id}-error">${selectOptions(values, labels, selected)}</select>
        <p id="${id}-error" class="field-error" hidden></p>
      </div>`;
}

/** A rate as its field asks for it, two decimals (`"2.30"` → `"2,30"`); empty when unset. */
const rateInput = (rate: string | null) => (rate === null ? '' : rate.replace('.', ','));

function settingsForm(org: Settings): SafeHtml {
  return html`<form id="org-form" class="card form" novalidate data-org-id="${org.id}" aria-labelledby="settings-title">
    <h2 id="settings-title">Fiche de l'organisation</h2>
    <fieldset class="fieldset">
      <legend>Notifications</legend>
      <div class="form-row">
        ${field('email_notifs', 'Destinataires (À)', org.email_notifs.join(', '), { hint: 'Les adresses qui reçoivent factures et appels de cotisations, séparées par des virgules.', maxlength: 2000, wide: true })}
        ${field('email_notifs_cc', 'En copie (Cc)', org.email_notifs_cc.join(', '), { hint: 'Séparées par des virgules ; facultatif.', maxlength: 2000, wide: true })}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Identité et virements</legend>
      <div class="form-row">
        ${field('siret', 'SIRET', org.siret ?? '', { hint: '14 chiffres.', inputmode: 'numeric', maxlength: 20 })}
        ${field('documents_slug', 'Identifiant des documents', org.documents_slug ?? '', { hint: 'Minuscules, chiffres et tirets ; unique.', maxlength: 100 })}
        ${selectField('virements_salaires', 'Virement des salaires', SALARY_TRANSFER_MODES, TRANSFER_LABELS, org.virements_salaires)}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Adresse (factures)</legend>
      <div class="form-row">
        ${field('address_line', 'Adresse', org.address_line ?? '', { wide: true, autocomplete: 'off' })}
        ${field('postcode', 'Code postal', org.postcode ?? '', { maxlength: 12 })}
        ${field('city', 'Ville', org.city ?? '', { maxlength: 100 })}
        ${field('country', 'Pays', org.country, { hint: 'Code à deux lettres : FR, BE…', maxlength: 2 })}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Paramètres de paie</legend>
      <div class="form-row">
        ${field('effectif', 'Effectif', String(org.effectif), { hint: 'Nombre de salariés, au moins 1.', inputmode: 'numeric', maxlength: 10 })}
        ${selectField('convention', 'Convention collective', ORG_CONVENTIONS, CONVENTION_LABELS, org.convention)}
        ${selectField('categorie_juridique', 'Catégorie juridique', CATEGORIES_JURIDIQUES, CATEGORIE_LABELS, org.categorie_juridique)}
        ${field('taux_at', 'Taux AT/MP (%)', rateInput(org.taux_at), { hint: 'Par exemple 2,30 ; vide : le taux par défaut.', inputmode: 'decimal', maxlength: 10 })}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Mentions du bulletin de paie</legend>
      <div class="form-row">
        ${field('ape_code', 'Code APE (NAF)', org.ape_code ?? '', { hint: 'Quatre chiffres et une lettre : 9001Z ou 90.01Z.', maxlength: 6 })}
        ${field('urssaf', 'URSSAF de recouvrement', org.urssaf ?? '', { hint: 'Par exemple : Urssaf Île-de-France.', maxlength: 120, wide: true })}
      </div>
      <p class="hint">Le bulletin imprime aussi l'adresse ci-dessus, le SIRET et la convention collective.</p>
    </fieldset>
    <div class="actions">
      <button type="submit" class="button" id="org-save">Enregistrer la fiche</button>
    </div>
    ${statusRegion('org-status')}
  </form>`;
}

function employeeForm(orgId: string, e: EmployeeRow): SafeHtml {
  const id = (name: string) => `emp-${e.id}-${name}`;
  const name = `${e.first_name} ${e.last_name}`;
  const err = (n: string) => html`<p id="${id(n)}-error" class="field-error" hidden></p>`;
  return html`<details class="employee-edit" id="edit-${e.id}">
    <summary>Modifier<span class="visually-hidden"> ${name}</span></summary>
    <form class="form" novalidate data-employee-form data-employee-id="${e.id}" data-org-id="${orgId}" data-name="${name}">
      <div class="form-row">
        <div class="field">
          <label for="${id('category')}">Catégorie</label>
          <select id="${id('category')}" name="category" aria-describedby="${id('category')}-error">${selectOptions(EMPLOYEE_CATEGORIES, EMPLOYEE_CATEGORY_LABELS, e.category ?? undefined, 'Non renseignée')}</select>
          ${err('category')}
        </div>
        <div class="field">
          <label for="${id('pas_rate')}">Taux PAS personnalisé (%)</label>
          <input id="${id('pas_rate')}" name="pas_rate" type="text" inputmode="decimal" maxlength="10" autocomplete="off" value="${rateInput(e.pas_rate)}" aria-describedby="${id('pas_rate')}-hint ${id('pas_rate')}-error">
          <p class="hint" id="${id('pas_rate')}-hint">Vide : la grille neutre.</p>
          ${err('pas_rate')}
        </div>
        <div class="field">
          <label class="checkbox" for="${id('cadre')}"><input type="checkbox" id="${id('cadre')}" name="cadre"${e.cadre ? html` checked` : ''}> Cadre</label>
          ${err('cadre')}
        </div>
        <div class="field">
          <label for="${id('dfs')}">Déduction forfaitaire spécifique</label>
          <select id="${id('dfs')}" name="dfs" aria-describedby="${id('dfs')}-hint ${id('dfs')}-error">${selectOptions(EMPLOYEE_DFS, DFS_LABELS, e.dfs ?? undefined, 'Aucune')}</select>
          <p class="hint" id="${id('dfs')}-hint">Artistes seulement, avec leur accord : abattement sur l’assiette des cotisations.</p>
          ${err('dfs')}
        </div>
      </div>
      <div class="form-row">
        <div class="field">
          <label for="${id('iban')}">${e.iban_last4 ? 'Nouvel IBAN' : 'IBAN'}</label>
          <input id="${id('iban')}" name="iban" type="text" maxlength="64" autocomplete="off" spellcheck="false" value="" aria-describedby="${id('iban')}-hint ${id('iban')}-error">
          <p class="hint" id="${id('iban')}-hint">${e.iban_last4 ? `IBAN actuel : ${maskedIban(e.iban_last4)}. Laissez vide pour le garder.` : 'Aucun IBAN : le salarié ne peut pas être payé par virement.'}</p>
          ${err('iban')}
        </div>
        <div class="field">
          <label for="${id('bic')}">BIC</label>
          <input id="${id('bic')}" name="bic" type="text" maxlength="20" autocomplete="off" spellcheck="false" value="${e.bic ?? ''}" aria-describedby="${id('bic')}-error">
          ${err('bic')}
        </div>
      </div>
      <div class="form-row">
        <div class="field field-wide">
          <label for="${id('address_line')}">Adresse</label>
          <input id="${id('address_line')}" name="address_line" type="text" maxlength="200" autocomplete="off" value="${e.address_line ?? ''}" aria-describedby="${id('address_line')}-error">
          ${err('address_line')}
        </div>
        <div class="field">
          <label for="${id('postcode')}">Code postal</label>
          <input id="${id('postcode')}" name="postcode" type="text" maxlength="12" autocomplete="off" value="${e.postcode ?? ''}" aria-describedby="${id('postcode')}-error">
          ${err('postcode')}
        </div>
        <div class="field">
          <label for="${id('city')}">Ville</label>
          <input id="${id('city')}" name="city" type="text" maxlength="100" autocomplete="off" value="${e.city ?? ''}" aria-describedby="${id('city')}-error">
          ${err('city')}
        </div>
      </div>
      <div class="form-row">
        <div class="field field-wide">
          <label for="${id('classification')}">Classification</label>
          <input id="${id('classification')}" name="classification" type="text" maxlength="120" autocomplete="off" value="${e.classification ?? ''}" aria-describedby="${id('classification')}-hint ${id('classification')}-error">
          <p class="hint" id="${id('classification')}-hint">Imprimée sur le bulletin : par exemple « Artiste interprète – groupe 2 » ou « Niveau 3 – échelon 2 ».</p>
          ${err('classification')}
        </div>
        <div class="field field-submit">
          <button type="submit" class="button">Enregistrer<span class="visually-hidden"> ${name}</span></button>
        </div>
      </div>
    </form>
  </details>`;
}

function employeesSection(view: StaffOrgView): SafeHtml {
  const { org, employees, query } = view;
  const summary = listSummary({
    error: view.error,
    count: employees.length,
    filtered: false,
    afterFirst: Boolean(query.salaries),
    id: 'employees-summary',
    noneMatching: '',
    none: 'Aucun salarié dans cette organisation pour le moment.',
    one: '1 salarié affiché',
    many: (n) => `${n} salariés affichés`,
    order: ', par nom.',
  });
  return html`<section class="card" id="employees" aria-labelledby="employees-title">
    <h2 id="employees-title">Salariés</h2>
    <p class="hint">L'IBAN n'est jamais réaffiché : seuls ses quatre derniers caractères le sont. Un salarié sans IBAN ne peut pas être payé par virement.</p>
    ${summary}
    ${statusRegion('employees-status')}
    ${
      employees.length
        ? html`<div class="table-wrap"><table class="table stack" id="employee-table">
      <caption class="visually-hidden">Salariés ${ofFr(org.name)}, par nom</caption>
      <thead><tr><th scope="col">Salarié</th><th scope="col">Catégorie</th><th scope="col">Cadre</th><th scope="col">Taux PAS</th><th scope="col">IBAN</th><th scope="col">Modifier</th></tr></thead>
      <tbody>${employees.map(
        (e) => html`<tr data-employee-id="${e.id}">
        <td data-label="Salarié" class="wrap">${e.last_name} ${e.first_name}</td>
        <td data-label="Catégorie" class="cell-category">${e.category ? labelOf(EMPLOYEE_CATEGORY_LABELS, e.category) : dash}</td>
        <td data-label="Cadre" class="cell-cadre">${e.cadre ? 'Oui' : 'Non'}</td>
        <td data-label="Taux PAS" class="cell-pas_rate">${e.pas_rate === null ? 'Grille neutre' : formatRateFr(e.pas_rate)}</td>
        <td data-label="IBAN" class="nowrap cell-iban">${maskedIban(e.iban_last4)}</td>
        <td data-label="Modifier" class="cell-edit">${employeeForm(org.id, e)}</td>
      </tr>`,
      )}</tbody>
    </table></div>`
        : ''
    }
    ${pagerNav({ href: (salaries) => listHref(`/staff/organisations/${org.id}`, ORG_PARAMS, query, { salaries }, '#employees'), current: query.salaries, next: view.nextEmployees, label: 'Pages des salariés', id: 'next-employees' })}
  </section>`;
}

export function renderStaffOrg(view: StaffOrgView): SafeHtml {
  const { org } = view;
  return html`<div class="page" id="staff-organisation">
  <p class="breadcrumb"><a href="/staff/organisations">← Toutes les organisations</a></p>
  <h1>${org.name}</h1>
  <p class="lead">${org.structure_api ? html`Clé : <strong>${org.structure_api}</strong>. ` : ''}Chaque modification est vérifiée comme par l'API et inscrite au journal.</p>
  ${settingsForm(org)}
  ${employeesSection(view)}
</div>`;
}
