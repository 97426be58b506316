/**
 * `get_my_org` in PL/pgSQL, same body and result. PostgreSQL plans the body
 * of an SQL-language function that it cannot inline anew at every query that calls it (about
 * as long as the rest of `GET /api/access` for a small organization); PL/pgSQL keeps the plan
 * for the session. Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
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
               where m.user_id = user_id_param and not m.revoked
               order by m.created_at, m.org_id
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
      language sql stable
    as $$
      select m.org_id
        from public.organization_members m
       where m.user_id = user_id_param and not m.revoked
       order by m.created_at, m.org_id
       limit 1
    $$`)
    .execute(db);
}
