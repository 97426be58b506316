/** E-mail addresses as accounts know them: trimmed, lower-case (SPEC 4.2), and plausible. */

export function normalizeEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/;

/** A deliberately loose check: one @, a dotted domain, nothing that breaks a mail header. */
export function isPlausibleEmail(email: string): boolean {
  return email.length <= 254 && ADDRESS.test(email) && !/[\u0000-\u001f\u007f]/.test(email);
}
