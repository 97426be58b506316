/**
 * Faults: the server killed during invitation traffic, SMTP down then back, PostgreSQL cut
 * off under load, two instances on one database. Runs on PostgreSQL (TEST_DATABASE_URL).
 */
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { sql } from 'kysely';
import app, { appOptions } from '../../src/app.ts';
import { openDatabase } from '../../src/db/database.ts';
import { issueOneTimeToken } from '../../src/identity/identity.service.ts';
import { build, freshDatabase, testConfig, usingPostgres } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { startServer, tempDir } from '../cli/processes.ts';
import { count } from './counts.ts';

const skip = usingPostgres ? false : 'needs PostgreSQL: run with TEST_DATABASE_URL';

/** The app on a fresh database that it reaches through a TCP proxy the test can cut. */
async function appBehindProxy(t: TestContext) {
  const database = await freshDatabase();
  const target = new URL(database.url!);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const proxied = new URL(database.url!);
  proxied.port = String(proxy.port);
  const handle = await openDatabase({ databaseUrl: proxied.toString(), pgliteDir: 'memory://' });
  const server = Fastify({ ...appOptions(), logger: false });
  t.after(async () => {
    await server.close();
    await handle.close();
    await proxy.close();
    await database.close();
  });
  await server.register(app, { config: testConfig(), database: handle, mailWorker: false });
  await server.ready();
  return { database, proxy, server };
}

describe('faults', { skip }, () => {
  it('should leave no half-made invitation and deliver every accepted one after a SIGKILL', async (t) => {
    const database = await freshDatabase();
    const db = database.db;
    const smtp = await startSmtpServer();
    let server: Awaited<ReturnType<typeof startServer>> | null = null;
    t.after(async () => {
      await server?.stop();
      await smtp.stop();
      await database.close();
    });
    const orgId = await createOrg(db, 'Org');
    const account = await db
      .insertInto('auth.users')
      .values({ email: 'admin@example.com', activated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('organization_members').values({ org_id: orgId, user_id: account.id, role: 'ADMIN' }).execute();
    const env = { DATABASE_URL: database.url!, SMTP_URL: smtp.url, DATA_DIR: tempDir(t), PUBLIC_URL: 'https://paie.example.com' };

    server = await startServer(env);
    const firstUrl = server.url;
    const signIn = await fetch(`${firstUrl}/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: await issueOneTimeToken(db, account.id, 'magiclink') }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;

    const accepted: string[] = [];
    let sent = 0;
    let killed = false;
    const worker = async (lane: number) => {
      for (let i = 0; !killed; i++) {
        const email = `inv-${lane}-${i}@example.com`;
        sent++;
        try {
          const res = await fetch(`${firstUrl}/api/access`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ email }),
          });
          if (res.status === 200 && (await res.json()).message === 'Invitation envoyée') accepted.push(email);
        } catch {
          return; // the server died under this request: its fate is checked below
        }
      }
    };
    const lanes = Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    while (accepted.length < 40) await new Promise((r) => setTimeout(r, 20));
    const victim = server;
    victim.child.kill('SIGKILL');
    killed = true;
    await victim.exited;
    await lanes;
    count('faults');
    count('cases', sent);

    // Nothing half-made: every account of the traffic has its membership, preferences and e-mail.
    const rows = await sql<{ email: string; member: boolean; prefs: boolean; mails: number }>`
      select u.email,
             exists(select 1 from organization_members m where m.user_id = u.id) as member,
             exists(select 1 from user_auth_preferences p where p.user_id = u.id) as prefs,
             (select count(*)::int from mail_outbox o where o.recipient = u.email) as mails
        from auth.users u where u.email like 'inv-%'`.execute(db);
    for (const row of rows.rows) assert.deepEqual([row.member, row.prefs, row.mails], [true, true, 1], row.email);
    for (const email of accepted)
      assert.ok(
        rows.rows.some((r) => r.email === email),
        `${email} was accepted but not stored`,
      );

    server = await startServer(env);
    // An e-mail the killed worker was sending stays leased until its lease runs out: let it.
    await db
      .updateTable('mail_outbox')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('status', '=', 'pending')
      .execute();
    const deadline = Date.now() + 60_000;
    const delivered = () => new Set(smtp.messages.flatMap((m) => m.envelope.to));
    while (Date.now() < deadline && !accepted.every((e) => delivered().has(e))) await new Promise((r) => setTimeout(r, 200));
    for (const email of accepted) assert.ok(delivered().has(email), `no activation e-mail for ${email}`);
  });

  it('should deliver every e-mail once, none twice, when SMTP is down for a while', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const proxy = await startTcpProxy('127.0.0.1', smtp.port);
    t.after(() => proxy.close());
    const { app: server, database } = await build(t, {
      env: { SMTP_URL: `smtp://127.0.0.1:${proxy.port}` },
      app: { mailWorker: true, mailPollMs: 50, mailRetryBaseMs: 100 },
    });
    const orgId = await createOrg(database.db, 'Org');
    const admin = await member(server, database.db, orgId, 'admin@example.com', 'ADMIN');
    proxy.down();
    count('faults');
    const emails = Array.from({ length: 30 }, (_, i) => `down${i}@example.com`);
    for (const email of emails) {
      const res = await server.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email } });
      assert.equal(res.statusCode, 200); // a delivery failure never fails the request
    }
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(smtp.messages.length, 0);
    proxy.up();
    await smtp.waitFor(30, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    const recipients = smtp.messages.flatMap((m) => m.envelope.to).sort();
    assert.deepEqual(recipients, [...emails].sort());
    count('cases', emails.length);
  });

  it('should answer 503 without hanging while PostgreSQL is unreachable, and recover by itself', async (t) => {
    const { database, proxy, server } = await appBehindProxy(t);
    const orgId = await createOrg(database.db, 'Org');
    const admin = await member(server, database.db, orgId, 'admin@example.com', 'ADMIN');
    const get = async () => {
      const started = Date.now();
      const res = await server.inject({ method: 'GET', url: '/api/access', headers: { cookie: admin.cookie } });
      return { status: res.statusCode, body: res.body, ms: Date.now() - started };
    };

    assert.equal((await get()).status, 200);
    let stop = false;
    const seen: Array<{ status: number; body: string; ms: number }> = [];
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!stop) seen.push(await get());
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    proxy.down();
    count('faults');
    await new Promise((r) => setTimeout(r, 2000));
    const during = seen.length;
    proxy.up();
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await load;
    count('cases', seen.length);

    const outage = seen.slice(0, during);
    assert.ok(
      outage.some((r) => r.status === 503),
      'no request saw the outage',
    );
    for (const r of seen) {
      assert.ok(r.status === 200 || r.status === 503, `unexpected ${r.status}: ${r.body}`);
      if (r.status === 503) assert.deepEqual(Object.keys(JSON.parse(r.body)).sort(), ['error', 'message']);
      assert.ok(r.ms < 6000, `a request hung for ${r.ms} ms`);
    }
    // Recovered without a restart.
    const after = await get();
    assert.equal(after.status, 200);
    assert.equal(JSON.parse(after.body).items[0].email, 'admin@example.com');
  });

  it('should fail a global list cut off mid-COPY (never a short list that parses), then serve it whole', async (t) => {
    const { database, proxy, server } = await appBehindProxy(t);
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    const orgId = await createOrg(database.db, 'Grande');
    // 100,000 memberships (~26 MB of JSON): far more than the sockets buffer.
    await sql`insert into auth.users (email) select 'm' || i || '@example.com' from generate_series(1, 100000) as i`.execute(database.db);
    await sql`insert into public.organization_members (org_id, user_id, role) select ${orgId}::uuid, id, 'AGENT' from auth.users`.execute(database.db);
    const staff = await signedIn(server, database.db, 'staff@example.com', { staff: 'STAFF' });
    const total = 100_000;

    // Read the first chunk, cut PostgreSQL off, then read on: the download must fail.
    const cut = await fetch(`${base}/api/access`, { headers: { cookie: staff.cookie } });
    assert.equal(cut.status, 200);
    const reader = cut.body!.getReader();
    const chunks: Uint8Array[] = [(await reader.read()).value!];
    proxy.down();
    count('faults');
    const outcome = await (async () => {
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
        return 'ended';
      } catch {
        return 'failed';
      }
    })();
    const received = Buffer.concat(chunks).toString('utf8');
    assert.equal(outcome, 'failed', `the cut list ended normally after ${received.length} bytes`);
    assert.throws(() => JSON.parse(received));

    proxy.up();
    count('cases');
    const whole = await fetch(`${base}/api/access`, { headers: { cookie: staff.cookie } });
    assert.equal(whole.status, 200);
    const items = (await whole.json()) as { items: Array<{ org_id: string }> };
    assert.equal(items.items.length, total);
    assert.equal(items.items[0]!.org_id, orgId);
  });

  it('should never send one e-mail twice from two instances on one database', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const database = await freshDatabase();
    const instances: Array<Awaited<ReturnType<typeof Fastify>>> = [];
    const handles: Array<Awaited<ReturnType<typeof openDatabase>>> = [];
    t.after(async () => {
      for (const server of instances) await server.close();
      for (const handle of handles) await handle.close();
      await database.close();
    });
    for (let i = 0; i < 2; i++) {
      const handle = await openDatabase({ databaseUrl: database.url!, pgliteDir: 'memory://' });
      handles.push(handle);
      const server = Fastify({ ...appOptions(), logger: false });
      await server.register(app, { config: testConfig({ SMTP_URL: smtp.url }), database: handle, mailWorker: true, mailPollMs: 20 });
      await server.ready();
      instances.push(server);
    }
    const orgId = await createOrg(database.db, 'Org');
    const admin = await member(instances[0]!, database.db, orgId, 'admin@example.com', 'ADMIN');
    const emails = Array.from({ length: 60 }, (_, i) => `twice${i}@example.com`);
    await Promise.all(
      emails.map((email, i) => instances[i % 2]!.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email } })),
    );
    await smtp.waitFor(60, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    const recipients = smtp.messages.flatMap((m) => m.envelope.to).sort();
    assert.deepEqual(recipients, [...emails].sort());
    count('cases', emails.length);
  });
});
