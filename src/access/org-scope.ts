/**
 * The organization a request acts on and whether the caller may act there: SPEC 4.1 rules
 * 1-3, SPEC 4.2 rules 2-3 and SPEC 4.4, run before the body is validated so that their
 * answers (401, 400 no_active_org, 403) come first, as the SPEC orders them.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { MemberRole } from '../db/schema.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { SESSION_COOKIE } from '../http/caller.ts';
import { AppError } from '../http/errors.ts';
import { callerOfSession, resolveSession, type Caller } from '../identity/identity.service.ts';
import { hashSecret, parseToken } from '../identity/tokens.ts';
import { readSessionScopeList, type SessionScopeListRow } from './access.repository.ts';
import { checkManageAccess, type CallerMembership } from './access-check.ts';
import { accessErrors } from './access.errors.ts';
import { resolveRequestOrgId } from './active-org.ts';
import { findMembership } from './membership.repository.ts';
import { isUuid, staffOrgHints } from './org-resolution.ts';

export interface OrgScope {
  caller: Caller;
  /** The organization acted on; null only for a staff caller with none (global mode). */
  orgId: string | null;
  /** The caller's role in that organization; null for staff. */
  callerRole: MemberRole | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    orgScope: OrgScope | null;
  }
}

export function scopeOf(request: FastifyRequest): OrgScope {
  if (!request.orgScope) throw new Error('route is missing its org-scope hook');
  return request.orgScope;
}

async function readMembership(db: Database, orgId: string, userId: string): Promise<CallerMembership | undefined | 'lookup_failed'> {
  try {
    return await findMembership(db, orgId, userId);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return 'lookup_failed';
  }
}

/** SPEC 4.4, for a caller on a resolved organization. */
async function authorize(db: Database, caller: Caller, orgId: string): Promise<OrgScope> {
  if (caller.isStaff) return { caller, orgId, callerRole: null };
  const membership = await readMembership(db, orgId, caller.userId);
  if (checkManageAccess(caller, membership) !== 'allowed') throw AppError.forbidden();
  return { caller, orgId, callerRole: (membership as CallerMembership).role as MemberRole };
}

/** SPEC 4.1: reading. A staff caller with no organization reads globally. */
export async function readScope(db: Database, request: FastifyRequest): Promise<OrgScope> {
  const orgId = await resolveRequestOrgId(db, request);
  const caller = request.caller;
  if (!caller) throw AppError.unauthorized();
  if (!orgId) {
    if (!caller.isStaff) throw accessErrors.noActiveOrg();
    return { caller, orgId: null, callerRole: null };
  }
  return authorize(db, caller, orgId);
}

/**
 * SPEC 4.1 for `GET /api/access` in one round trip (the route sets `readsOwnSession`): the
 * session, the organization, the caller's membership and the list are read by one query,
 * and the rules are then applied exactly as `resolveSession` and `readScope` apply them.
 * `listJson` is the list when that query could read it. Whatever the query cannot settle
 * (a staff hint naming an organization by key or name, a failed read) takes the usual path.
 */
export async function readScopeWithList(db: Database, request: FastifyRequest): Promise<{ scope: OrgScope; listJson: string | null }> {
  const cookie = request.cookies[SESSION_COOKIE];
  const parsed = parseToken(cookie);
  if (!parsed) {
    request.caller = null;
    throw AppError.unauthorized();
  }
  // A staff caller's first hint decides, when it is an id (SPEC 4.3 rule 4).
  const firstHint = staffOrgHints(request.cookies, request.headers)[0];
  const staffOrgId = firstHint?.kind === 'id' ? firstHint.value : null;
  let row: SessionScopeListRow | undefined;
  try {
    row = await readSessionScopeList(db, { sessionId: parsed.id, secretHash: hashSecret(parsed.secret), staffOrgId });
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    request.caller = await resolveSession(db, cookie);
    return { scope: await readScope(db, request), listJson: null };
  }
  const caller = await callerOfSession(db, parsed, row);
  request.caller = caller;
  if (!caller || !row) throw AppError.unauthorized();
  if (caller.isStaff) {
    if (firstHint && firstHint.kind !== 'id') return { scope: await readScope(db, request), listJson: null };
    return { scope: { caller, orgId: staffOrgId, callerRole: null }, listJson: staffOrgId ? row.items : null };
  }
  if (!row.org_id) throw accessErrors.noActiveOrg();
  const membership = row.member_role === null ? undefined : { role: row.member_role, revoked: row.member_revoked === true };
  if (checkManageAccess(caller, membership) !== 'allowed') throw AppError.forbidden();
  return { scope: { caller, orgId: row.org_id, callerRole: membership!.role }, listJson: row.items };
}

/**
 * SPEC 4.2: changing. The resolved organization, else the body's `org_id`, else (staff only)
 * the organization last chosen in the staff settings. A staff caller may still have none:
 * the service answers no_active_org once the body is validated.
 */
export async function changeScope(db: Database, request: FastifyRequest): Promise<OrgScope> {
  const resolved = await resolveRequestOrgId(db, request);
  const caller = request.caller;
  if (!caller) throw AppError.unauthorized();
  const bodyOrgId = (request.body as { org_id?: unknown } | undefined)?.org_id;
  const orgId = resolved ?? (isUuid(bodyOrgId) ? bodyOrgId.toLowerCase() : null);
  if (orgId) return authorize(db, caller, orgId);
  if (!caller.isStaff) throw accessErrors.noActiveOrg();
  const settings = await db
    .selectFrom('staff_settings')
    .select('active_org_id')
    .where('user_id', '=', caller.userId)
    .executeTakeFirst();
  return { caller, orgId: settings?.active_org_id ?? null, callerRole: null };
}
