/**
 * The checks every text that comes from outside goes through before it is stored, compared or
 * sent: one definition of what a name, an e-mail address and an id may hold, for every route,
 * page and command.
 */

/**
 * Characters no name, address or hint may hold: C0 and C1 controls (NUL, which PostgreSQL
 * cannot store; CR/LF, which break mail headers; U+0085), DEL, the bidirectional marks,
 * embeddings, overrides and isolates (U+202E shows "moc.elpmaxe" as "example.com"), line and
 * paragraph separators, and a lone UTF-16 surrogate (stored as U+FFFD, so another text than
 * the one typed), and U+FFFE and U+FFFF, which XML 1.0 cannot carry (an invoice's factur-x.xml).
 * `u` makes `\p{Cs}` match only a surrogate that is not half of a pair.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffe\uffff]|\p{Cs}/u;

/** The same, less the line feed and the tab: a multi-line text (a note) may hold those two. */
const UNSAFE_MULTILINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffe\uffff]|\p{Cs}/u;

/**
 * The one check of every text that comes from outside: names, addresses, hints, every string
 * field of every body and every query parameter (`text-rule.ts` applies it to each), and every
 * key of a list cursor (`list.ts`). `multiline` lets a line feed and a tab through (a note).
 */
export function hasUnsafeCharacters(text: string, kind: TextKind = 'line'): boolean {
  return (kind === 'multiline' ? UNSAFE_MULTILINE : UNSAFE).test(text);
}

/** What a text field holds: one line (every field unless it says otherwise), or several. */
export type TextKind = 'line' | 'multiline';

/** Longest first name kept (the access and staff forms, the command line). */
/** A body field left out: absent, null or empty (its refusal is `missing_<field>`). */
export const absent = (value: unknown): boolean => value === undefined || value === null || value === '';

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
      if (c === 0x5c) i++; // a backslash: the next character is escaped
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
