/**
 * SQL of the gate's facts: a session, the caller's organization (`get_my_org` for a
 * member, the given organization for staff) and membership there, in one statement, optionally
 * with a page of that organization's rows. Read by `scope-reader.ts`; the access list
 * (`access/access.repository.ts`) builds its own statement on the same CTEs.
 */
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import { preparedStatement, type Database } from '../db/database.ts';
import type { JsonPageRow } from '../http/list.ts';
import { SESSION_EXPIRED, SESSION_RENEWAL_DUE, type SessionRow } from '../identity/identity.repository.ts';
import type { MemberRole } from './permissions.ts';

/** What `readSessionScopeList` returns: the session row of `findSession`, then the scope. */
export interface SessionScopeListRow extends SessionRow {
  /** Non-staff: `get_my_org`; staff: the organization id given. */
  org_id: string | null;
  /** The caller's membership in `org_id` (non-staff only). */
  member_role: MemberRole | null;
  member_revoked: boolean | null;
  /** The name of `org_id`, read for changes (`readSessionScope`) so that they need not read it again; else null. */
  org_name: string | null;
  /** The JSON array of `org_id`'s members, read only when the session is valid and the role may see it. */
  items: string | null;
}

export interface SessionScopeInput {
  sessionId: string;
  secretHash: string;
  staffOrgId: string | null;
}

/**
 * Compiles `build` once and returns a function giving the compiled query for new values: each
 * value is passed where the compiled statement placed it (found by compiling marked values).
 */
export function compileOnce<I extends object>(db: Database, build: (input: I) => RawBuilder<unknown>, keys: Array<keyof I>): (input: I) => CompiledQuery {
  const marked = Object.fromEntries(keys.map((k) => [k, `\u0000${String(k)}`])) as I;
  const compiled = build(marked).compile(db);
  const order = compiled.parameters.map((value) => {
    const key = keys.find((k) => marked[k] === value);
    if (key === undefined) throw new Error('compileOnce: a value of the statement does not come from its input');
    return key;
  });
  return (input) =>
    CompiledQuery.raw(
      compiled.sql,
      order.map((k) => input[k]),
    );
}

/**
 * The session, the caller's organization and membership, without the list: what the gate of
 * any organization route decides on, in one round trip instead of three (session,
 * `get_my_org`, membership). `items` is always null.
 */
export async function readSessionScope(db: Database, input: SessionScopeInput): Promise<SessionScopeListRow | undefined> {
  sessionScope ??= compileOnce<SessionScopeInput>(db, sessionScopeQuery, ['sessionId', 'secretHash', 'staffOrgId']);
  const { rows } = await db.executeQuery<SessionScopeListRow>(sessionScope(input));
  return rows[0];
}

let sessionScope: ((input: SessionScopeInput) => CompiledQuery) | undefined;

/** `readSessionScope`'s statement: the scope and the organization's name, no list. */
function sessionScopeQuery(input: SessionScopeInput): RawBuilder<SessionScopeListRow> {
  return sql<SessionScopeListRow>`${preparedStatement('session_scope')}
    ${sessionScopeCtes(input)}
    select ${SCOPE_COLUMNS},
           (select o.name from public.organizations o where o.id = ch.org_id) as org_name,
           null::text as items
      from checked ch`;
}

/** The session, the caller's organization and membership there, as CTEs ending in `checked`. */
export function sessionScopeCtes(input: SessionScopeInput): RawBuilder<unknown> {
  return sql`with caller as (
      select s.id as session_id, s.secret_hash, ${SESSION_EXPIRED} as expired, ${SESSION_RENEWAL_DUE} as renewal_due,
             u.id as user_id, u.email, u.user_metadata,
             coalesce(st.is_staff, false) as is_staff,
             case when st.is_staff then st.level end as staff_level,
             s.secret_hash = ${input.secretHash} and not (${SESSION_EXPIRED}) as valid
        from auth.sessions s
        join auth.users u on u.id = s.user_id
        left join public.staff_users st on st.user_id = s.user_id
       where s.id = ${input.sessionId}
    ), scoped as (
      select c.*, case when c.is_staff then ${input.staffOrgId}::uuid else public.get_my_org(c.user_id) end as org_id
        from caller c
    ), checked as (
      select sc.*, cm.role as member_role, cm.revoked as member_revoked
        from scoped sc
        left join public.organization_members cm
          on not sc.is_staff and cm.org_id = sc.org_id and cm.user_id = sc.user_id
    )`;
}

/** `SessionScopeListRow`'s columns up to the membership, read from `checked ch`. */
export const SCOPE_COLUMNS = sql`ch.session_id, ch.secret_hash, ch.expired, ch.renewal_due, ch.user_id, ch.email, ch.user_metadata,
           ch.is_staff, ch.staff_level, ch.org_id, ch.member_role, ch.member_revoked`;

/** What `readSessionScopePage` returns: the scope, and the page when it was read (`items` not null). */
export interface SessionScopePageRow extends SessionScopeListRow {
  next_keys: string | null;
}

/** A page of one organization's rows (`keysetJsonPageRow`), its organization given as an expression. */
export type OrgPage = (orgId: RawBuilder<string | null>) => RawBuilder<JsonPageRow>;

/**
 * The session, the caller's organization and membership (as `readSessionScope`) and, when the
 * session holds and the caller is a member of that organization holding one of `roles`, a page
 * of it (`page`), in one round trip: a member's list route pays one statement, not two. For
 * anyone else the page reads nothing (its organization is null) and `items` is null. The gate
 * still decides everything from the row with `can()`. `preparedAs` names the statement when
 * the page's plan does not depend on its values.
 */
export async function readSessionScopePage(
  db: Database,
  input: SessionScopeInput,
  page: OrgPage,
  roles: readonly MemberRole[],
  preparedAs?: string,
): Promise<SessionScopePageRow | undefined> {
  const readable = sql`ch.valid and not ch.is_staff and ch.member_role in (${sql.join(roles.map((role) => sql.lit(role)))}) and not ch.member_revoked`;
  const query = sql<SessionScopePageRow>`${preparedAs ? preparedStatement(preparedAs) : sql``}
    ${sessionScopeCtes(input)}
    select ${SCOPE_COLUMNS}, null::text as org_name,
           case when ${readable} then coalesce(p.items, '') end as items, p.next_keys
      from checked ch
      left join lateral (${page(sql<string | null>`case when ${readable} then ch.org_id end`)}) as p on true`;
  const { rows } = await query.execute(db);
  return rows[0];
}
