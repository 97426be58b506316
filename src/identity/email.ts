/** E-mail addresses as accounts know them: trimmed, lower-case, and plausible. */
import { hasUnsafeCharacters } from '../http/input.ts';

export function normalizeEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/;

/**
 * A deliberately loose check: one @, a dotted domain, nothing that breaks a mail header, and
 * none of the characters no text may hold (a lone surrogate would be stored as U+FFFD, and
 * the e-mail would go to another address than the one typed).
 */
export function isPlausibleEmail(email: string): boolean {
  return email.length <= 254 && ADDRESS.test(email) && !hasUnsafeCharacters(email);
}
