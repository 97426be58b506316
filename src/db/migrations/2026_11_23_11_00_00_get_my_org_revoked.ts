/**
 * `get_my_org` returns the caller's active membership (the oldest), else
 * their most recently revoked one: a revoked member's organization still
 * resolves, so they meet the access rules' 403 `Forbidden` rather than 400 `no_active_org`.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    create or replace function public.get_my_org(user_id_param uuid)
      returns uuid
      language plpgsql stable
    as $$
    begin
      return (select m.org_id
                from public.organization_members m
               where m.user_id = user_id_param
               order by m.revoked,
                        case when m.revoked then m.revoked_at end desc nulls last,
                        m.created_at, m.org_id
               limit 1);
    end
    $$`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`
    create or replace function public.get_my_org(user_id_param uuid)
      returns uuid
      language plpgsql stable
    as $$
    begin
      return (select m.org_id
                from public.organization_members m
               where m.user_id = user_id_param and not m.revoked
               order by m.created_at, m.org_id
               limit 1);
    end
    $$`)
    .execute(db);
}
