/** SQL of memberships: who holds which role in which organization. */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { PROTECTED_ROLE, type MemberRole } from './permissions.ts';

export interface MembershipState {
  role: MemberRole;
  revoked: boolean;
}

export function findMembership(db: Database, orgId: string, userId: string): Promise<MembershipState | undefined> {
  return db.selectFrom('organization_members').select(['role', 'revoked']).where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
}

/** Locks the membership row for the rest of the transaction (role changes, revocation). */
export function lockMembership(db: Database, orgId: string, userId: string): Promise<MembershipState | undefined> {
  return db
    .selectFrom('organization_members')
    .select(['role', 'revoked'])
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Inserts an active membership unless the pair exists. Returns true when it inserted.
 * A concurrent insert of the same pair waits on the primary key, then reports false.
 */
export async function insertMembershipIfAbsent(db: Database, orgId: string, userId: string, role: MemberRole): Promise<boolean> {
  const row = await db
    .insertInto('organization_members')
    .values({ org_id: orgId, user_id: userId, role, revoked: false })
    .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Sets the role and re-activates (`revoked` back to false). */
export async function updateMembershipRole(db: Database, orgId: string, userId: string, role: MemberRole): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ role, revoked: false, revoked_at: null })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .execute();
}

export async function revokeMembership(db: Database, orgId: string, userId: string): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ revoked: true, revoked_at: sql`now()` })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .execute();
}

/** The e-mail of the organization's SUPER_ADMIN when another account than `email`'s holds it. */
export async function otherProtectedHolder(db: Database, orgId: string, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organization_members as m')
    .innerJoin('auth.users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.org_id', '=', orgId)
    .where('m.role', '=', PROTECTED_ROLE)
    .where('u.email', '<>', email)
    .executeTakeFirst();
  return row?.email;
}

/** Every membership of an account, with its organization's name, oldest first (`GET /api/me`). */
export function membershipsOfUser(db: Database, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .select(['m.org_id', 'o.name as org_name', 'm.role', 'm.revoked'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .execute();
}

/** A member's revoked accesses, with when: what `/vos-acces` explains to them. */
export function revokedAccessesOf(db: Database, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .select(['m.org_id', 'o.name as org_name', 'm.revoked_at'])
    .where('m.user_id', '=', userId)
    .where('m.revoked', '=', true)
    .orderBy('m.revoked_at', 'desc')
    .execute();
}
