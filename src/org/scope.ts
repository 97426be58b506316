/**
 * The organization a request acts on and the caller's right to act there. The gate hook
 * (`gate.plugin.ts`) establishes them with `scopeFor` before the handler runs; handlers and
 * pages read them here:
 *
 * ```ts
 * fastify.get('/api/contrats', { config: { gate: 'contract' }, schema }, async (request) => {
 *   const { orgId, caller, role } = orgScope(request);
 * });
 * ```
 *
 * `resolution.ts` holds the organization resolution (docs/access.md) as a pure function; this file binds it to the database and
 * to a request, and adds what happens when it finds nothing (the fallbacks below).
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../http/errors.ts';
import type { Caller } from '../identity/identity.service.ts';
import { findMembership } from './membership.repository.ts';
import { myOrgId, orgIdByKey, orgIdByName, savedActiveOrgId } from './org.repository.ts';
import { orgErrors } from './org.errors.ts';
import { can, isOrgGate, type Decision, type Gate, type MemberRole } from './permissions.ts';
import { isUuid, resolveActiveOrgId, type OrgLookups } from './resolution.ts';

/** The caller's membership in an organization, as `can()` takes it. */
export type MembershipFact = { role: MemberRole; revoked: boolean } | undefined | 'lookup_failed';

export interface RequestScope {
  caller: Caller;
  /** The organization acted on; null only where the route's `orgFallback` allows it (staff). */
  orgId: string | null;
  /** The caller's role there; null for staff, who act on every organization without one. */
  role: MemberRole | null;
  /** The organization's name, when the gate read it with the scope (`scope-reader.ts`). */
  orgName?: string;
}

/** The scope of a route whose organization is always known (every module route). */
export interface OrgScope extends RequestScope {
  orgId: string;
}

/**
 * Where the organization comes from when the resolution of docs/access.md gives none:
 * - `staffSettings` (every module route): a staff caller's saved choice,
 *   else 400 `no_active_org`;
 * - `global` (reads): a staff caller reads every organization (`orgId` null);
 * - `body` (changes): the body's `org_id`, then a staff caller's saved choice; a staff
 *   caller may still have none (`orgId` null: the service answers once the body is checked).
 */
export type OrgFallback = 'staffSettings' | 'global' | 'body';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the gate hook on routes gated on an organization. */
    scope: RequestScope | null;
  }
}

function scopeOf(request: FastifyRequest): RequestScope {
  // Only a route without an organization gate gets here without one: a programming error.
  if (!request.scope) throw new Error(`${request.routeOptions.url}: its gate gives no organization scope`);
  return request.scope;
}

/** The scope of a route gated on `contract`, `money` or `read`: the organization is always known. */
export function orgScope(request: FastifyRequest): OrgScope {
  const scope = scopeOf(request);
  if (scope.orgId === null) throw new Error(`${request.routeOptions.url}: orgScope() on a route whose orgFallback allows none`);
  return { ...scope, orgId: scope.orgId };
}

/** The scope of a route whose `orgFallback` may leave staff without an organization (the access API). */
export function requestScope(request: FastifyRequest): RequestScope {
  return scopeOf(request);
}

/** The caller of a route gated on `signedIn` or `staff` (the gate let nobody else through). */
export function gatedCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error(`${request.routeOptions.url}: gatedCaller() needs a gate`);
  return request.caller;
}

/** The caller of a route gated on `staff`. */
export const staffCaller = gatedCaller;

/** Throws the answer a refusal gives: 401 or 403, plain text. */
export function enforce(decision: Decision): void {
  if (decision === 'unauthorized') throw AppError.unauthorized();
  if (decision === 'forbidden') throw AppError.forbidden();
}

/** The caller's membership; a failed read (other than an unreachable database) is the access rules' `lookup_failed`. */
export async function readMembership(db: Database, orgId: string, userId: string): Promise<MembershipFact> {
  try {
    return await findMembership(db, orgId, userId);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return 'lookup_failed';
  }
}

export function orgLookups(db: Database): OrgLookups {
  return {
    myOrg: (userId) => myOrgId(db, userId),
    orgIdByKey: (key) => orgIdByKey(db, key),
    orgIdByName: (name) => orgIdByName(db, name),
  };
}

/** The organization resolution (docs/access.md) for a request: its caller, cookies and headers. */
export function resolveRequestOrgId(db: Database, request: FastifyRequest): Promise<string | null> {
  return resolveActiveOrgId({ caller: request.caller, cookies: request.cookies, headers: request.headers }, orgLookups(db));
}

/**
 * The organization of a request: the organization resolution (docs/access.md), then the fallback. `fromSettings` tells that it is
 * a staff member's saved choice (the page then sets the `active_org_id` cookie again).
 */
export async function activeOrgOf(db: Database, request: FastifyRequest, fallback: OrgFallback): Promise<{ orgId: string | null; fromSettings: boolean }> {
  const resolved = await resolveRequestOrgId(db, request);
  if (resolved) return { orgId: resolved, fromSettings: false };
  if (fallback === 'body') {
    const bodyOrgId = (request.body as { org_id?: unknown } | undefined)?.org_id;
    if (isUuid(bodyOrgId)) return { orgId: bodyOrgId.toLowerCase(), fromSettings: false };
  }
  const caller = request.caller;
  if (fallback === 'global' || !caller?.isStaff) return { orgId: null, fromSettings: false };
  const saved = await savedActiveOrgId(db, caller.userId);
  return { orgId: saved, fromSettings: saved !== null };
}

/** What the gate decides on: read by `scopeFor`, or by a route that reads them in its own query. */
export interface ScopeFacts {
  caller: Caller | null;
  orgId: string | null;
  /** Read only for a non-staff caller with an organization. */
  membership: MembershipFact;
  /** The organization's name, when the statement read it. */
  orgName?: string | null;
}

/**
 * The access rules (docs/access.md, docs/modules.md) for a gated route: 401 without a caller; the organization with
 * its fallback, else 400 `no_active_org` (a staff caller continues without one where the
 * fallback allows it); then `can()` on the caller's membership there (403).
 */
export async function scopeFor(db: Database, request: FastifyRequest, gate: Gate, fallback: OrgFallback, facts?: ScopeFacts): Promise<RequestScope> {
  const caller = facts ? facts.caller : request.caller;
  if (!caller) throw AppError.unauthorized();
  // A staff-only route refuses everyone else before any organization is looked up.
  if (!isOrgGate(gate)) enforce(can(caller, undefined, gate));
  const orgId = facts ? facts.orgId : (await activeOrgOf(db, request, fallback)).orgId;
  if (!orgId) {
    if (!caller.isStaff || fallback === 'staffSettings') throw orgErrors.noActiveOrg();
    return { caller, orgId: null, role: null };
  }
  const membership = caller.isStaff ? undefined : facts ? facts.membership : await readMembership(db, orgId, caller.userId);
  enforce(can(caller, membership, gate));
  const role = membership === undefined || membership === 'lookup_failed' ? null : membership.role;
  return facts?.orgName ? { caller, orgId, role, orgName: facts.orgName } : { caller, orgId, role };
}
