/**
 * Sessions and tokens against the real server process: a token works once, an expired one
 * fails, a session ends at logout, sign-in requests are rate-limited, and no token or cookie
 * value ever reaches the logs.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { issueOneTimeToken } from '../../src/identity/identity.service.ts';
import { freshDatabase, usingPostgres } from '../helper.ts';
import { createOrg } from '../support/fixtures.ts';
import { startServer, tempDir } from '../cli/processes.ts';
import { count } from './counts.ts';

describe('sessions and tokens', { skip: usingPostgres ? false : 'needs PostgreSQL: run with TEST_DATABASE_URL' }, () => {
  it('should use each token once, refuse expired ones, end sessions at logout, rate-limit, and log no secret', async (t) => {
    const database = await freshDatabase();
    const db = database.db;
    const server = await startServer({ DATABASE_URL: database.url!, DATA_DIR: tempDir(t), PUBLIC_URL: 'https://paie.example.com' });
    t.after(async () => {
      await server.stop();
      await database.close();
    });
    const secrets: string[] = [];
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const orgId = await createOrg(db, 'Org');
    const account = await db.insertInto('auth.users').values({ email: 'admin@example.com' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('organization_members').values({ org_id: orgId, user_id: account.id, role: 'ADMIN' }).execute();

    // Once.
    const token = await issueOneTimeToken(db, account.id, 'magiclink');
    secrets.push(token);
    const first = await post('/auth/session', { token });
    assert.equal(first.status, 200);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    secrets.push(cookie.split('=')[1]!);
    const second = await post('/auth/session', { token });
    assert.equal(second.status, 401);
    assert.equal((await second.json()).error, 'invalid_token');
    count('cases', 2);

    // Expired.
    const late = await issueOneTimeToken(db, account.id, 'magiclink');
    secrets.push(late);
    await db
      .updateTable('auth.one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('used_at', 'is', null)
      .execute();
    assert.equal((await post('/auth/session', { token: late })).status, 401);
    count('cases');

    // The session works, invitations carry tokens the logs must not show, then logout ends it.
    const me = await fetch(`${server.url}/api/me`, { headers: { cookie, authorization: 'Bearer do-not-log-me' } });
    assert.equal(me.status, 200);
    secrets.push('do-not-log-me');
    assert.equal((await post('/api/access', { email: 'invitee@example.com' }, cookie)).status, 200);
    const logout = await post('/auth/logout', {}, cookie);
    assert.equal(logout.status, 200);
    assert.match(logout.headers.get('set-cookie') ?? '', /session=;/);
    const after = await fetch(`${server.url}/api/me`, { headers: { cookie } });
    assert.equal(after.status, 401);
    assert.equal(await after.text(), 'Unauthorized');
    count('cases', 3);

    // Rate limits on sign-in requests: three per address, and five per client, in the window.
    const statuses = [];
    for (const email of ['admin@example.com', 'admin@example.com', 'admin@example.com', 'ADMIN@example.com', 'other@example.com', 'third@example.com']) {
      statuses.push((await post('/auth/magic-link', { email })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 200, 429]);
    count('cases', 6);

    // Tokens issued by the server itself (invitation, sign-in links) are in the outbox only.
    const mails = await db.selectFrom('mail_outbox').select('text_body').execute();
    for (const mail of mails) {
      const match = /#token=([^&\s]+)/.exec(mail.text_body);
      if (match) secrets.push(decodeURIComponent(match[1]!));
    }
    assert.ok(secrets.length >= 8);
    await new Promise((r) => setTimeout(r, 300));
    const logs = server.stdout() + server.stderr();
    assert.match(logs, /"reqId"/);
    for (const value of secrets) {
      assert.ok(!logs.includes(value), `a secret reached the logs: ${value.slice(0, 6)}…`);
      // Neither half of an id.secret token either.
      for (const part of value.split('.').filter((p) => p.length >= 16)) assert.ok(!logs.includes(part));
    }
    count('cases', secrets.length);
  });
});
