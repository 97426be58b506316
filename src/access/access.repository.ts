/**
 * SQL of the member list, and of an invitation of a new address.
 *
 * The list is built as JSON by PostgreSQL itself and passed through as text: turning rows
 * into JavaScript objects and back costs more than the query. Members and their accounts
 * are read in one join, never one identity read per member. (`bench/` measures these
 * queries against the smallest program that could serve the list: see bench/README.md.)
 */
import { type CompiledQuery, sql, type RawBuilder } from 'kysely';
import { preparedStatement, type Database } from '../db/database.ts';
import { isoTimestamp } from '../db/json-text.ts';
import type { AccessEvent } from '../audit/audit.repository.ts';
import type { UserMetadata } from '../db/schema.ts';
import { COUNT_ON_CONFLICT, limitKey, limitReached, windowEnd, type AddressLimit } from '../http/rate-limit-store.ts';
import type { AuthPreferences, OneTimeTokenRow } from '../identity/identity.repository.ts';
import { compileOnce, SCOPE_COLUMNS, sessionScopeCtes, type SessionScopeInput, type SessionScopeListRow } from '../org/scope.repository.ts';
import type { outboxRow } from '../mail/outbox.ts';
import { rolesOf, type MemberRole } from '../org/permissions.ts';

/**
 * One access list item (docs/access.md, with `activated`) as JSON text, concatenated by
 * hand: `json_build_object` looks up the type of each of its arguments on every row and costs
 * about twice as much. Strings that may hold any character go through `to_json` (escaping);
 * ids, roles (a checked column), timestamps and booleans need none. No part is ever null.
 *
 * The global list's COPY (below) sends the ids and `created_at` in binary and the two text
 * parts around them as built here; `global-list-items.ts` writes the rest of the item.
 */
function itemText(withOrgId: boolean): RawBuilder<string> {
  return sql<string>`'{"org_id":' || ${withOrgId ? sql`'"' || m.org_id || '"'` : sql`'null'`}
    || ',"user_id":"' || m.user_id
    || ${ITEM_AFTER_USER_ID}
    || '","created_at":"' || ${isoTimestamp(sql`m.created_at`)}
    || ${ITEM_AFTER_CREATED_AT}`;
}

/** From the end of `user_id` to the start of `created_at`: `","first_name":…,"role":"ADMIN`. */
const ITEM_AFTER_USER_ID = sql<string>`'","first_name":' || coalesce(to_json(coalesce(
         nullif(btrim(u.user_metadata->>'first_name'), ''),
         nullif(split_part(btrim(u.user_metadata->>'display_name'), ' ', 1), '')
       ))::text, 'null')
    || ',"email":' || to_json(coalesce(u.email, 'Email non disponible'))::text
    || ',"role":"' || m.role`;

/** From the end of `created_at` to the end of the item: `","revoked":…}`. */
const ITEM_AFTER_CREATED_AT = sql<string>`'","revoked":' || case when m.revoked then 'true' else 'false' end
    || ',"revoked_at":' || coalesce('"' || ${isoTimestamp(sql`m.revoked_at`)} || '"', 'null')
    || ',"activated":' || case when u.activated_at is not null then 'true' else 'false' end
    || '}'`;

/** The JSON array of one organization's members, newest first (`orgId`: a value or a column). */
function orgMembersArray(orgId: RawBuilder<string> | string): RawBuilder<string> {
  return sql<string>`(
    select '[' || coalesce(string_agg(${itemText(false)}, ',' order by m.created_at desc, m.user_id desc), '') || ']'
      from public.organization_members m
      left join auth.users u on u.id = m.user_id
     where m.org_id = ${orgId}
  )`;
}

/** The members of one organization, newest first, as the JSON text of an array. */
export async function listOrgMembersJson(db: Database, orgId: string): Promise<string> {
  const { rows } = await sql<{ items: string }>`${preparedStatement('org_members')}select ${orgMembersArray(orgId)} as items`.execute(db);
  return rows[0]?.items ?? '[]';
}

/**
 * `GET /api/access` in one round trip: the session (as `findSession` reads it), the caller's
 * organization (`get_my_org` for a member; `staffOrgId` for staff), the caller's membership
 * there, and, when the session's secret and expiry hold and the caller is staff or holds one
 * of `LIST_ROLES`, the list itself. The gate still decides everything from the returned row
 * with `can()`; `items` only spares a second query.
 */
export async function readSessionScopeList(db: Database, input: SessionScopeInput): Promise<SessionScopeListRow | undefined> {
  // The statement is built and compiled once (a template this size takes Kysely tens of
  // microseconds, a sizeable part of a small list's time), then run with each caller's values.
  sessionScopeList ??= compileOnce<SessionScopeInput>(db, sessionScopeListQuery, ['sessionId', 'secretHash', 'staffOrgId']);
  const { rows } = await db.executeQuery<SessionScopeListRow>(sessionScopeList(input));
  return rows[0];
}

/**
 * The roles whose holders may see the list, from `permissions.ts`, written into the statement
 * as constants (it is compiled once): the list is read only for a caller the gate may let
 * through, so a refused caller costs no list. The gate still decides, with `can()`.
 */
const LIST_ROLES = sql.join(rolesOf('manageMembers').map((role) => sql.lit(role)));

let sessionScopeList: ((input: SessionScopeInput) => CompiledQuery) | undefined;

function sessionScopeListQuery(input: SessionScopeInput): RawBuilder<SessionScopeListRow> {
  return sql<SessionScopeListRow>`${preparedStatement('session_scope_list')}
    ${sessionScopeCtes(input)}
    select ${SCOPE_COLUMNS},
           null::text as org_name,
           case when ch.valid and ch.org_id is not null
                 and (ch.is_staff or ch.member_role in (${LIST_ROLES}))
                then ${orgMembersArray(sql<string>`ch.org_id`)} end as items
      from checked ch`;
}

/** Where a page of the global list starts or ends (exact, as PostgreSQL's own text). */
export interface GlobalCursor {
  created_at: string;
  org_id: string;
  user_id: string;
}

const GLOBAL_ORDER = sql`order by m.created_at desc, m.org_id desc, m.user_id desc`;
const before = (cursor: GlobalCursor) =>
  sql`(m.created_at, m.org_id, m.user_id) < (${cursor.created_at}::timestamptz, ${cursor.org_id}::uuid, ${cursor.user_id}::uuid)`;

/**
 * The key of the `count`-th membership after `after` in the global order (newest first), or
 * undefined when fewer remain: where the page of `count` rows after `after` ends, read from
 * the index alone, so that the next page can be read before this one has arrived.
 */
export async function globalPageEnd(db: Database, after: GlobalCursor | null, count: number): Promise<GlobalCursor | undefined> {
  const { rows } = await sql<GlobalCursor>`${preparedStatement('global_page_end')}
    select m.created_at::text as created_at, m.org_id, m.user_id
      from public.organization_members m
     ${after ? sql`where ${before(after)}` : sql``}
     ${GLOBAL_ORDER}
     offset ${count - 1} limit 1`.execute(db);
  return rows[0];
}

/** One page of the global list: its items as JSON texts in chunks, and the key of its last row. */
export interface GlobalPage {
  /** Comma-separated items, a few hundred per chunk. */
  chunks: string[];
  /** How many items the chunks hold. */
  count: number;
  last: GlobalCursor | null;
}

/** Items per chunk: a chunk stays well under the size V8 allocates outside its young generation. */
const ITEMS_PER_CHUNK = 200;

/**
 * One page of every membership (global staff mode), newest first, by keyset: no connection
 * or snapshot is held between pages, so a slow reader blocks nobody. PostgreSQL joins the
 * items in chunks of a few hundred (far fewer rows for Node to decode, and chunks small enough
 * to die young), and writes the last row's key out as text once. The windows add no sort:
 * rows arrive in index order.
 */
export async function globalMembersPage(db: Database, after: GlobalCursor | null, pageSize: number): Promise<GlobalPage> {
  const { rows } = await sql<{ chunk: string; count: string; last: [string, string, string] | null }>`${preparedStatement('global_page')}
    with page as (
      select p.item, p.created_at, p.org_id, p.user_id,
             row_number() over (order by p.created_at desc, p.org_id desc, p.user_id desc) as n
        from (
          select ${itemText(true)} as item, m.created_at, m.org_id, m.user_id
            from public.organization_members m
            left join auth.users u on u.id = m.user_id
           ${after ? sql`where ${before(after)}` : sql``}
           ${GLOBAL_ORDER}
           limit ${sql.lit(pageSize)}
        ) p
    )
    select string_agg(item, ',' order by n) as chunk, count(*) as count,
           (select array[l.created_at::text, l.org_id::text, l.user_id::text] from page l order by l.n desc limit 1) as last
      from page
     group by (n - 1) / ${sql.lit(ITEMS_PER_CHUNK)}
     order by (n - 1) / ${sql.lit(ITEMS_PER_CHUNK)}`.execute(db);
  const last = rows[0]?.last;
  return {
    chunks: rows.map((r) => r.chunk),
    count: rows.reduce((sum, r) => sum + Number(r.count), 0),
    last: last ? { created_at: last[0], org_id: last[1], user_id: last[2] } : null,
  };
}

/**
 * Every membership (global staff mode), newest first, as one `COPY` in PostgreSQL's binary
 * format (text arrives unescaped), run like psql's `\copy`: one snapshot, a parallel join, the
 * item parts built by its workers. The ids and `created_at` come as binary values: formatting
 * 2,000,000 UUIDs and 1,000,000 timestamps as text was a third of PostgreSQL's time per list.
 * Columns: `GLOBAL_COPY_COLUMNS`.
 */
export function globalMembersCopyStatement(db: Database): string {
  const { sql: text, parameters } = sql`copy (
    select m.org_id, m.user_id, ${ITEM_AFTER_USER_ID}, m.created_at, ${ITEM_AFTER_CREATED_AT}
      from public.organization_members m
      left join auth.users u on u.id = m.user_id
     ${GLOBAL_ORDER}
  ) to stdout (format binary)`.compile(db);
  if (parameters.length > 0) throw new Error('a COPY statement cannot take parameters');
  return text;
}

/** The columns of `globalMembersCopyStatement`, in order. */
export const GLOBAL_COPY_COLUMNS = ['org_id', 'user_id', 'after_user_id', 'created_at', 'after_created_at'] as const;

/** Every row an invitation of an e-mail without an account writes, each built by its module. */
export interface NewAccountInvitation {
  account: { id: string; email: string; metadata: UserMetadata; preferences: AuthPreferences };
  membership: { org_id: string; role: MemberRole };
  /** The per-address limit of invitations, counted under the account's e-mail. */
  limit: AddressLimit;
  token: OneTimeTokenRow;
  mail: ReturnType<typeof outboxRow>;
  event: AccessEvent;
}

/**
 * An invitation of an e-mail that has no account, in ONE statement: the account with its
 * sign-in preferences, the membership, the address's count of invitations, the one-time token,
 * the e-mail (outbox) and the audit event. Every row after the account is written only when
 * the account is (`from u`), so the statement writes all or nothing.
 *
 * It answers false, having written nothing, when the address has an account (or one is being
 * created: the unique e-mail waits for it), or when its invitations are at the limit; the
 * caller then takes the general way, which decides those cases (docs/access.md's rules, 429).
 * An invitation took eight round trips; this is the common case in one.
 */
export async function insertNewAccountInvitation(db: Database, invitation: NewAccountInvitation): Promise<boolean> {
  const { account, membership, limit, token, mail, event } = invitation;
  const key = limitKey(limit, account.email);
  const { rows } = await sql<{ id: string }>`${preparedStatement('invite_new_account')}
    with u as (
      insert into auth.users (id, email, user_metadata)
      select ${account.id}::uuid, ${account.email}::text, ${JSON.stringify(account.metadata)}::jsonb
       where not ${limitReached(limit, key)}
      on conflict (email) do nothing
      returning id
    ), preferences as (
      insert into public.user_auth_preferences (user_id, allow_magic_link, allow_password)
      select id, ${account.preferences.allow_magic_link}::boolean, ${account.preferences.allow_password}::boolean from u
    ), membership as (
      insert into public.organization_members (org_id, user_id, role, revoked)
      select ${membership.org_id}::uuid, id, ${membership.role}::text, false from u
    ), counted as (
      insert into public.rate_limits as r (key, hits, expires_at)
      select ${key}::text, 1, ${windowEnd(limit.windowMs)} from u
      ${COUNT_ON_CONFLICT}
    ), token as (
      insert into auth.one_time_tokens (id, user_id, kind, org_id, secret_hash, expires_at)
      select ${token.id}::text, id, ${token.kind}::text, ${token.org_id}::uuid, ${token.secret_hash}::text, ${token.expires_at}::timestamptz from u
    ), mail as (
      insert into public.mail_outbox (kind, recipient, extra_to, cc, subject, text_body, html_body)
      select ${mail.kind}::text, ${mail.recipient}::text, ${mail.extra_to}::text[], ${mail.cc}::text[],
             ${mail.subject}::text, ${mail.text_body}::text, ${mail.html_body}::text from u
    ), event as (
      insert into public.access_events (org_id, action, actor_user_id, actor_email, target_user_id, target_email, old_role, new_role)
      select ${event.org_id ?? null}::uuid, ${event.action}::text, ${event.actor_user_id ?? null}::uuid, ${event.actor_email ?? null}::text,
             id, ${event.target_email ?? null}::text, ${event.old_role ?? null}::text, ${event.new_role ?? null}::text from u
    )
    select id from u`.execute(db);
  return rows.length > 0;
}
