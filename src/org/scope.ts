/**
 * The organization a request acts on, and the caller's right to act there, as the gate hook
 * (`gate.plugin.ts`) established them before the handler ran. Handlers read them here:
 *
 * ```ts
 * fastify.get('/api/contrats', { config: { gate: 'contract' }, schema }, async (request) => {
 *   const { orgId, caller, role } = orgScope(request);
 * });
 * ```
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../http/errors.ts';
import type { Caller } from '../identity/identity.service.ts';
import { resolveRequestOrgId } from '../access/active-org.ts';
import { findMembership } from '../access/membership.repository.ts';
import { can, type Decision, type MemberRole, type OrgGate } from './permissions.ts';
import { orgErrors } from './org.errors.ts';

export interface OrgScope {
  caller: Caller;
  /** The organization acted on. */
  orgId: string;
  /** The caller's role there; null for staff, who act on every organization without one. */
  role: MemberRole | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the gate hook on routes gated on an organization. */
    scope: OrgScope | null;
  }
}

/** The scope of a route gated on `contract`, `money` or `read`. */
export function orgScope(request: FastifyRequest): OrgScope {
  // Only a route without an organization gate gets here without one: a programming error.
  if (!request.scope) throw new Error(`${request.routeOptions.url}: orgScope() needs an organization gate`);
  return request.scope;
}

/** The caller of a route gated on `staff` (or `signedIn`). */
export function staffCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error(`${request.routeOptions.url}: staffCaller() needs a gate`);
  return request.caller;
}

/** Throws the answer a refusal gives: 401 or 403, plain text (SPEC 4.4, 7). */
export function enforce(decision: Decision): void {
  if (decision === 'unauthorized') throw AppError.unauthorized();
  if (decision === 'forbidden') throw AppError.forbidden();
}

/** The caller's membership; a failed read (other than an unreachable database) is SPEC 4.4's `lookup_failed`. */
export async function readMembership(
  db: Database,
  orgId: string,
  userId: string,
): Promise<{ role: MemberRole; revoked: boolean } | undefined | 'lookup_failed'> {
  try {
    return await findMembership(db, orgId, userId);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return 'lookup_failed';
  }
}

/** The organization a staff member last chose (SPEC 2.4 staff settings), if any. */
export async function staffSavedOrgId(db: Database, userId: string): Promise<string | null> {
  const row = await db.selectFrom('staff_settings').select('active_org_id').where('user_id', '=', userId).executeTakeFirst();
  return row?.active_org_id ?? null;
}

/**
 * MODULES 1: the organization (SPEC 4.3; for staff, the hints, else the saved choice), else
 * 400 `no_active_org`; then the gate's decision on the caller's membership there.
 */
export async function gatedScope(db: Database, request: FastifyRequest, gate: OrgGate): Promise<OrgScope> {
  const caller = request.caller;
  if (!caller) throw AppError.unauthorized();
  const orgId = (await resolveRequestOrgId(db, request)) ?? (caller.isStaff ? await staffSavedOrgId(db, caller.userId) : null);
  if (!orgId) throw orgErrors.noActiveOrg();
  const membership = caller.isStaff ? undefined : await readMembership(db, orgId, caller.userId);
  enforce(can(caller, membership, gate));
  return { caller, orgId, role: membership === undefined || membership === 'lookup_failed' ? null : membership.role };
}
