/**
 * A refused value shown next to its field, in words about what was typed. The
 * messages themselves are in `assets/field-messages.js`, the one place both the pages' scripts
 * and the server read them from; this module places a list filter's refusal (the API's 400,
 * kept by `readList`) on the filter field it names, and writes the field's error markup
 * (`aria-invalid`, `aria-describedby` → the error box under the field).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { html, type SafeHtml } from '../format/html.ts';
import { ASSETS_DIR } from './assets.ts';
import type * as Messages from './assets/field-messages.js';
import type { FieldKind } from './assets/field-messages.js';
import type { Refusal } from './page-parts.ts';

// The browser's module itself, read from the assets folder as the pages serve it: the build
// (`npm start`) compiles the TypeScript into dist/ and copies no asset, so a static import of
// `./assets/field-messages.js` would find nothing there.
const messages = (await import(pathToFileURL(path.join(ASSETS_DIR, 'field-messages.js')).href)) as typeof Messages;
export const { dateProblem, fieldMessage, frDate, periodProblem, periodText } = messages;

/** A refusal placed on a field of a form: the field's name (its query parameter), the message. */
export interface FieldError {
  field: string;
  message: string;
  /** What the list says instead of its rows: that the field named is to correct. */
  summary: string;
}

/** A filter field of a list page: what it takes, what was typed, its visible label. */
export interface FilterField {
  kind: FieldKind;
  typed: string | undefined;
  label: string;
}

/**
 * The list's refusal placed on the filter field it is about: the API's `field` when it names
 * one (`from`, `to`), else the field its code names (`invalid_period` → `period`,
 * `invalid_status` → `status`). Null when no field of the form is concerned (a cursor from an
 * old link): the page then shows the API's message above the list, as before.
 */
export function filterFieldError(refusal: Refusal | null, fields: Record<string, FilterField>): FieldError | null {
  if (!refusal) return null;
  const name = refusal.field ?? refusal.code.replace(/^(missing|invalid)_/, '');
  const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!field) return null;
  return {
    field: name,
    message: fieldMessage({ code: refusal.code, message: refusal.message, kind: field.kind, typed: field.typed ?? '' }),
    summary: `Liste non affichée : corrigez le filtre « ${field.label} ».`,
  };
}

/** The message of `name`'s field, when the error is about it. */
export function messageOf(error: FieldError | null | undefined, name: string): string | null {
  return error && error.field === name ? error.message : null;
}

/**
 * A field's accessibility attributes: ` aria-describedby="<hint> <id>-error"` (the error box
 * only when there is a message) and ` aria-invalid="true"` when refused.
 */
export function fieldAttrs(id: string, message: string | null, hintId?: string): SafeHtml {
  const described = [hintId, message ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return html`${described ? html` aria-describedby="${described}"` : ''}${message ? html` aria-invalid="true"` : ''}`;
}

/** The error box under a field (`<id>-error`), hidden when there is no message. */
export function fieldErrorBox(id: string, message: string | null): SafeHtml {
  return html`<p id="${id}-error" class="field-error"${message ? '' : html` hidden`}>${message ?? ''}</p>`;
}
