/**
 * The checks every text that comes from outside goes through before it is stored, compared or
 * sent: one definition of what a name, an e-mail address and an id may hold, for every route,
 * page and command.
 */

import { hasUnsafeCharacters } from '../text.rules.ts';

export { hasUnsafeCharacters, type TextKind } from '../text.rules.ts';

/** A body field left out: absent, null or empty (its refusal is `missing_<field>`). */
export const absent = (value: unknown): boolean => value === undefined || value === null || value === '';

/** Longest first name kept (the access and staff forms, the command line). */
export const FIRST_NAME_MAX = 100;

/**
 * A first name as given (trimmed, default empty), or null when it is refused: too
 * long, or holding a character of `hasUnsafeCharacters`.
 */
export function readFirstName(raw: unknown): string | null {
  const firstName = typeof raw === 'string' ? raw.trim() : '';
  return firstName.length > FIRST_NAME_MAX || hasUnsafeCharacters(firstName) ? null : firstName;
}

/** A UUID in any case (its `source` serves SQL's `~*` too). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

/**
 * An id as the database writes it (lower case) when it is a UUID in any case; anything else
 * unchanged. Applied once to path ids at the edge (`app.ts`), so that comparisons such as
 * "is this the caller's own account" hold whatever case the client used.
 */
export function normalizeId(value: string): string {
  return isUuid(value) ? value.toLowerCase() : value;
}

/** The deepest nesting of arrays and objects a JSON body may have: ours nest 4 or 5 deep. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON `text` nests arrays and objects deeper than `max`, told by one pass over its
 * characters without parsing it (so a 4 MiB `[[[[…` costs a few microseconds, not a recursive
 * parse). Brackets inside strings do not count; malformed text is left to the parser.
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
