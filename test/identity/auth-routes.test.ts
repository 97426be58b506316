import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, sessionCookieOf, sql } from '../helper.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { createOrg, member } from '../support/fixtures.ts';
import { ensureAccount, issueOneTimeToken } from '../../src/identity/identity.service.ts';
import { upsertAuthPreferences } from '../../src/identity/identity.repository.ts';
import type { Database } from '../../src/db/database.ts';

const LINK = /^https:\/\/paie\.example\.com\/activate#token=([A-Za-z0-9_.%-]+)&type=magiclink$/m;

async function withSmtp(t: { after(fn: () => unknown): void }): Promise<TestSmtpServer> {
  const smtp = await startSmtpServer();
  t.after(() => smtp.stop());
  return smtp;
}

async function outboxCount(db: Database): Promise<number> {
  const { count } = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** A signed-in session cookie for a new account. */
async function signedIn(app: Awaited<ReturnType<typeof build>>['app'], db: Database, email: string): Promise<string> {
  const { account } = await ensureAccount(db, email, { first_name: 'Ana' });
  const token = await issueOneTimeToken(db, account.id, 'magiclink');
  const res = await app.inject({ method: 'POST', url: '/auth/session', payload: { token } });
  assert.equal(res.statusCode, 200);
  return sessionCookieOf(res);
}

describe('POST /auth/magic-link', () => {
  it('should answer {ok:true} and queue nothing for an unknown e-mail', async (t) => {
    const smtp = await withSmtp(t);
    const { app, database } = await build(t, { env: { SMTP_URL: smtp.url }, app: { mailWorker: true, mailPollMs: 20 } });
    const res = await app.inject({ method: 'POST', url: '/auth/magic-link', payload: { email: 'nobody@example.com' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true });
    await app.afterAnswer.settled();
    assert.equal(await outboxCount(database.db), 0);
    assert.equal(await app.mail.flush(), 0);
    assert.equal(smtp.messages.length, 0);
  });

  it('should e-mail a sign-in link that opens a session', async (t) => {
    const smtp = await withSmtp(t);
    const { app, database } = await build(t, { env: { SMTP_URL: smtp.url }, app: { mailWorker: true, mailPollMs: 20 } });
    await ensureAccount(database.db, 'ana@example.com', { first_name: 'Ana' });

    const res = await app.inject({ method: 'POST', url: '/auth/magic-link', payload: { email: '  Ana@Example.COM ' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true });

    const [mail] = await smtp.waitFor(1);
    assert.equal(mail!.subject, 'Votre lien de connexion');
    assert.deepEqual(mail!.envelope.to, ['ana@example.com']);
    assert.match(mail!.text, /^Bonjour Ana,$/m);
    assert.match(mail!.text, /valable 1 heure/);
    const match = LINK.exec(mail!.text);
    assert.ok(match, `a sign-in link in:\n${mail!.text}`);
    // The HTML part carries the same link (with & escaped in the attribute).
    assert.ok(mail!.html.includes(`href="${match[0].replace(/&/g, '&amp;')}"`));

    const session = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: decodeURIComponent(match[1]!) } });
    assert.equal(session.statusCode, 200);
    assert.deepEqual(session.json(), { ok: true, redirect: '/vos-acces' });
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(session) } });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().email, 'ana@example.com');
  });

  it('should send nothing when the account does not allow the magic link', async (t) => {
    const smtp = await withSmtp(t);
    const { app, database } = await build(t, { env: { SMTP_URL: smtp.url }, app: { mailWorker: true, mailPollMs: 20 } });
    const { account } = await ensureAccount(database.db, 'ana@example.com', {});
    await upsertAuthPreferences(database.db, account.id, { allow_magic_link: false, allow_password: true });

    const res = await app.inject({ method: 'POST', url: '/auth/magic-link', payload: { email: 'ana@example.com' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true });
    await app.afterAnswer.settled();
    assert.equal(await outboxCount(database.db), 0);
    const { count } = await database.db
      .selectFrom('auth.one_time_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count), 0, 'no token issued');
    // A flush resolves once every message it sent has been received (the test server keeps it first).
    await app.mail.flush();
    assert.equal(smtp.messages.length, 0);
  });

  it('should answer 429 rate_limited to the 6th request of the window', async (t) => {
    const { app } = await build(t);
    for (let i = 1; i <= 5; i++) {
      const res = await app.inject({ method: 'POST', url: '/auth/magic-link', payload: { email: `user${i}@example.com` } });
      assert.equal(res.statusCode, 200, `request ${i}`);
    }
    const limited = await app.inject({ method: 'POST', url: '/auth/magic-link', payload: { email: 'user6@example.com' } });
    assert.equal(limited.statusCode, 429);
    assert.match(String(limited.headers['content-type']), /^application\/json/);
    const body = limited.json();
    assert.equal(body.error, 'rate_limited');
    assert.equal(typeof body.message, 'string');
    assert.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After header');

    // Another client address has its own allowance.
    const other = await app.inject({
      method: 'POST',
      url: '/auth/magic-link',
      remoteAddress: '192.0.2.7',
      payload: { email: 'user7@example.com' },
    });
    assert.equal(other.statusCode, 200);
  });

  it('should send one address three links per window whoever asks, and answer an unknown address the same', async (t) => {
    const { app, database } = await build(t);
    await ensureAccount(database.db, 'ana@example.com', { first_name: 'Ana' });
    // Each request from another client: only the per-address limit applies.
    const ask = (email: string, i: number) => app.inject({ method: 'POST', url: '/auth/magic-link', remoteAddress: `192.0.2.${i}`, payload: { email } });
    for (const email of ['ana@example.com', 'nobody@example.com']) {
      const statuses: number[] = [];
      for (let i = 1; i <= 4; i++) statuses.push((await ask(i === 2 ? ` ${email.toUpperCase()} ` : email, i)).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429], email);
      const limited = await ask(email, 5);
      assert.equal(limited.statusCode, 429);
      assert.deepEqual(limited.json(), { error: 'rate_limited', message: 'Trop de demandes : réessayez dans un moment.' });
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    }
    await app.afterAnswer.settled();
    assert.equal(await outboxCount(database.db), 3);
    // Another address is not held back.
    assert.equal((await ask('other@example.com', 6)).statusCode, 200);
  });

  it('should answer 400 missing_email or invalid_email for an address that cannot be one, and count nothing', async (t) => {
    const { app, database } = await build(t);
    for (const [email, error] of [
      [undefined, 'missing_email'],
      ['  ', 'missing_email'],
      ['nobody', 'invalid_email'],
      ['a\u0000b@example.com', 'invalid_email'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: '/auth/magic-link', remoteAddress: '192.0.2.50', payload: email === undefined ? {} : { email } });
      assert.equal(res.statusCode, 400, JSON.stringify(email));
      assert.equal(res.json().error, error);
    }
    const { rows } = await sql<{ key: string }>`select key from public.rate_limits where key like 'sign-in-link %'`.execute(database.db);
    assert.deepEqual(rows, []);
  });

  it('should key its per-client limit by route and client address', async (t) => {
    const { app, database } = await build(t);
    await app.inject({ method: 'POST', url: '/auth/magic-link', remoteAddress: '192.0.2.60', payload: { email: 'ana@example.com' } });
    const { rows } = await sql<{ key: string }>`select key from public.rate_limits order by key`.execute(database.db);
    assert.deepEqual(
      rows.map((r) => r.key),
      ['POST /auth/magic-link 192.0.2.60', 'sign-in-link ana@example.com'],
    );
  });

  it('should count a client across two instances on one database', async (t) => {
    const first = await build(t);
    const second = await build(t, { database: first.database });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const app = i % 2 ? first.app : second.app;
      statuses.push((await app.inject({ method: 'POST', url: '/auth/magic-link', payload: { email: `user${i}@example.com` } })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });
});

describe('POST /auth/logout', () => {
  it('should end the session and clear the cookie', async (t) => {
    const { app, database } = await build(t);
    const cookie = await signedIn(app, database.db, 'ana@example.com');
    assert.equal((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode, 200);

    const res = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true });
    const cleared = res.cookies.find((c) => c.name === 'session');
    assert.ok(cleared, 'a Set-Cookie for session');
    assert.equal(cleared.value, '');
    assert.equal(cleared.path, '/');
    assert.ok(cleared.expires instanceof Date && cleared.expires.getTime() <= Date.now(), 'expired cookie');

    const after = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    assert.equal(after.statusCode, 401);
    assert.equal(after.body, 'Unauthorized');
    const { count } = await database.db
      .selectFrom('auth.sessions')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count), 0);
  });

  it('should answer 200 and clear the cookie without a session', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'POST', url: '/auth/logout' });
    assert.equal(res.statusCode, 200);
    assert.ok(res.cookies.some((c) => c.name === 'session' && c.value === ''));
  });
});

describe('POST /auth/session', () => {
  for (const kind of ['magiclink', 'invite'] as const) {
    it(`should refuse an expired ${kind} token with 401 invalid_token`, async (t) => {
      const { app, database } = await build(t);
      const { account } = await ensureAccount(database.db, 'ana@example.com', {});
      const token = await issueOneTimeToken(database.db, account.id, kind);
      await database.db.updateTable('auth.one_time_tokens').set({ expires_at: sql`now() - interval '1 second'` }).where('user_id', '=', account.id).execute();

      const res = await app.inject({ method: 'POST', url: '/auth/session', payload: { token } });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error, 'invalid_token');
      assert.equal(typeof res.json().message, 'string');
      assert.equal(
        res.cookies.find((c) => c.name === 'session'),
        undefined,
      );
      const user = await database.db.selectFrom('auth.users').select('activated_at').where('id', '=', account.id).executeTakeFirstOrThrow();
      assert.equal(user.activated_at, null, 'not activated by an expired link');
    });
  }

  it('should end the session the browser held when it signs in again', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const first = await signedIn(app, db, 'ana@example.com');
    const { account } = await ensureAccount(db, 'bob@example.com', {});
    const token = await issueOneTimeToken(db, account.id, 'magiclink');
    const res = await app.inject({ method: 'POST', url: '/auth/session', headers: { cookie: first }, payload: { token } });
    assert.equal(res.statusCode, 200);
    // The old cookie no longer opens anything, on the server: its row is gone.
    const old = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: first } });
    assert.equal(old.statusCode, 401);
    const sessions = await db.selectFrom('auth.sessions').select('user_id').execute();
    assert.deepEqual(sessions, [{ user_id: account.id }]);
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(res) } });
    assert.equal(me.json().email, 'bob@example.com');
    // A failed sign-in leaves the session that works in place.
    const failed = await app.inject({ method: 'POST', url: '/auth/session', headers: { cookie: sessionCookieOf(res) }, payload: { token } });
    assert.equal(failed.statusCode, 401);
    assert.equal((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: sessionCookieOf(res) } })).statusCode, 200);
  });

  it('should push a used session back 7 days, never past 30 days after sign-in', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const cookie = await signedIn(app, db, 'ana@example.com');
    const day = 24 * 3600_000;
    const fresh = await db.selectFrom('auth.sessions').select(['created_at', 'expires_at']).executeTakeFirstOrThrow();
    assert.ok(Math.abs(fresh.expires_at.getTime() - fresh.created_at.getTime() - 7 * day) < 60_000, 'a 7-day sliding expiry');
    // Used every day for 29 days and 22 hours: the next renewal stops at 30 days after sign-in.
    const createdAt = new Date(Date.now() - 30 * day + 2 * 3600_000);
    await db
      .updateTable('auth.sessions')
      .set({ created_at: createdAt, last_verified_at: new Date(Date.now() - 2 * 3600_000) })
      .execute();
    assert.equal((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode, 200);
    const renewed = await db.selectFrom('auth.sessions').select('expires_at').executeTakeFirstOrThrow();
    assert.ok(Math.abs(renewed.expires_at.getTime() - (createdAt.getTime() + 30 * day)) < 60_000, `expires ${renewed.expires_at.toISOString()}`);
    // Past that point the session is over, however recently it was used.
    await db
      .updateTable('auth.sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    assert.equal((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode, 401);
  });

  it('should answer 429 after 10 wrong tokens from one client, and not count good ones', async (t) => {
    const { app, database } = await build(t);
    const { account } = await ensureAccount(database.db, 'ana@example.com', {});
    for (let i = 0; i < 12; i++) {
      const good = await issueOneTimeToken(database.db, account.id, 'magiclink');
      assert.equal((await app.inject({ method: 'POST', url: '/auth/session', remoteAddress: '192.0.2.70', payload: { token: good } })).statusCode, 200);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await app.inject({ method: 'POST', url: '/auth/session', remoteAddress: '192.0.2.70', payload: { token: 'nope' } })).statusCode);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    const good = await issueOneTimeToken(database.db, account.id, 'magiclink');
    const limited = await app.inject({ method: 'POST', url: '/auth/session', remoteAddress: '192.0.2.70', payload: { token: good } });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) > 14 * 60);
    // Another client is not held back.
    assert.equal((await app.inject({ method: 'POST', url: '/auth/session', remoteAddress: '192.0.2.71', payload: { token: good } })).statusCode, 200);
  });

  it('should refuse a token that is malformed or has a wrong secret', async (t) => {
    const { app, database } = await build(t);
    const { account } = await ensureAccount(database.db, 'ana@example.com', {});
    const token = await issueOneTimeToken(database.db, account.id, 'magiclink');
    const [id] = token.split('.');
    for (const bad of ['nope', `${id}.${'A'.repeat(43)}`, '']) {
      const res = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: bad } });
      assert.equal(res.statusCode, 401, bad);
      assert.equal(res.json().error, 'invalid_token');
    }
    // The right token still works after the failed tries.
    assert.equal((await app.inject({ method: 'POST', url: '/auth/session', payload: { token } })).statusCode, 200);
  });
});

describe('session cookies', () => {
  it('should refuse a cookie that names a real session with another secret, on each way a session is read', async (t) => {
    const { app, database } = await build(t);
    const orgId = await createOrg(database.db, 'Théâtre du Soleil');
    const { cookie } = await member(app, database.db, orgId, 'admin@example.com', 'ADMIN');
    const [id, secret] = cookie.replace(/^session=/, '').split('.') as [string, string];
    const forged = `session=${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    // /api/me reads the session alone; GET /api/access reads it in the list's statement.
    for (const url of ['/api/me', '/api/access']) {
      assert.equal((await app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, 200, url);
      const refused = await app.inject({ method: 'GET', url, headers: { cookie: forged } });
      assert.equal(refused.statusCode, 401, url);
      assert.equal(refused.body, 'Unauthorized');
    }
  });

  for (const url of ['/api/me', '/api/access']) {
    it(`should renew a session used after an hour, and end an expired one, on ${url}`, async (t) => {
      const { app, database } = await build(t);
      const db = database.db;
      const orgId = await createOrg(db, 'Théâtre du Soleil');
      const { cookie } = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
      const session = () => db.selectFrom('auth.sessions').select(['expires_at', 'last_verified_at']).executeTakeFirst();
      const day = 24 * 3600_000;
      // Verified 50 minutes ago: no write. 70 minutes ago: pushed back to 7 days from now.
      const soon = new Date(Date.now() + day);
      await db
        .updateTable('auth.sessions')
        .set({ expires_at: soon, last_verified_at: new Date(Date.now() - 50 * 60_000) })
        .execute();
      assert.equal((await app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, 200);
      assert.equal((await session())!.expires_at.getTime(), soon.getTime());
      await db
        .updateTable('auth.sessions')
        .set({ last_verified_at: new Date(Date.now() - 70 * 60_000) })
        .execute();
      assert.equal((await app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, 200);
      const renewed = (await session())!;
      assert.ok(Math.abs(renewed.expires_at.getTime() - (Date.now() + 7 * day)) < 60_000, `expires ${renewed.expires_at.toISOString()}`);
      assert.ok(Date.now() - renewed.last_verified_at.getTime() < 60_000);
      // Expired: refused, and the session is deleted.
      await db
        .updateTable('auth.sessions')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .execute();
      const refused = await app.inject({ method: 'GET', url, headers: { cookie } });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.body, 'Unauthorized');
      assert.equal(await session(), undefined);
    });
  }
});
