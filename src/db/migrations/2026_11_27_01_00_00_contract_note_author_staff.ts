/**
 * A note written by the operator's staff shows its author to clients as "Équipe paie", never
 * the staff member's e-mail address. Whether the author was staff is kept with
 * the note, as it was when written: a staff member later revoked, or a client later made staff,
 * does not change what their notes show. Notes written before: their author is staff when the
 * account has a staff row (kept, even revoked, for the record).
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contract_notes add column author_is_staff boolean not null default false`.execute(db);
  await sql`update public.contract_notes n set author_is_staff = true
             where exists (select 1 from public.staff_users s where s.user_id = n.author_user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contract_notes drop column author_is_staff`.execute(db);
}
