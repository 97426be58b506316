/**
 * Scope readers: the gate's facts read in one statement instead of three (the route sets
 * `config: { gate, readsOwnSession: true, scopeReader }`). `readScope` serves the hot
 * organization routes (`POST /api/access` and its siblings, the contracts grid);
 * `access/list-scope.ts` reads `GET /api/access`'s list in the same statement. Both stand on
 * `readSessionAndScope`. Measured in bench/README.md.
 */
import type { FastifyRequest } from 'fastify';
import { readSessionScope, type SessionScopeListRow } from '../access/access.repository.ts';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { callerOfSession, resolveSession, type Caller } from '../identity/identity.service.ts';
import { SESSION_COOKIE } from '../identity/session.plugin.ts';
import { hashSecret, parseToken } from '../identity/tokens.ts';
import type { MembershipFact, ScopeFacts } from './scope.ts';

const NOBODY: ScopeFacts = { caller: null, orgId: null, membership: undefined };

/** What one statement read with the session, or what the gate is to be told without it. */
export type SessionRead = { caller: Caller; row: SessionScopeListRow } | { settled: ScopeFacts | null };

/**
 * Reads the session cookie's session and, in the same statement (`read`), the caller's scope;
 * sets `request.caller`. No valid session: settled as nobody (401). A failed read other than
 * an unavailable database: settled null (the gate resolves the scope the usual way).
 */
export async function readSessionAndScope(
  request: FastifyRequest,
  read: (db: Database, session: { sessionId: string; secretHash: string }) => Promise<SessionScopeListRow | undefined>,
): Promise<SessionRead> {
  const { db } = request.server;
  const cookie = request.cookies[SESSION_COOKIE];
  const parsed = parseToken(cookie);
  request.caller = null;
  if (!parsed) return { settled: NOBODY };
  let row: SessionScopeListRow | undefined;
  try {
    row = await read(db, { sessionId: parsed.id, secretHash: hashSecret(parsed.secret) });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    request.caller = await resolveSession(db, cookie);
    return { settled: null };
  }
  const caller = await callerOfSession(db, parsed, row);
  request.caller = caller;
  if (!caller || !row) return { settled: NOBODY };
  return { caller, row };
}

/** The caller's membership as the statement read it. */
export function membershipOfRow(row: SessionScopeListRow): MembershipFact {
  return row.member_role === null ? undefined : { role: row.member_role, revoked: row.member_revoked === true };
}

/**
 * The gate's facts for an organization route: the session, the caller's organization
 * (`get_my_org`) and membership there, in the statement `GET /api/access` uses, without the
 * list. Only a member with an organization is settled here; for anyone else (staff, whose
 * organization may come from hints by key or name, a saved choice or the body; a member
 * without an organization, where a route's fallback applies) it returns null with
 * `request.caller` set, and the gate resolves the scope the usual way.
 */
export async function readScope(request: FastifyRequest): Promise<ScopeFacts | null> {
  const read = await readSessionAndScope(request, (db, session) => readSessionScope(db, { ...session, staffOrgId: null }));
  if ('settled' in read) return read.settled;
  const { caller, row } = read;
  if (caller.isStaff || row.org_id === null) return null;
  return { caller, orgId: row.org_id, membership: membershipOfRow(row), orgName: row.org_name };
}
