/**
 * Who may manage the members of an organization (SPEC 4.4) and what each role may do
 * (SPEC 2.3), as pure functions.
 */
import type { MemberRole } from '../db/schema.ts';

export const MEMBER_ROLES = ['ADMIN', 'SUPER_ADMIN', 'AGENT', 'COMPTA'] as const;
/** Roles that `POST /api/access` may assign (CONTRACT 5). */
export const ASSIGNABLE_ROLES = ['ADMIN', 'AGENT', 'COMPTA'] as const;
export const MANAGER_ROLES: readonly MemberRole[] = ['ADMIN', 'SUPER_ADMIN'];

export function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}

export type AccessDecision = 'allowed' | 'unauthorized' | 'forbidden';

export interface CallerMembership {
  role: string;
  revoked: boolean;
}

/**
 * SPEC 4.4. `membership` is the caller's membership in the organization: undefined when
 * there is none, 'lookup_failed' when it could not be read.
 */
export function checkManageAccess(
  caller: { isStaff: boolean } | null,
  membership: CallerMembership | undefined | 'lookup_failed',
): AccessDecision {
  if (!caller) return 'unauthorized';
  if (caller.isStaff) return 'allowed';
  if (membership === 'lookup_failed' || membership === undefined) return 'forbidden';
  if (membership.revoked) return 'forbidden';
  return MANAGER_ROLES.includes(membership.role as MemberRole) ? 'allowed' : 'forbidden';
}
