/**
 * Rate-limit counters in the database, so that every instance on one database counts the same
 * requests (an in-memory counter per process would let N instances allow N times the limit).
 * One row per limited key: the hits in its current fixed window, and when that window ends.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    create table public.rate_limits (
      key text primary key,
      hits integer not null check (hits > 0),
      expires_at timestamptz not null
    )`)
    .execute(db);
  await sql.raw('create index rate_limits_expires_idx on public.rate_limits (expires_at)').execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table public.rate_limits').execute(db);
}
