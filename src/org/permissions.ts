/**
 * Who may do what in an organization, as data: the member roles,
 * the role sets a route can be gated on, and the one decision `can()`.
 *
 * This is the only file that names roles as values; everything else asks it (a route
 * declares `config: { gate }`, see `gate.plugin.ts`).
 */

/** Every member role, in the order they are offered. */
export const MEMBER_ROLES = ['SUPER_ADMIN', 'ADMIN', 'AGENT', 'COMPTA'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The roles by name, for data that must name one (the demo data set). */
export const ROLE = { superAdmin: 'SUPER_ADMIN', admin: 'ADMIN', agent: 'AGENT', compta: 'COMPTA' } as const satisfies Record<string, MemberRole>;

/** The organization's principal administrator: one per organization, never changed by the access API. */
export const PROTECTED_ROLE: MemberRole = ROLE.superAdmin;
/** The role of a member added without one. */
export const DEFAULT_ROLE: MemberRole = ROLE.agent;
/** Roles that `POST /api/access` may assign: every role but the protected one. */
export const ASSIGNABLE_ROLES = MEMBER_ROLES.filter((role) => role !== PROTECTED_ROLE);

export function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}

export function isProtectedRole(role: string): boolean {
  return role === PROTECTED_ROLE;
}

/**
 * What a route can be gated on. `manageMembers` is the access API's; `contract`,
 * `money` and `read` are the module sets of; `staff` lets staff only; `signedIn`
 * asks for a session and nothing else (`/api/me`).
 */
export type Gate = 'manageMembers' | 'contract' | 'money' | 'read' | 'staff' | 'signedIn';

/** The gates that act on an organization, and the member roles each lets through (staff pass them all). */
export const ROLE_SETS = {
  manageMembers: ['SUPER_ADMIN', 'ADMIN'],
  contract: ['SUPER_ADMIN', 'ADMIN', 'AGENT'],
  money: ['SUPER_ADMIN', 'ADMIN', 'COMPTA'],
  read: MEMBER_ROLES,
} as const satisfies Record<string, readonly MemberRole[]>;

export type OrgGate = keyof typeof ROLE_SETS;

export function isOrgGate(gate: Gate): gate is OrgGate {
  return Object.hasOwn(ROLE_SETS, gate);
}

/** The roles a gate lets through (none for `staff` and `signedIn`, which no membership opens). */
export function rolesOf(gate: Gate): readonly MemberRole[] {
  return isOrgGate(gate) ? ROLE_SETS[gate] : [];
}

export type Decision = 'allowed' | 'unauthorized' | 'forbidden';

/**
 * For every gate: no caller is `unauthorized` (401); staff pass; for
 * an organization gate, a membership that is missing, unreadable (`lookup_failed`), revoked,
 * or of a role outside the gate's set is `forbidden` (403). `staff` forbids everyone else;
 * `signedIn` lets any caller through. `membership` is the caller's in the organization acted on.
 */
export function can(caller: { isStaff: boolean } | null, membership: { role: string; revoked: boolean } | undefined | 'lookup_failed', gate: Gate): Decision {
  if (!caller) return 'unauthorized';
  if (caller.isStaff || gate === 'signedIn') return 'allowed';
  if (!isOrgGate(gate)) return 'forbidden';
  if (membership === undefined || membership === 'lookup_failed' || membership.revoked) return 'forbidden';
  return (ROLE_SETS[gate] as readonly string[]).includes(membership.role) ? 'allowed' : 'forbidden';
}
