/**
 * The one rule on the characters of a text that comes from outside, below every layer: the
 * request checks (`http/input.ts`, `http/text-rule.ts`) and the configuration, where the
 * operator's settings have their defaults (`operator.rules.ts`), apply the same rule.
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
