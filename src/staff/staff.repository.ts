/** SQL of staff users: the `staff_users` records. */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { StaffLevel } from '../db/schema.ts';

export interface StaffState {
  is_staff: boolean;
  level: StaffLevel;
  revoked_at: Date | null;
}

export function findStaffUser(db: Database, userId: string): Promise<StaffState | undefined> {
  return db.selectFrom('staff_users').select(['is_staff', 'level', 'revoked_at']).where('user_id', '=', userId).executeTakeFirst();
}

/** Locks the staff record for the rest of the transaction (creation, revocation). */
export function lockStaffUser(db: Database, userId: string): Promise<StaffState | undefined> {
  return db.selectFrom('staff_users').select(['is_staff', 'level', 'revoked_at']).where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

/**
 * Makes the account an active staff member at `level`: a new record, or a revoked one
 * brought back (`is_staff` true, `revoked_at` cleared).
 */
export async function upsertStaffUser(db: Database, userId: string, level: StaffLevel): Promise<void> {
  await db
    .insertInto('staff_users')
    .values({ user_id: userId, is_staff: true, level, revoked_at: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ is_staff: true, level, revoked_at: null }))
    .execute();
}

/** The staff team for `GET /api/staff/users`, newest first. */
export function listStaffUsers(db: Database) {
  return db
    .selectFrom('staff_users as s')
    .innerJoin('auth.users as u', 'u.id', 's.user_id')
    .select([
      's.user_id',
      'u.email',
      sql<
        string | null
      >`coalesce(nullif(btrim(u.user_metadata->>'first_name'), ''), nullif(split_part(btrim(u.user_metadata->>'display_name'), ' ', 1), ''))`.as('first_name'),
      's.level',
      's.is_staff',
      's.created_at',
      's.revoked_at',
      sql<boolean>`u.activated_at is not null`.as('activated'),
    ])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.user_id')
    .execute();
}

export async function revokeStaffUser(db: Database, userId: string): Promise<void> {
  await db.updateTable('staff_users').set({ is_staff: false, revoked_at: sql`now()` }).where('user_id', '=', userId).execute();
}
