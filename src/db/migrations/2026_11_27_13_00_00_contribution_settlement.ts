/**
 * A contribution call is notified to its organization (`notified_at`, through the
 * outbox) and marked paid (`paid_date`, a date never in the future, set with status `paye`).
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contribution_calls
    add column notified_at timestamptz,
    add column paid_date date`.execute(db);
  // A call already paid before this migration: paid on the day it was created.
  await sql`update public.contribution_calls set paid_date = (created_at at time zone 'Europe/Paris')::date where status = 'paye'`.execute(db);
  await sql`alter table public.contribution_calls
    add constraint contribution_calls_paid_check check ((status = 'paye') = (paid_date is not null))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contribution_calls
    drop constraint if exists contribution_calls_paid_check,
    drop column if exists paid_date,
    drop column if exists notified_at`.execute(db);
}
