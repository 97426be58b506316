/**
 * An invitation token remembers the organization that sent it, so that a new invitation
 * retires only that organization's older ones: one organization re-sending its invitation
 * must not cancel the pending invitation of another. Null for sign-in links and staff
 * invitations. Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table auth.one_time_tokens add column org_id uuid references public.organizations(id) on delete cascade').execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table auth.one_time_tokens drop column org_id').execute(db);
}
