/**
 * HTML written by the server: a tagged template that escapes every interpolated value, so
 * that a member named `<img src=x onerror=alert(1)>` is shown as text. Markup passes through
 * only when it is already `SafeHtml`: the result of another `html` template, or of `raw()`,
 * the explicit escape hatch for trusted, constant markup.
 *
 * Attribute values must be written quoted (`value="${v}"`): quotes are escaped too, so a
 * value cannot leave its attribute.
 */

/** Markup known to be safe: only `html` and `raw` make it. */
export class SafeHtml {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  toString(): string {
    return this.#value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as it must appear in HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * Marks trusted markup as safe, unescaped. Never give it a value that came from a user or
 * the database.
 * @example raw('<br>')
 */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.toString();
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * The tagged template. `null`, `undefined` and `false` render as nothing (for
 * `${cond && html`…`}`), arrays are joined, `SafeHtml` is kept, anything else is escaped.
 * @example html`<td>${member.email}</td>`
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}
