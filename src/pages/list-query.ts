/**
 * A list page's query string: the parameters of the API it shows, read from the page's address
 * (a GET form sends empty fields: they are no filter) and written back into its links (pager,
 * "clear a filter"), so that a page's address is always the API's query.
 */
import { html, type SafeHtml } from './html.ts';

export type ListQuery<K extends string> = Partial<Record<K, string>>;

/** The query reduced to `names`, trimmed, empty values left out. */
export function pickQuery<K extends string>(names: readonly K[], query: unknown): ListQuery<K> {
  const out: ListQuery<K> = {};
  const source = (query ?? {}) as Record<string, unknown>;
  for (const name of names) {
    const value = source[name];
    if (typeof value === 'string' && value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

/** `path?…` with the query's `names` and the changes (undefined removes a parameter). */
export function hrefWith<K extends string>(path: string, names: readonly K[], query: ListQuery<K>, changes: Partial<Record<K, string | undefined>> = {}): string {
  const params = new URLSearchParams();
  const merged: Partial<Record<K, string | undefined>> = { ...query, ...changes };
  for (const name of names) if (merged[name]) params.set(name, merged[name]!);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** `<option>`s of a select, the selected one marked; `none` first when given (the "all" choice). */
export function options(values: readonly string[], labels: Record<string, string>, selected: string | undefined, none?: string): SafeHtml[] {
  const list = none === undefined ? [] : [html`<option value=""${!selected ? html` selected` : ''}>${none}</option>`];
  return list.concat(values.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${labels[v] ?? v}</option>`));
}

/** The pager of a keyset list: back to the first page, and the next one when there is one. */
export function pager(firstHref: string | null, nextHref: string | null, label = 'Pages de la liste', nextId = 'next-page'): SafeHtml {
  if (!firstHref && !nextHref) return html``;
  return html`<nav class="pager" aria-label="${label}">
      ${firstHref ? html`<a class="button button-secondary" href="${firstHref}">Première page</a>` : ''}
      ${nextHref ? html`<a class="button button-secondary" id="${nextId}" href="${nextHref}">Page suivante</a>` : ''}
    </nav>`;
}
