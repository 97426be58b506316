/**
 * SQL of the member list (SPEC 4.1, 2.5) and of the audit trail reads.
 *
 * The list is built as JSON by PostgreSQL itself and passed through as text: turning rows
 * into JavaScript objects and back costs more than the query. Members and their accounts
 * are read in one join, never one identity read per member.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.ts';

/** One access list item (SPEC 2.5 + CONTRACT 5's `activated`), as a JSON object in SQL. */
function itemJson(withOrgId: boolean): RawBuilder<string> {
  return sql<string>`json_build_object(
    'org_id', ${withOrgId ? sql`m.org_id` : sql`null`},
    'user_id', m.user_id,
    'first_name', coalesce(
      nullif(btrim(u.user_metadata->>'first_name'), ''),
      nullif(split_part(btrim(u.user_metadata->>'display_name'), ' ', 1), '')
    ),
    'email', coalesce(u.email, 'Email non disponible'),
    'role', m.role,
    'created_at', ${isoTimestamp(sql`m.created_at`)},
    'revoked', m.revoked,
    'revoked_at', ${isoTimestamp(sql`m.revoked_at`)},
    'activated', coalesce(u.activated_at is not null, false)
  )`;
}

/** Timestamps as JavaScript writes them (`2026-11-22T10:00:00.000Z`), whatever the session's zone. */
function isoTimestamp(column: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The members of one organization, newest first, as the JSON text of an array. */
export async function listOrgMembersJson(db: Database, orgId: string): Promise<string> {
  const { rows } = await sql<{ items: string }>`
    select coalesce(json_agg(${itemJson(false)} order by m.created_at desc, m.user_id desc), '[]'::json)::text as items
      from public.organization_members m
      left join auth.users u on u.id = m.user_id
     where m.org_id = ${orgId}`.execute(db);
  return rows[0]?.items ?? '[]';
}

/** Where the previous page of the global list stopped (exact, as PostgreSQL's own text). */
export interface GlobalCursor {
  created_at: string;
  org_id: string;
  user_id: string;
}

/**
 * One page of every membership (global staff mode), newest first, by keyset: no connection
 * or snapshot is held between pages, so a slow reader blocks nobody.
 */
export async function globalMembersPage(
  db: Database,
  after: GlobalCursor | null,
  pageSize: number,
): Promise<{ json: string[]; last: GlobalCursor | null }> {
  const { rows } = await sql<{ item: string; created_at: string; org_id: string; user_id: string }>`
    select ${itemJson(true)}::text as item, m.created_at::text as created_at, m.org_id, m.user_id
      from public.organization_members m
      left join auth.users u on u.id = m.user_id
     ${after ? sql`where (m.created_at, m.org_id, m.user_id) < (${after.created_at}::timestamptz, ${after.org_id}::uuid, ${after.user_id}::uuid)` : sql``}
     order by m.created_at desc, m.org_id desc, m.user_id desc
     limit ${pageSize}`.execute(db);
  const lastRow = rows.at(-1);
  return {
    json: rows.map((r) => r.item),
    last: lastRow ? { created_at: lastRow.created_at, org_id: lastRow.org_id, user_id: lastRow.user_id } : null,
  };
}

export interface AccessEventRow {
  id: string;
  org_id: string | null;
  action: string;
  actor_user_id: string | null;
  actor_email: string | null;
  target_user_id: string | null;
  target_email: string | null;
  old_role: string | null;
  new_role: string | null;
  created_at: Date;
}

/** The audit trail, newest first; `before` is the id the previous page ended on. */
export function listAccessEvents(
  db: Database,
  orgId: string | null,
  before: string | null,
  limit: number,
): Promise<AccessEventRow[]> {
  let query = db.selectFrom('access_events').selectAll().orderBy('id', 'desc').limit(limit);
  if (orgId) query = query.where('org_id', '=', orgId);
  if (before) query = query.where('id', '<', before);
  return query.execute();
}
