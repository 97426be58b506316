/**
 * Giving an e-mail a role in an organization: the one way, for `POST /api/access`, `POST
 * /api/access/nouveau`, `member add` and `seed-demo`. Each adds its own rules around it (who may
 * be changed, which e-mail leaves), and records the audit action this returns.
 */
import type { Database } from '../db/database.ts';
import type { UserMetadata } from '../db/schema.ts';
import type { Account, AuthPreferences } from '../identity/identity.repository.ts';
import { ensureAccount } from '../identity/identity.service.ts';
import * as members from './membership.repository.ts';
import type { MembershipState } from './membership.repository.ts';
import type { MemberRole } from './permissions.ts';

export interface RoleGrant {
  email: string;
  role: MemberRole;
  /** Stored as `first_name` only when the account is created. */
  firstName?: string | null;
}

export type MembershipAction = 'invited' | 'added' | 'reactivated' | 'role_changed';

/** The audit action of a grant, or null when nothing changed. */
export function membershipAction(created: boolean, previous: MembershipState | undefined, role: MemberRole): MembershipAction | null {
  if (created) return 'invited';
  if (!previous) return 'added';
  if (previous.revoked) return 'reactivated';
  return previous.role !== role ? 'role_changed' : null;
}

/**
 * What an account created by a grant holds: its invitation metadata (the role and organization
 * it was invited to), and sign-in by link only.
 */
export function invitedAccount(org: { id: string; name: string }, grant: RoleGrant): { metadata: UserMetadata; preferences: AuthPreferences } {
  return {
    metadata: { first_name: grant.firstName || null, role: grant.role, org_id: org.id, org_name: org.name },
    preferences: { allow_magic_link: true, allow_password: false },
  };
}

export interface GrantResult {
  account: Account;
  /** The account did not exist: it was created, not activated, signing in by link. */
  created: boolean;
  /** The membership before the grant; undefined when it is new. */
  previous: MembershipState | undefined;
  action: MembershipAction | null;
}

/**
 * Gives the account of `grant.email` the role in the organization (the access API's rules (docs/access.md)), in the
 * caller's transaction: the account is created when none exists (its invitation metadata
 * carries the role and organization), the membership created, re-activated or changed. An
 * existing membership is locked first, so concurrent grants of one membership are serialised
 * and each sees the role the previous one left; `check` sees it before anything changes, and
 * may refuse by throwing.
 */
export async function grantRole(
  trx: Database,
  org: { id: string; name: string },
  grant: RoleGrant,
  check?: (previous: MembershipState | undefined, account: Account) => void,
): Promise<GrantResult> {
  const invited = invitedAccount(org, grant);
  const { account, created } = await ensureAccount(trx, grant.email, invited.metadata, invited.preferences);
  const inserted = await members.insertMembershipIfAbsent(trx, org.id, account.id, grant.role);
  const previous = inserted ? undefined : await members.lockMembership(trx, org.id, account.id);
  check?.(previous, account);
  if (previous) await members.updateMembershipRole(trx, org.id, account.id, grant.role);
  return { account, created, previous, action: membershipAction(created, previous, grant.role) };
}
