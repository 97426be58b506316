/**
 * What black-box and hostile testing of the access API found, each tried again:
 * NUL and lone surrogates everywhere text comes in, control and bidirectional characters in
 * names, ids in upper case, one organization against another's invitation, inbox flooding,
 * spoofed client addresses, account discovery by timing, and a large cookie header.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, usingPostgres } from '../helper.ts';
import { createOrg, linkToken, member, outbox, signedIn } from '../support/fixtures.ts';
import { ensureAccount } from '../../src/identity/identity.service.ts';
import { count } from './counts.ts';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
/** Characters no name or address may hold: NUL, a lone surrogate, CR LF, NEL (U+0085), RLO (U+202E), LRI (U+2066). */
const UNSAFE = ['\u0000', '\ud800', '\r\n', '\u0085', '\u202e', '\u2066'];

describe('black-box findings', () => {
  it('should refuse NUL, lone surrogates, control and bidirectional characters in every name and address, never with a 500', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org', 'KEY');
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'SUPER_STAFF' });
    let tried = 0;
    for (const bad of UNSAFE) {
      const label = JSON.stringify(bad);
      const answers = [
        [
          await app.inject({ method: 'POST', url: '/auth/magic-link', remoteAddress: `192.0.2.${tried}`, payload: { email: `a${bad}b@example.com` } }),
          'invalid_email',
        ],
        [
          await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: `a${bad}b@example.com` } }),
          'invalid_email',
        ],
        [
          await app.inject({
            method: 'POST',
            url: '/api/access',
            headers: { cookie: admin.cookie },
            payload: { email: 'named@example.com', first_name: `A${bad}B` },
          }),
          'invalid_first_name',
        ],
        [
          await app.inject({ method: 'POST', url: '/api/staff/users/invite', headers: { cookie: staff.cookie }, payload: { email: `s${bad}t@example.com` } }),
          'invalid_email',
        ],
        [
          await app.inject({
            method: 'POST',
            url: '/api/staff/users/invite',
            headers: { cookie: staff.cookie },
            payload: { email: 'named-staff@example.com', first_name: `A${bad}B` },
          }),
          'invalid_first_name',
        ],
      ] as const;
      for (const [res, error] of answers) {
        assert.equal(res.statusCode, 400, `${label}: ${res.body}`);
        assert.equal(res.json().error, error, label);
        tried++;
      }
    }
    // Nothing was stored: no account with such an address or name, no e-mail.
    const accounts = await db.selectFrom('auth.users').select(['email', 'user_metadata']).execute();
    assert.deepEqual(accounts.map((a) => a.email).sort(), ['admin@example.com', 'staff@example.com']);
    assert.equal((await outbox(db)).length, 0);

    // Hints and searches: a hint with such characters names nothing and is passed over;
    // a search is refused. NUL bytes also come from base64 (`AAAA`).
    const hinted = [
      { cookie: `${staff.cookie}; active_org_key=a%00b; active_org_name_b64=AAAA`, 'x-company-name-b64': 'AAAA' },
      { cookie: `${staff.cookie}; active_org_name_b64=${b64('Org\u202e')}`, 'x-active-org-id': `${orgId}\u0000` },
      { cookie: `${staff.cookie}; active_org_key=${encodeURIComponent('KEY\u0085')}` },
    ];
    for (const headers of hinted) {
      const list = await app.inject({ method: 'GET', url: '/api/access', headers });
      assert.equal(list.statusCode, 200, list.body);
      assert.ok(
        list.json().items.every((item: { org_id: string | null }) => item.org_id !== null),
        'global mode: no hint named an organization',
      );
      const page = await app.inject({ method: 'GET', url: '/vos-acces', headers });
      assert.equal(page.statusCode, 200);
      tried += 2;
    }
    // A hint after an unusable one is still read.
    const next = await app.inject({
      method: 'GET',
      url: '/api/access',
      headers: { cookie: `${staff.cookie}; active_org_name_b64=AAAA`, 'x-company-name': 'Org' },
    });
    assert.equal(next.statusCode, 200);
    assert.ok(
      next.json().items.every((item: { org_id: string | null }) => item.org_id === null),
      'scoped to Org by the header',
    );
    for (const q of ['a%00b', 'a%0Db', 'x%E2%80%AEy']) {
      const search = await app.inject({ method: 'GET', url: `/api/staff/orgs?q=${q}`, headers: { cookie: staff.cookie } });
      assert.equal(search.statusCode, 400, q);
      assert.deepEqual(search.json(), { error: 'invalid_q', message: 'La recherche contient des caractères non autorisés' });
      tried++;
    }
    count('cases', tried + 1);
  });

  it("should normalize ids at the edge: no self-revocation by writing one's own id in upper case", async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org');
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const other = await member(app, db, orgId, 'other@example.com', 'AGENT');

    const own = await app.inject({ method: 'DELETE', url: `/api/access/${admin.userId.toUpperCase()}`, headers: { cookie: admin.cookie } });
    assert.equal(own.statusCode, 400);
    assert.equal(own.json().error, 'cannot_revoke_self');
    const ownStaff = await app.inject({ method: 'DELETE', url: `/api/staff/users/${staff.userId.toUpperCase()}`, headers: { cookie: staff.cookie } });
    assert.equal(ownStaff.statusCode, 400);
    assert.equal(ownStaff.json().error, 'cannot_revoke_self');
    const rows = await db.selectFrom('organization_members').select('revoked').where('user_id', '=', admin.userId).execute();
    assert.deepEqual(rows, [{ revoked: false }]);
    const staffRow = await db.selectFrom('staff_users').select('is_staff').where('user_id', '=', staff.userId).executeTakeFirstOrThrow();
    assert.equal(staffRow.is_staff, true);
    // Someone else's id in upper case is that member.
    const revoked = await app.inject({ method: 'DELETE', url: `/api/access/${other.userId.toUpperCase()}`, headers: { cookie: admin.cookie } });
    assert.equal(revoked.statusCode, 200);
    count('cases', 3);
  });

  it("should never let one organization's re-sent invitation cancel another organization's pending one", async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgA = await createOrg(db, 'A');
    const orgB = await createOrg(db, 'B');
    const adminA = await member(app, db, orgA, 'admin@a.example', 'ADMIN');
    const adminB = await member(app, db, orgB, 'admin@b.example', 'ADMIN');
    // B invites the person; A adds the same, not yet activated, account, re-sends, then revokes.
    assert.equal(
      (await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: adminB.cookie }, payload: { email: 'person@example.com' } })).statusCode,
      200,
    );
    const invitationOfB = linkToken((await outbox(db))[0]!.text_body);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: adminA.cookie }, payload: { email: 'person@example.com' } })).statusCode,
      200,
    );
    const person = await db.selectFrom('auth.users').select('id').where('email', '=', 'person@example.com').executeTakeFirstOrThrow();
    const resent = await app.inject({ method: 'POST', url: `/api/access/${person.id}/resend`, headers: { cookie: adminA.cookie } });
    assert.equal(resent.statusCode, 200);
    const firstOfA = linkToken((await outbox(db)).at(-1)!.text_body);
    assert.equal((await app.inject({ method: 'POST', url: `/api/access/${person.id}/resend`, headers: { cookie: adminA.cookie } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'DELETE', url: `/api/access/${person.id}`, headers: { cookie: adminA.cookie } })).statusCode, 200);

    // A's second invitation retired A's first, never B's.
    assert.equal((await app.inject({ method: 'POST', url: '/auth/session', payload: { token: firstOfA } })).statusCode, 401);
    const signIn = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: invitationOfB } });
    assert.equal(signIn.statusCode, 200, signIn.body);
    count('cases', 2);
  });

  it('should limit invitations and re-sends per recipient, whoever sends them, with 429 and Retry-After', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgA = await createOrg(db, 'A');
    const orgB = await createOrg(db, 'B');
    const adminA = await member(app, db, orgA, 'admin@a.example', 'ADMIN');
    const adminB = await member(app, db, orgB, 'admin@b.example', 'ADMIN');
    assert.equal(
      (await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: adminA.cookie }, payload: { email: 'victim@example.com' } })).statusCode,
      200,
    );
    const victim = await db.selectFrom('auth.users').select('id').where('email', '=', 'victim@example.com').executeTakeFirstOrThrow();
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: adminB.cookie }, payload: { email: 'victim@example.com' } });
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      const admin = i % 2 ? adminA : adminB;
      const res = await app.inject({ method: 'POST', url: `/api/access/${victim.id}/resend`, headers: { cookie: admin.cookie } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        assert.deepEqual(res.json(), { error: 'rate_limited', message: 'Trop de demandes : réessayez dans un moment.' });
        const retryAfter = Number(res.headers['retry-after']);
        assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
      }
    }
    assert.deepEqual(statuses, [...Array(4).fill(200), ...Array(16).fill(429)], `20 re-sends in ${Date.now() - started} ms`);
    const mails = (await outbox(db)).filter((m) => m.recipient === 'victim@example.com');
    assert.equal(mails.length, 5, 'one invitation and four re-sends: five e-mails at most in the window');
    // Staff creating an access for that address counts too; another address is not held back.
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const nouveau = await app.inject({
      method: 'POST',
      url: '/api/access/nouveau',
      headers: { cookie: staff.cookie, 'x-active-org-id': orgA },
      payload: { email: 'victim@example.com', role: 'AGENT' },
    });
    assert.equal(nouveau.statusCode, 429);
    const otherAddress = await app.inject({
      method: 'POST',
      url: '/api/access',
      headers: { cookie: adminA.cookie },
      payload: { email: 'someone@example.com' },
    });
    assert.equal(otherAddress.statusCode, 200);
    count('cases', statuses.length + 2);
  });

  it('should key per-client limits on the socket address unless TRUST_PROXY says which proxies to believe', async (t) => {
    const spoof = async (env: Record<string, string>) => {
      const { app } = await build(t, { env });
      const statuses: number[] = [];
      for (let i = 1; i <= 6; i++) {
        const res = await app.inject({
          method: 'POST',
          url: '/auth/magic-link',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: { email: `user${i}@example.com` },
        });
        statuses.push(res.statusCode);
      }
      return statuses;
    };
    // Default: X-Forwarded-For is the client's word, not believed: one socket, one allowance.
    assert.deepEqual(await spoof({}), [200, 200, 200, 200, 200, 429]);
    // Behind a proxy at 10.0.0.1: each forwarded client has its own allowance.
    assert.deepEqual(await spoof({ TRUST_PROXY: '10.0.0.1' }), [200, 200, 200, 200, 200, 200]);
    assert.deepEqual(await spoof({ TRUST_PROXY: '1' }), [200, 200, 200, 200, 200, 200]);
    // A proxy that is not the trusted one is not believed.
    assert.deepEqual(await spoof({ TRUST_PROXY: '10.9.9.9' }), [200, 200, 200, 200, 200, 429]);
    count('cases', 24);
  });

  it('should read the session from a cookie header of 4 to 12 KB over real HTTP, and answer a header past the limit in JSON', async (t) => {
    const { app, database } = await build(t);
    const orgId = await createOrg(database.db, 'Org');
    const admin = await member(app, database.db, orgId, 'admin@example.com', 'ADMIN');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    let tried = 0;
    for (const size of [4100, 8000, 12_000]) {
      const filler = `x=${'A'.repeat(size)}`;
      for (const cookie of [`${admin.cookie}; ${filler}`, `${filler}; ${admin.cookie}`]) {
        for (const path of ['/api/access', '/api/me', '/vos-acces']) {
          const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie } });
          assert.equal(res.status, 200, `${path} with ${size} bytes of other cookies`);
          tried++;
        }
      }
    }
    const tooLarge = await fetch(`http://127.0.0.1:${port}/api/me`, { headers: { cookie: `${admin.cookie}; x=${'A'.repeat(20_000)}` } });
    assert.equal(tooLarge.status, 431);
    assert.deepEqual(await tooLarge.json(), { error: 'headers_too_large', message: 'Les en-têtes de la requête sont trop volumineux.' });
    count('cases', tried + 1);
  });

  it('should answer a sign-in request before finding out whether the account exists', {
    skip: usingPostgres ? false : 'needs PostgreSQL: run with TEST_DATABASE_URL',
  }, async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    await ensureAccount(db, 'known@example.com', {});
    // Hold the token table: whatever writes a token for the known account waits.
    const pool = database.pool!;
    const blocker = await pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table auth.one_time_tokens in exclusive mode');
      for (const email of ['known@example.com', 'unknown@example.com']) {
        const answer = await Promise.race([
          app.inject({ method: 'POST', url: '/auth/magic-link', remoteAddress: `192.0.2.${email.length}`, payload: { email } }),
          new Promise<'stalled'>((resolve) => setTimeout(() => resolve('stalled'), 3000)),
        ]);
        if (answer === 'stalled') assert.fail(`${email}: the answer waited for the account's work`);
        assert.equal(answer.statusCode, 200);
        assert.deepEqual(answer.json(), { ok: true });
      }
    } finally {
      await blocker.query('commit');
      blocker.release();
    }
    await app.afterAnswer.settled();
    const mails = await outbox(db);
    assert.deepEqual(
      mails.map((m) => m.recipient),
      ['known@example.com'],
    );
    count('cases', 2);
  });
});
