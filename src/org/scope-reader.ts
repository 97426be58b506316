/**
 * A `scopeReader` for organization routes (`config: { gate, readsOwnSession: true, scopeReader:
 * readScope }`): the gate's facts in one statement instead of three. Used by the hot routes
 * (`POST /api/access` and its siblings, the contracts grid); measured in bench/README.md.
 */
import type { FastifyRequest } from 'fastify';
import { readSessionScope, type SessionScopeListRow } from '../access/access.repository.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { callerOfSession, resolveSession } from '../identity/identity.service.ts';
import { SESSION_COOKIE } from '../identity/session.plugin.ts';
import { hashSecret, parseToken } from '../identity/tokens.ts';
import type { ScopeFacts } from './scope.ts';

/**
 * The gate's facts for an organization route in one round trip (the route sets
 * `readsOwnSession` and `scopeReader: readScope`): the session, the caller's organization
 * (`get_my_org`) and membership there, in the statement `GET /api/access` uses, without the
 * list. Only a member with an organization is settled here; for anyone else (staff, whose
 * organization may come from hints by key or name, a saved choice or the body; a member
 * without an organization, where a route's fallback applies) it returns null with
 * `request.caller` set, and the gate resolves the scope the usual way.
 */
export async function readScope(request: FastifyRequest): Promise<ScopeFacts | null> {
  const { db } = request.server;
  const cookie = request.cookies[SESSION_COOKIE];
  const parsed = parseToken(cookie);
  request.caller = null;
  if (!parsed) return { caller: null, orgId: null, membership: undefined };
  let row: SessionScopeListRow | undefined;
  try {
    row = await readSessionScope(db, { sessionId: parsed.id, secretHash: hashSecret(parsed.secret), staffOrgId: null });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    request.caller = await resolveSession(db, cookie);
    return null;
  }
  const caller = await callerOfSession(db, parsed, row);
  request.caller = caller;
  if (!caller || !row) return { caller: null, orgId: null, membership: undefined };
  if (caller.isStaff || row.org_id === null) return null;
  const membership = row.member_role === null ? undefined : { role: row.member_role, revoked: row.member_revoked === true };
  return { caller, orgId: row.org_id, membership };
}
