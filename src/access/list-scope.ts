/**
 * `GET /api/access` in one round trip (the route sets `readsOwnSession`): one query reads the
 * session, the caller's organization, the caller's membership there and the list itself. This
 * reader hands what it read to the gate hook, which decides with the same `can()` as every
 * route; the list only spares a second query once the gate has let the caller through.
 */
import type { FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { callerOfSession, resolveSession } from '../identity/identity.service.ts';
import { SESSION_COOKIE } from '../identity/session.plugin.ts';
import { hashSecret, parseToken } from '../identity/tokens.ts';
import { staffOrgHints } from '../org/resolution.ts';
import type { ScopeFacts } from '../org/scope.ts';
import { readSessionScopeList, type SessionScopeListRow } from './access.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** `GET /api/access`: the list, when the query that read the session could read it. */
    accessListJson: string | null;
  }
}

/**
 * Reads the session, the scope and the list (SPEC 4.3: for staff, the first hint when it is an
 * id). Returns null when the query cannot settle the scope (a staff hint naming an
 * organization by key or name, a failed read): the gate then resolves it the usual way.
 */
export async function readListScope(request: FastifyRequest): Promise<ScopeFacts | null> {
  const { db } = request.server;
  const cookie = request.cookies[SESSION_COOKIE];
  const parsed = parseToken(cookie);
  request.caller = null;
  if (!parsed) return { caller: null, orgId: null, membership: undefined };
  const firstHint = staffOrgHints(request.cookies, request.headers)[0];
  const staffOrgId = firstHint?.kind === 'id' ? firstHint.value : null;
  let row: SessionScopeListRow | undefined;
  try {
    row = await readSessionScopeList(db, { sessionId: parsed.id, secretHash: hashSecret(parsed.secret), staffOrgId });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    request.caller = await resolveSession(db, cookie);
    return null;
  }
  const caller = await callerOfSession(db, parsed, row);
  request.caller = caller;
  if (!caller || !row) return { caller: null, orgId: null, membership: undefined };
  if (caller.isStaff && firstHint && firstHint.kind !== 'id') return null;
  request.accessListJson = row.items;
  const membership = row.member_role === null ? undefined : { role: row.member_role, revoked: row.member_revoked === true };
  return { caller, orgId: row.org_id, membership };
}

