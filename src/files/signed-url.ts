/**
 * Signed file URLs: `{PUBLIC_URL}/files/{id}?exp=<unix seconds>&sig=<sig>`, `sig` the
 * base64url (no padding) HMAC-SHA256 of `{id}:{exp}`. A link to hand to a browser: it needs no
 * session, so the signature is the whole authorization, and it is checked in constant time.
 */
import crypto from 'node:crypto';

/** How long a link stays valid. */
export const SIGNED_URL_SECONDS = 5 * 60;

export function fileSignature(key: Buffer, id: string, exp: number | string): string {
  return crypto.createHmac('sha256', key).update(`${id}:${exp}`).digest('base64url');
}

export function signFileUrl(key: Buffer, publicUrl: string, id: string, now = Date.now()): { url: string; expires_at: string } {
  const exp = Math.floor(now / 1000) + SIGNED_URL_SECONDS;
  const url = `${publicUrl}/files/${encodeURIComponent(id)}?exp=${exp}&sig=${fileSignature(key, id, exp)}`;
  return { url, expires_at: new Date(exp * 1000).toISOString() };
}

/**
 * `url` with any signature replaced by `[redacted]`, for the logs: the link downloads the file
 * without a session until it expires, so its signature is a credential like a session cookie.
 * Any other URL comes back as it was (checked first: this runs on every request logged).
 */
export function redactFileSignature(url: string): string {
  return url.includes('sig=') ? url.replace(/([?&]sig=)[^&#]*/g, '$1[redacted]') : url;
}

/**
 * True when `sig` is ours for this `id` and `exp` and `exp` is still ahead. Any other input
 * (a changed id, exp or sig, a missing one, a past exp) is false: the route answers 403.
 */
export function verifyFileUrl(key: Buffer, id: string, exp: unknown, sig: unknown, now = Date.now()): boolean {
  if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') return false;
  const expected = Buffer.from(fileSignature(key, id, exp));
  const given = Buffer.from(sig);
  // timingSafeEqual needs equal lengths; the length of a valid signature is no secret.
  const valid = given.length === expected.length && crypto.timingSafeEqual(given, expected);
  return valid && Number(exp) * 1000 > now;
}
