/**
 * The payroll tables' `created_by` goes: it was written and never read, and it repeated what
 * each creation's audit event already holds (`module_events.actor_user_id` and `actor_email`,
 * the e-mail kept even after the account is deleted). Its foreign key cost one lookup of the
 * actor per row (a bulk of 5,000 invoices: 5,000 checks of the same user), and deleting an
 * account had to scan each table's unindexed column to set it null.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const TABLES = ['contracts', 'payslips', 'transfers', 'invoices', 'contribution_calls'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql.raw(`alter table public.${table} drop column created_by`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql.raw(`alter table public.${table} add column created_by uuid references auth.users(id) on delete set null`).execute(db);
  }
}
