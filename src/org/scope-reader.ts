/**
 * Scope readers: the gate's facts read in one statement instead of three (the route sets
 * `config: { gate, readsOwnSession: true, scopeReader }`). `readScope` serves the hot
 * organization routes (`POST /api/access` and its siblings); `readScopeWithPage` adds a list's
 * page to the statement (the contracts grid, `contracts/grid-scope.ts`), and
 * `access/list-scope.ts` reads `GET /api/access`'s list in it. All stand on
 * `readSessionAndScope`. Measured in bench/README.md.
 */
import type { FastifyRequest } from 'fastify';
import { readSessionScope, readSessionScopePage, type OrgPage, type SessionScopeListRow } from './scope.repository.ts';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { jsonPageOf, type JsonPage } from '../http/list.ts';
import { callerOfSession, resolveSession, type Caller } from '../identity/identity.service.ts';
import { SESSION_COOKIE } from '../identity/session.plugin.ts';
import { presentedToken } from '../identity/tokens.ts';
import type { MemberRole } from './permissions.ts';
import type { MembershipFact, ScopeFacts } from './scope.ts';

const NOBODY: ScopeFacts = { caller: null, orgId: null, membership: undefined };

/** What one statement read with the session, or what the gate is to be told without it. */
export type SessionRead<Row extends SessionScopeListRow = SessionScopeListRow> = { caller: Caller; row: Row } | { settled: ScopeFacts | null };

/**
 * Reads the session cookie's session and, in the same statement (`read`), the caller's scope;
 * sets `request.caller`. No valid session: settled as nobody (401). A failed read other than
 * an unavailable database: settled null (the gate resolves the scope the usual way).
 */
export async function readSessionAndScope<Row extends SessionScopeListRow>(
  request: FastifyRequest,
  read: (db: Database, session: { sessionId: string; secretHash: string }) => Promise<Row | undefined>,
): Promise<SessionRead<Row>> {
  const { db } = request.server;
  const cookie = request.cookies[SESSION_COOKIE];
  const presented = presentedToken(cookie);
  request.caller = null;
  if (!presented) return { settled: NOBODY };
  let row: Row | undefined;
  try {
    row = await read(db, { sessionId: presented.id, secretHash: presented.secretHash });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    request.caller = await resolveSession(db, cookie);
    return { settled: null };
  }
  const caller = await callerOfSession(db, presented, row);
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
  return memberScope(await readSessionAndScope(request, (db, session) => readSessionScope(db, { ...session, staffOrgId: null })));
}

/** The facts of a member with an organization, from the statement's row (else settled, or null: see `readScope`). */
function memberScope(read: SessionRead): ScopeFacts | null {
  if ('settled' in read) return read.settled;
  const { caller, row } = read;
  if (caller.isStaff || row.org_id === null) return null;
  return { caller, orgId: row.org_id, membership: membershipOfRow(row), orgName: row.org_name };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A list route's page read with its gate's facts (`readScopeWithPage`), for the handler to take. */
    prefetchedPage: PrefetchedPage | null;
  }
}

/** A page read in the gate's statement: of `orgId`, for the query that `key` names. */
export interface PrefetchedPage {
  orgId: string;
  key: string;
  page: JsonPage;
}

/** What a list route asks `readScopeWithPage` to read. */
export interface PageRead {
  /** The page of an organization given as an expression. */
  page: OrgPage;
  /** The roles of the route's gate (`rolesOf(gate)`): no page is read for anyone else. */
  roles: readonly MemberRole[];
  /** Names the query the page answers (its filters, cursor and limit): the handler checks it. */
  key: string;
  /** Names the statement when the page's plan does not depend on its values. */
  preparedAs?: string;
}

/**
 * `readScope`, with a page of the caller's organization read in the same statement when the
 * caller is a member the route's roles let through (the contracts grid: one round trip per
 * page instead of two). The gate decides as ever; the handler takes the page with
 * `takePrefetchedPage` once it has let the caller through, or reads it itself.
 */
export async function readScopeWithPage(request: FastifyRequest, read: PageRead): Promise<ScopeFacts | null> {
  const session = await readSessionAndScope(request, (db, ids) =>
    readSessionScopePage(db, { ...ids, staffOrgId: null }, read.page, read.roles, read.preparedAs),
  );
  const facts = memberScope(session);
  if (facts?.orgId && 'row' in session && session.row.items !== null) {
    request.prefetchedPage = { orgId: facts.orgId, key: read.key, page: jsonPageOf(session.row) };
  }
  return facts;
}

/** The page the gate's statement read for this organization and query, or null. */
export function takePrefetchedPage(request: FastifyRequest, orgId: string, key: string): JsonPage | null {
  const prefetched = request.prefetchedPage;
  request.prefetchedPage = null;
  return prefetched && prefetched.orgId === orgId && prefetched.key === key ? prefetched.page : null;
}
