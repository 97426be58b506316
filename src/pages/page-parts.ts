/**
 * Pieces every module page shares (contracts, payslips, invoices, the staff pages): the
 * organization line, a dash for no value, amounts, `<option>` lists, a list's query string
 * and its keyset pager, a list read through its service with a refused filter shown as a
 * message, and every employee of an organization. A page-specific piece stays in its page.
 */
import type { Database } from '../db/database.ts';
import { listEmployees } from '../employees/employees.service.ts';
import { formatEuros } from '../format/french.ts';
import { AppError } from '../http/errors.ts';
import { MAX_LIMIT } from '../http/list.ts';
import type { Money } from '../money/money.ts';
import { html, type SafeHtml } from '../format/html.ts';

export type Org = { id: string; name: string; structure_api: string | null };

/** Page sizes a list offers (200 at most, the API's limit). */
export const PAGE_SIZES = ['50', '100', String(MAX_LIMIT)] as const;

/** No value. */
export const dash = html`<span class="muted">—</span>`;

/** `1 234,50 €`, or a dash. */
export interface ListSummary {
  /** The list's error (a filter the API refused), shown instead of the rest. */
  error?: string | null;
  count: number;
  /** Whether a filter is set: an empty list then says nothing matches. */
  filtered: boolean;
  /** Whether this is a page after the first. */
  afterFirst: boolean;
  /** `id` of the count paragraph (tests and the refresh find it). */
  id: string;
  /** Empty with a filter, empty without one. */
  noneMatching: string;
  none: string;
  /** "1 contrat affiché" / "N contrats affichés". */
  one: string;
  many: (count: number) => string;
  /** ", du plus récent au plus ancien." */
  order: string;
}

/** What a list page says above its table: the error, that it is empty, or how many rows it shows. */
export function listSummary(l: ListSummary): SafeHtml {
  if (l.error) return html`<p class="status" data-kind="error" role="alert">${l.error}</p>`;
  if (l.count === 0) return html`<p>${l.filtered ? l.noneMatching : l.none}</p>`;
  return html`<p class="muted" id="${l.id}">${l.count === 1 ? l.one : l.many(l.count)}${l.afterFirst ? ' (page suivante)' : ''}${l.order}</p>`;
}

/** An IBAN as pages show it, never whole: `FR76…0189` shown as `•••• 0189`; none, a dash. */
export function maskedIban(last4: string | null): string {
  return last4 ? `•••• ${last4}` : '—';
}

export function euros(value: Money | null): SafeHtml | string {
  return value === null ? dash : formatEuros(value);
}

/** "Organisation : X", with staff's way back to the organization choice. */
export function orgLine(org: Org | undefined, isStaff: boolean): SafeHtml {
  if (!org) return html``;
  return html`<p class="lead">Organisation : <strong>${org.name}</strong>${isStaff ? html` <a href="/vos-acces" class="small-link">(changer)</a>` : ''}</p>`;
}

/** The `<option>`s of a select, `none` first (the empty value) when given. */
export function selectOptions(values: readonly string[], labels: Record<string, string>, selected: string | undefined, none?: string): SafeHtml[] {
  const list = none === undefined ? [] : [html`<option value=""${!selected ? html` selected` : ''}>${none}</option>`];
  return list.concat(values.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${labels[v] ?? v}</option>`));
}

/** The "N par page" select's labels. */
export const PAGE_SIZE_LABELS: Record<string, string> = Object.fromEntries(PAGE_SIZES.map((s) => [s, `${s} par page`]));

/** The end of a list's filter form: the page size, "Filtrer", and "Effacer" (back to `path` without filters). */
export function pageSizeAndSubmit(path: string, limit: string | undefined): SafeHtml {
  return html`<div class="field">
      <label for="filter-limit">Affichage</label>
      <select id="filter-limit" name="limit">${selectOptions(PAGE_SIZES, PAGE_SIZE_LABELS, limit ?? PAGE_SIZES[0])}</select>
    </div>
    <div class="field field-submit actions">
      <button type="submit" class="button" id="filter-submit">Filtrer</button>
      <a class="button button-secondary" href="${path}">Effacer</a>
    </div>`;
}

export type ListQuery<P extends string> = Partial<Record<P, string>>;

/** A page's query string reduced to a list's parameters, empty values left out (a GET form sends them). */
export function listQueryOf<P extends string>(names: readonly P[], query: unknown): ListQuery<P> {
  const out: ListQuery<P> = {};
  const source = (query ?? {}) as Record<string, unknown>;
  for (const name of names) {
    const value = source[name];
    if (typeof value === 'string' && value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

/** The address of a list page with some parameters changed (`undefined` removes one). */
export function listHref<P extends string>(
  path: string,
  names: readonly P[],
  query: ListQuery<P>,
  changes: Partial<Record<P, string | undefined>>,
  hash = '',
): string {
  const params = new URLSearchParams();
  const merged: Partial<Record<P, string | undefined>> = { ...query, ...changes };
  for (const name of names) {
    const value = merged[name];
    if (value) params.set(name, value);
  }
  const text = params.toString();
  return `${text ? `${path}?${text}` : path}${hash}`;
}

/**
 * The keyset pager: back to the first page when on a later one, on to the next when the
 * service answered a `next_cursor`. `href(cursor)` writes the address of a page.
 */
export function pagerNav(options: {
  href: (cursor: string | undefined) => string;
  current: string | undefined;
  next: string | null;
  id?: string;
  label?: string;
}): SafeHtml {
  const { href, current, next } = options;
  if (!current && !next) return html``;
  return html`<nav class="pager" aria-label="${options.label ?? 'Pages de la liste'}">
      ${current ? html`<a class="button button-secondary" href="${href(undefined)}">Première page</a>` : ''}
      ${next ? html`<a class="button button-secondary" id="${options.id ?? 'next-page'}" href="${href(next)}">Page suivante</a>` : ''}
    </nav>`;
}

export interface ListRead<T> {
  items: T[];
  nextCursor: string | null;
  /** A refused filter (the API's 400 message): the page shows it instead of rows. */
  error: string | null;
  /** The same refusal as the API answers it (`error`, `field`, `message`), for the page to place it next to its field (`field-messages.ts`). */
  refusal: Refusal | null;
}

/** An API refusal as its body says it: the code, the input it names (when it does), the message. */
export type Refusal = { code: string; field?: string; message: string };

/** A list page read through its service (`{ items, next_cursor }`); a 400 (a filter the API refuses) becomes the message. */
export async function readList<T>(read: () => Promise<{ items: T[]; next_cursor: string | null }>): Promise<ListRead<T>> {
  try {
    const page = await read();
    return { items: page.items, nextCursor: page.next_cursor, error: null, refusal: null };
  } catch (error) {
    if (error instanceof AppError && error.status === 400) {
      const message = error.userMessage ?? error.code;
      const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
      return { items: [], nextCursor: null, error: message, refusal: { code: error.code, message, ...(field ? { field } : {}) } };
    }
    throw error;
  }
}

/**
 * The CSV export of a list (`href`: its API route with the page's current filters),
 * a plain link the browser downloads (the answer says `attachment`).
 */
export function csvLink(href: string, what: string, id: string): SafeHtml {
  return html`<p class="csv-export"><a class="button button-small button-secondary" id="${id}" href="${href}" download>Exporter (CSV)<span class="visually-hidden"> : ${what}</span></a></p>`;
}

export type EmployeeOption = Awaited<ReturnType<typeof listEmployees>>['items'][number];

/** Every employee of the organization by name, page after page (a form's or a filter's list). */
export async function allEmployees(db: Database, orgId: string): Promise<EmployeeOption[]> {
  const out: EmployeeOption[] = [];
  let cursor: string | undefined;
  // 25 pages of 200: far beyond a performing-arts employer's staff.
  for (let i = 0; i < 25; i++) {
    const page = await listEmployees(db, orgId, { limit: String(MAX_LIMIT), ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return out;
}
