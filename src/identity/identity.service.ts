/**
 * The identity provider: accounts, one-time links and sessions.
 */
import type { Database } from '../db/database.ts';
import type { StaffLevel, UserMetadata } from '../db/schema.ts';
import { identityErrors } from './identity.errors.ts';
import * as repo from './identity.repository.ts';
import { hashMatches, issueToken, parseToken, presentedToken, secretMatches, type PresentedToken } from './tokens.ts';

export const INVITE_TTL_MS = 7 * 24 * 3600_000;
export const MAGIC_LINK_TTL_MS = 3600_000;
/** A session unused this long ends (sliding: each use pushes it back, at most hourly). */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
/** A session ends this long after sign-in, however much it is used: a stolen cookie does not live forever. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;

export type OneTimeKind = 'invite' | 'magiclink';

/** Who is calling: read once per request from the session cookie; every route uses it. */
export interface Caller {
  userId: string;
  email: string;
  firstName: string | null;
  isStaff: boolean;
  staffLevel: StaffLevel | null;
  sessionId: string;
}

/** The first_name metadata, else the first word of display_name, else null. */
export function firstNameOf(metadata: UserMetadata | null | undefined): string | null {
  const first = typeof metadata?.first_name === 'string' ? metadata.first_name.trim() : '';
  if (first) return first;
  const display = typeof metadata?.display_name === 'string' ? metadata.display_name.trim() : '';
  return display ? display.split(/\s+/)[0]! : null;
}

/**
 * The account of an e-mail, created when none exists (with `preferences`, its sign-in
 * preferences are written with it, in the same statement). Safe against concurrent creation.
 *
 * Looked up first: the grants that come here are mostly of existing accounts (role changes,
 * additions), since an invitation of a new address is one statement of its own
 * (`insertNewAccountInvitation`). An existing account then costs one statement, not two.
 */
export async function ensureAccount(
  db: Database,
  email: string,
  metadata: UserMetadata,
  preferences?: repo.AuthPreferences,
): Promise<{ account: repo.Account; created: boolean }> {
  const existing = await repo.findUserByEmail(db, email);
  if (existing) return { account: existing, created: false };
  const inserted = await repo.insertUserIfAbsent(db, email, metadata, preferences);
  if (inserted) return { account: inserted, created: true };
  // Created meanwhile by a concurrent request: its insert committed before ours gave way.
  const raced = await repo.findUserByEmail(db, email);
  if (!raced) throw new Error('account vanished after a conflicting insert');
  return { account: raced, created: false };
}

/** `{PUBLIC_URL}/activate#token=…&type=…`. */
export function activationUrl(publicUrl: string, token: string, kind: OneTimeKind): string {
  return `${publicUrl}/activate#token=${encodeURIComponent(token)}&type=${kind}`;
}

/** A one-time token's row (its secret stored hashed) and the token itself, for the link. */
export interface NewOneTimeToken {
  token: string;
  row: repo.OneTimeTokenRow;
}

export function newOneTimeToken(userId: string, kind: OneTimeKind, orgId: string | null = null): NewOneTimeToken {
  const issued = issueToken();
  return {
    token: issued.token,
    row: {
      id: issued.id,
      user_id: userId,
      kind,
      org_id: orgId,
      secret_hash: issued.secretHash,
      expires_at: new Date(Date.now() + (kind === 'invite' ? INVITE_TTL_MS : MAGIC_LINK_TTL_MS)),
    },
  };
}

/**
 * Issues a fresh one-time token; older unused ones of the same kind, and for an invitation
 * of the same organization (`orgId`), stop working.
 */
export async function issueOneTimeToken(db: Database, userId: string, kind: OneTimeKind, orgId: string | null = null): Promise<string> {
  const { token, row } = newOneTimeToken(userId, kind, orgId);
  await repo.replaceOneTimeToken(db, row);
  return token;
}

/**
 * Consumes a one-time token and opens a session: the token works once, the account is
 * marked activated, and `previousSessionId` (the session the browser held, if any) ends.
 * Returns the session token to put in the cookie.
 */
export async function signInWithToken(
  db: Database,
  presented: unknown,
  previousSessionId: string | null = null,
): Promise<{ sessionToken: string; userId: string }> {
  const parsed = parseToken(presented);
  if (!parsed) throw identityErrors.invalidToken();
  return db.transaction().execute(async (trx) => {
    const row = await repo.lockOneTimeToken(trx, parsed.id);
    if (!row || row.used_at !== null || row.expired || !secretMatches(parsed.secret, row.secret_hash)) {
      throw identityErrors.invalidToken();
    }
    await repo.markOneTimeTokenUsed(trx, row.id);
    await repo.markActivated(trx, row.user_id);
    if (previousSessionId) await repo.deleteSession(trx, previousSessionId);
    const session = issueToken();
    await repo.insertSession(trx, {
      id: session.id,
      user_id: row.user_id,
      secret_hash: session.secretHash,
      expires_at: new Date(Date.now() + SESSION_TTL_MS),
    });
    return { sessionToken: session.token, userId: row.user_id };
  });
}

/**
 * Whose account a one-time token would open, without using it: `/activate` says so before
 * a browser signed in as someone else switches account. Only the token's holder learns the
 * address, and that holder could sign in with it anyway.
 */
export async function accountOfToken(db: Database, presented: unknown): Promise<{ email: string }> {
  const parsed = parseToken(presented);
  if (!parsed) throw identityErrors.invalidToken();
  const row = await repo.findOneTimeTokenAccount(db, parsed.id);
  if (!row || row.used_at !== null || row.expired || !secretMatches(parsed.secret, row.secret_hash)) {
    throw identityErrors.invalidToken();
  }
  return { email: row.email };
}

/** The caller of a session cookie, or null for none, a bad, unknown or expired session. */
export async function resolveSession(db: Database, cookie: string | undefined): Promise<Caller | null> {
  const presented = presentedToken(cookie);
  if (!presented) return null;
  return callerOfSession(db, presented, await repo.findSession(db, presented.id));
}

/**
 * The caller of a presented session token, given its session row (read by `findSession`, or
 * by a route that reads it together with what it needs): null for an unknown session, a
 * wrong secret or an expired session (deleted); the expiry is pushed back at most hourly.
 */
export async function callerOfSession(db: Database, presented: PresentedToken, row: repo.SessionRow | undefined): Promise<Caller | null> {
  if (!row || row.session_id !== presented.id || !hashMatches(presented.secretHash, row.secret_hash)) return null;
  if (row.expired) {
    await repo.deleteSession(db, row.session_id);
    return null;
  }
  if (row.renewal_due) {
    await repo.extendSession(db, row.session_id, SESSION_TTL_MS, SESSION_MAX_AGE_MS);
  }
  return {
    userId: row.user_id,
    email: row.email,
    firstName: firstNameOf(row.user_metadata),
    isStaff: row.is_staff,
    staffLevel: row.staff_level,
    sessionId: row.session_id,
  };
}

export async function endSession(db: Database, caller: Caller | null): Promise<void> {
  if (caller) await repo.deleteSession(db, caller.sessionId);
}
