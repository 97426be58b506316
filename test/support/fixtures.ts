/** Data builders for tests: organizations, accounts with sessions, memberships, staff. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database.ts';
import type { MemberRole, StaffLevel, UserMetadata } from '../../src/db/schema.ts';
import { ensureAccount, issueOneTimeToken, signInWithToken } from '../../src/identity/identity.service.ts';
import { SESSION_COOKIE } from '../../src/identity/session.plugin.ts';

export async function createOrg(db: Database, name: string, key: string | null = null): Promise<string> {
  const row = await db.insertInto('organizations').values({ name, structure_api: key }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface Person {
  userId: string;
  email: string;
  /** A `cookie` header value carrying the person's session. */
  cookie: string;
}

/**
 * An account signed in, optionally staff: a one-time token exchanged for a session by the
 * service the sign-in route calls, without the HTTP round trip (the route has tests of its own).
 */
export async function signedIn(
  _app: FastifyInstance,
  db: Database,
  email: string,
  options: { staff?: StaffLevel; metadata?: UserMetadata } = {},
): Promise<Person> {
  const { account } = await ensureAccount(db, email, options.metadata ?? {});
  if (options.staff) {
    await db.insertInto('staff_users').values({ user_id: account.id, is_staff: true, level: options.staff }).execute();
  }
  const token = await issueOneTimeToken(db, account.id, 'magiclink');
  const { sessionToken } = await signInWithToken(db, token);
  return { userId: account.id, email, cookie: `${SESSION_COOKIE}=${sessionToken}` };
}

export async function addMembership(
  db: Database,
  orgId: string,
  userId: string,
  role: MemberRole,
  options: { revoked?: boolean; createdAt?: Date } = {},
): Promise<void> {
  await db
    .insertInto('organization_members')
    .values({
      org_id: orgId,
      user_id: userId,
      role,
      revoked: options.revoked ?? false,
      revoked_at: options.revoked ? new Date() : null,
      ...(options.createdAt ? { created_at: options.createdAt } : {}),
    })
    .execute();
}

/** A signed-in member of an organization. */
export async function member(
  app: FastifyInstance,
  db: Database,
  orgId: string,
  email: string,
  role: MemberRole,
  options: { revoked?: boolean; metadata?: UserMetadata } = {},
): Promise<Person> {
  const person = await signedIn(app, db, email, { metadata: options.metadata });
  await addMembership(db, orgId, person.userId, role, { revoked: options.revoked });
  return person;
}

/** Every e-mail queued in the outbox, oldest first. */
export function outbox(db: Database) {
  return db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();
}

/** The token of the activation link in an e-mail body. */
export function linkToken(body: string, type: 'invite' | 'magiclink' = 'invite'): string {
  const match = new RegExp(`/activate#token=([A-Za-z0-9_.%-]+)&type=${type}`).exec(body);
  if (!match) throw new Error(`no ${type} link in: ${body.slice(0, 300)}`);
  return decodeURIComponent(match[1]!);
}

/** A CDDU's body for `POST /api/contrats`: March 2027, two dated amounts (642.40 in all). */
export const cddu = (employee_id: string, extra: object = {}) => ({
  employee_id,
  kind: 'CDDU',
  job_title: 'Comédienne',
  show_title: 'Les Misérables',
  idcc: '3090',
  start_date: '2027-03-01',
  end_date: '2027-03-31',
  dates: [
    { date: '2027-03-02', nature: 'repetition', quantity: 1, amount: '180' },
    { date: '2027-03-20', nature: 'representation', quantity: '2', amount: 462.4 },
  ],
  ...extra,
});
