/** SQL of the identity provider: accounts, one-time tokens, sessions, auth preferences. */
import { sql } from 'kysely';
import { preparedStatement, type Database } from '../db/database.ts';
import type { StaffLevel, User, UserMetadata } from '../db/schema.ts';

/** What `find_user_by_email` returns of an account. */
export type Account = Pick<User, 'id' | 'email' | 'user_metadata' | 'activated_at'>;

/** The lookup goes through the SQL function `find_user_by_email`. */
export async function findUserByEmail(db: Database, email: string): Promise<Account | undefined> {
  const { rows } = await sql<Account>`${preparedStatement('find_user_by_email')}
    select * from public.find_user_by_email(email_param => ${email})`.execute(db);
  return rows[0];
}

export function findUserById(db: Database, id: string): Promise<User | undefined> {
  return db.selectFrom('auth.users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Creates the account unless the e-mail is taken. Two requests racing on one e-mail both
 * reach the unique index; the loser gets `undefined` and reads the winner's account.
 */
export async function insertUserIfAbsent(db: Database, email: string, metadata: UserMetadata, preferences?: AuthPreferences): Promise<User | undefined> {
  if (!preferences) {
    return db
      .insertInto('auth.users')
      .values({ email, user_metadata: JSON.stringify(metadata) })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
  }
  // The account and its sign-in preferences in one statement (an invitation's hot path).
  const { rows } = await sql<User>`${preparedStatement('insert_user_with_preferences')}
    with u as (
      insert into auth.users (email, user_metadata) values (${email}, ${JSON.stringify(metadata)})
      on conflict (email) do nothing
      returning *
    ), p as (
      insert into user_auth_preferences (user_id, allow_magic_link, allow_password)
      select id, ${preferences.allow_magic_link}, ${preferences.allow_password} from u
      on conflict (user_id) do update set allow_magic_link = excluded.allow_magic_link, allow_password = excluded.allow_password
    )
    select * from u`.execute(db);
  return rows[0];
}

export interface AuthPreferences {
  allow_magic_link: boolean;
  allow_password: boolean;
}

export async function markActivated(db: Database, userId: string): Promise<void> {
  await db.updateTable('auth.users').set({ activated_at: sql`coalesce(activated_at, now())` }).where('id', '=', userId).execute();
}

export async function upsertAuthPreferences(db: Database, userId: string, prefs: { allow_magic_link: boolean; allow_password: boolean }): Promise<void> {
  await db
    .insertInto('user_auth_preferences')
    .values({ user_id: userId, ...prefs })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(prefs))
    .execute();
}

export async function allowsMagicLink(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user_auth_preferences').select('allow_magic_link').where('user_id', '=', userId).executeTakeFirst();
  // No preferences recorded: accounts made by staff or the CLI sign in by link.
  return row?.allow_magic_link ?? true;
}

/**
 * Stores a new one-time token; the older unused ones of the same kind stop working: those of
 * the same organization (`org_id`, null for sign-in links and staff invitations), never
 * another's. One statement (the update and the insert touch different rows).
 */
/** A one-time token as written (its secret hashed). */
export type OneTimeTokenRow = { id: string; user_id: string; kind: 'invite' | 'magiclink'; secret_hash: string; expires_at: Date; org_id: string | null };

export async function replaceOneTimeToken(db: Database, token: OneTimeTokenRow): Promise<void> {
  await sql`${preparedStatement('one_time_token')}
    with retired as (
      update auth.one_time_tokens set used_at = now()
       where user_id = ${token.user_id} and kind = ${token.kind} and org_id is not distinct from ${token.org_id}::uuid and used_at is null
    )
    insert into auth.one_time_tokens (id, user_id, kind, org_id, secret_hash, expires_at)
    values (${token.id}, ${token.user_id}, ${token.kind}, ${token.org_id}::uuid, ${token.secret_hash}, ${token.expires_at})`.execute(db);
}

/** A token row with its account's e-mail, read without a lock and without using it. */
export function findOneTimeTokenAccount(db: Database, id: string) {
  return db
    .selectFrom('auth.one_time_tokens as t')
    .innerJoin('auth.users as u', 'u.id', 't.user_id')
    .select(['u.email', 't.secret_hash', 't.used_at', sql<boolean>`t.expires_at <= now()`.as('expired')])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

/** Locks the token row so that two sign-ins with one token cannot both succeed. */
export function lockOneTimeToken(db: Database, id: string) {
  return db
    .selectFrom('auth.one_time_tokens')
    .select(['id', 'user_id', 'kind', 'secret_hash', 'used_at', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function markOneTimeTokenUsed(db: Database, id: string): Promise<void> {
  await db.updateTable('auth.one_time_tokens').set({ used_at: sql`now()` }).where('id', '=', id).execute();
}

export async function insertSession(db: Database, session: { id: string; user_id: string; secret_hash: string; expires_at: Date }): Promise<void> {
  await db.insertInto('auth.sessions').values(session).execute();
}

export interface SessionRow {
  session_id: string;
  secret_hash: string;
  /** The session has ended (`SESSION_EXPIRED`). */
  expired: boolean;
  /** Its expiry is to be pushed back (`SESSION_RENEWAL_DUE`). */
  renewal_due: boolean;
  user_id: string;
  email: string;
  user_metadata: UserMetadata;
  is_staff: boolean;
  staff_level: StaffLevel | null;
}

/*
 * A session's end and renewal are decided by the database's clock, which every instance
 * shares, on the session aliased `s`. Its expiry is pushed back at most hourly, to spare a
 * write per request.
 */
export const SESSION_EXPIRED = sql<boolean>`s.expires_at <= now()`;
export const SESSION_RENEWAL_DUE = sql<boolean>`now() - s.last_verified_at > interval '1 hour'`;

/** One query gives the session, its account and the account's staff status. */
export function findSession(db: Database, sessionId: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('auth.sessions as s')
    .innerJoin('auth.users as u', 'u.id', 's.user_id')
    .leftJoin('staff_users as st', 'st.user_id', 's.user_id')
    .select([
      's.id as session_id',
      's.secret_hash',
      SESSION_EXPIRED.as('expired'),
      SESSION_RENEWAL_DUE.as('renewal_due'),
      'u.id as user_id',
      'u.email',
      'u.user_metadata',
      sql<boolean>`coalesce(st.is_staff, false)`.as('is_staff'),
      sql<StaffLevel | null>`case when st.is_staff then st.level end`.as('staff_level'),
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst() as Promise<SessionRow | undefined>;
}

/** Pushes the expiry back to `ttlMs` from now, never past `maxAgeMs` after the session began. */
export async function extendSession(db: Database, sessionId: string, ttlMs: number, maxAgeMs: number): Promise<void> {
  await db
    .updateTable('auth.sessions')
    .set({
      expires_at: sql`least(now() + ${ttlMs} * interval '1 millisecond', created_at + ${maxAgeMs} * interval '1 millisecond')`,
      last_verified_at: sql`now()`,
    })
    .where('id', '=', sessionId)
    .execute();
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.deleteFrom('auth.sessions').where('id', '=', sessionId).execute();
}

export async function deleteUserSessions(db: Database, userId: string): Promise<void> {
  await db.deleteFrom('auth.sessions').where('user_id', '=', userId).execute();
}
