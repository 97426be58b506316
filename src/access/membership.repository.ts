/** SQL of memberships (SPEC 2.2) and of the organization look-ups around them. */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { MemberRole } from '../db/schema.ts';

export interface MembershipState {
  role: MemberRole;
  revoked: boolean;
}

export function findOrganization(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(['id', 'name', 'structure_api']).where('id', '=', orgId).executeTakeFirst();
}

export function findMembership(db: Database, orgId: string, userId: string): Promise<MembershipState | undefined> {
  return db
    .selectFrom('organization_members')
    .select(['role', 'revoked'])
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
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

/** Sets the role and re-activates (SPEC 3.1: `revoked` back to false). */
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

/**
 * Gives `userId` the role in the organization, creating or re-activating the membership.
 * Returns the previous state (undefined when the membership is new). The row is locked
 * first, so concurrent changes of one membership are serialised and each sees the role
 * the previous one left.
 */
export async function setMembershipRole(
  db: Database,
  orgId: string,
  userId: string,
  role: MemberRole,
): Promise<MembershipState | undefined> {
  if (await insertMembershipIfAbsent(db, orgId, userId, role)) return undefined;
  const previous = await lockMembership(db, orgId, userId);
  await updateMembershipRole(db, orgId, userId, role);
  return previous;
}
