/**
 * An artist's consent to the flat professional deduction (déduction forfaitaire spécifique), with
 * the profession of the payroll model it falls under; null: no deduction. Frozen in time.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.employees
    add column dfs text
      constraint employees_dfs_check check (dfs in ('artiste_musicien', 'artiste_dramatique'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.employees drop column if exists dfs`.execute(db);
}
