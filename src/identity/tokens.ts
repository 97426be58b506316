/**
 * Tokens of the form `id.secret` (sessions, invitations, sign-in links).
 * The id finds the row; only the SHA-256 of the secret is stored, and it is compared in
 * constant time, so a leaked table gives no usable token and timing tells nothing.
 */
import crypto from 'node:crypto';

export interface IssuedToken {
  id: string;
  /** The whole token handed to the user, `id.secret`. Never stored, never logged. */
  token: string;
  secretHash: string;
}

export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('base64url');
}

export function issueToken(): IssuedToken {
  const id = crypto.randomBytes(12).toString('base64url');
  const secret = crypto.randomBytes(32).toString('base64url');
  return { id, token: `${id}.${secret}`, secretHash: hashSecret(secret) };
}

/** Splits a presented token; null when it is not of the form `id.secret`. */
export function parseToken(token: unknown): { id: string; secret: string } | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const match = /^([A-Za-z0-9_-]{8,40})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

/** A presented token, its secret already hashed: a session is looked up and checked with one hash a request. */
export interface PresentedToken {
  id: string;
  secretHash: string;
}

export function presentedToken(token: unknown): PresentedToken | null {
  const parsed = parseToken(token);
  return parsed && { id: parsed.id, secretHash: hashSecret(parsed.secret) };
}

export function hashMatches(presentedHash: string, storedHash: string): boolean {
  const presented = Buffer.from(presentedHash);
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && crypto.timingSafeEqual(presented, stored);
}

export function secretMatches(secret: string, storedHash: string): boolean {
  return hashMatches(hashSecret(secret), storedHash);
}
