import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite } from '../helper.ts';
import { createOrg, linkToken, member, outbox, signedIn } from '../support/fixtures.ts';

// One app for the file: each test makes its own organization and people, at an address domain of
// its own, and reads only the e-mails queued since it began.
const suite = appPerSuite();
let tests = 0;

async function setup() {
  const ctx = suite();
  const db = ctx.database.db;
  const tag = `t${++tests}`;
  const at = (local: string) => `${local}@${tag}.example.com`;
  const orgId = await createOrg(db, 'Compagnie Lumière', `LUM-${tag}`);
  const admin = await member(ctx.app, db, orgId, at('admin'), 'ADMIN');
  const queued = await outbox(db);
  const before = queued.length === 0 ? 0n : BigInt(queued.at(-1)!.id);
  /** The e-mails queued since the test began, oldest first. */
  const mails = async () => (await outbox(db)).filter((m) => BigInt(m.id) > before);
  return { ...ctx, db, orgId, admin, tag, at, mails };
}

describe('DELETE /api/access/:user_id', () => {
  it('should revoke a member, who loses access on the next request', async () => {
    const { app, db, orgId, admin, at } = await setup();
    const other = await member(app, db, orgId, at('other-admin'), 'ADMIN');
    assert.equal((await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: other.cookie } })).statusCode, 200);

    const res = await app.inject({ method: 'DELETE', url: `/api/access/${other.userId}`, headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true, message: 'Accès révoqué' });
    const row = await db
      .selectFrom('organization_members')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', other.userId)
      .executeTakeFirstOrThrow();
    assert.equal(row.revoked, true);
    assert.ok(row.revoked_at instanceof Date);

    const after = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: other.cookie } });
    assert.equal(after.statusCode, 403);
    assert.equal(after.body, 'Forbidden');
  });

  it('should answer 404 not_found for no such member (unknown, malformed, or of another organization)', async () => {
    const { app, db, admin, at } = await setup();
    const elsewhere = await createOrg(db, 'Ailleurs');
    const stranger = await member(app, db, elsewhere, at('stranger'), 'AGENT');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', stranger.userId]) {
      const res = await app.inject({ method: 'DELETE', url: `/api/access/${id}`, headers: { cookie: admin.cookie } });
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json().error, 'not_found');
    }
    const row = await db.selectFrom('organization_members').select('revoked').where('user_id', '=', stranger.userId).executeTakeFirstOrThrow();
    assert.equal(row.revoked, false);
  });

  it('should answer 403 forbidden_role for the SUPER_ADMIN, even to staff', async () => {
    const { app, db, orgId, admin, at } = await setup();
    const boss = await member(app, db, orgId, at('boss'), 'SUPER_ADMIN');
    const staff = await signedIn(app, db, at('staff'), { staff: 'SUPER_STAFF' });
    for (const cookie of [admin.cookie, `${staff.cookie}; active_org_id=${orgId}`]) {
      const res = await app.inject({ method: 'DELETE', url: `/api/access/${boss.userId}`, headers: { cookie } });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error, 'forbidden_role');
    }
  });

  it("should answer 400 cannot_revoke_self for the caller's own access", async () => {
    const { app, admin } = await setup();
    const res = await app.inject({ method: 'DELETE', url: `/api/access/${admin.userId}`, headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'cannot_revoke_self');
  });

  it('should answer 403 Forbidden to an AGENT and 401 without a session', async () => {
    const { app, db, orgId, admin, at } = await setup();
    const agent = await member(app, db, orgId, at('agent'), 'AGENT');
    let res = await app.inject({ method: 'DELETE', url: `/api/access/${admin.userId}`, headers: { cookie: agent.cookie } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    res = await app.inject({ method: 'DELETE', url: `/api/access/${admin.userId}` });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
  });
});

describe('POST /api/access/:user_id/resend', () => {
  it('should send a new invitation whose link works while the older one stops working', async () => {
    const { app, db, admin, at, mails: queued } = await setup();
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: at('late') } });
    const [first] = await queued();
    const user = await db.selectFrom('auth.users').select('id').where('email', '=', at('late')).executeTakeFirstOrThrow();

    const res = await app.inject({ method: 'POST', url: `/api/access/${user.id}/resend`, headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true, message: 'Invitation renvoyée' });
    const mails = await queued();
    assert.equal(mails.length, 2);
    assert.equal(mails[1]!.recipient, at('late'));
    assert.equal(mails[1]!.subject, 'Activez votre compte');

    const old = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: linkToken(first!.text_body) } });
    assert.equal(old.statusCode, 401);
    const fresh = await app.inject({ method: 'POST', url: '/auth/session', payload: { token: linkToken(mails[1]!.text_body) } });
    assert.equal(fresh.statusCode, 200);

    const again = await app.inject({ method: 'POST', url: `/api/access/${user.id}/resend`, headers: { cookie: admin.cookie } });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'already_activated');
  });

  it('should rescue an expired invitation', async () => {
    const { app, db, admin, at, mails: queued } = await setup();
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: at('slow') } });
    const user = await db.selectFrom('auth.users').select('id').where('email', '=', at('slow')).executeTakeFirstOrThrow();
    await db
      .updateTable('auth.one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    const [expired] = await queued();
    assert.equal((await app.inject({ method: 'POST', url: '/auth/session', payload: { token: linkToken(expired!.text_body) } })).statusCode, 401);
    await app.inject({ method: 'POST', url: `/api/access/${user.id}/resend`, headers: { cookie: admin.cookie } });
    const mails = await queued();
    assert.equal((await app.inject({ method: 'POST', url: '/auth/session', payload: { token: linkToken(mails[1]!.text_body) } })).statusCode, 200);
  });

  it('should answer 404 not_found for someone who is not a member', async () => {
    const { app, admin } = await setup();
    const res = await app.inject({ method: 'POST', url: '/api/access/00000000-0000-4000-8000-000000000000/resend', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'not_found');
  });
});

describe('GET /api/access/events', () => {
  it('should page through the audit trail of the organization, newest first', async () => {
    const { app, db, orgId, admin, at, tag } = await setup();
    const other = await createOrg(db, 'Other');
    const otherAdmin = await member(app, db, other, `oa@other.${tag}.example`, 'ADMIN');
    await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: otherAdmin.cookie }, payload: { email: `hidden@other.${tag}.example` } });
    for (let i = 0; i < 5; i++) {
      await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: at(`m${i}`) } });
    }
    const page1 = await app.inject({ method: 'GET', url: '/api/access/events?limit=3', headers: { cookie: admin.cookie } });
    assert.equal(page1.statusCode, 200);
    const body1 = page1.json();
    assert.deepEqual(
      body1.items.map((e: { target_email: string }) => e.target_email),
      [at('m4'), at('m3'), at('m2')],
    );
    assert.ok(body1.items.every((e: { org_id: string; action: string }) => e.org_id === orgId && e.action === 'invited'));
    const page2 = await app.inject({ method: 'GET', url: `/api/access/events?limit=3&before=${body1.next_cursor}`, headers: { cookie: admin.cookie } });
    assert.deepEqual(
      page2.json().items.map((e: { target_email: string }) => e.target_email),
      [at('m1'), at('m0')],
    );
    assert.equal(page2.json().next_cursor, null);
    assert.doesNotMatch(page1.body + page2.body, new RegExp(`other\\.${tag}`));
  });

  it('should refuse a limit over 200 with 400', async () => {
    const { app, admin } = await setup();
    const res = await app.inject({ method: 'GET', url: '/api/access/events?limit=201', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_request');
  });
});

describe('POST /api/access/nouveau', () => {
  it('should let staff give an organization its SUPER_ADMIN, with the activation e-mail, and only one', async () => {
    const { app, db, orgId, at, mails: queued } = await setup();
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    const cookie = `${staff.cookie}; active_org_id=${orgId}`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/access/nouveau',
      headers: { cookie },
      payload: { email: at('boss'), role: 'SUPER_ADMIN', first_name: 'Béa' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().message, 'Invitation envoyée');
    const mails = await queued();
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.recipient, at('boss'));
    assert.equal(mails[0]!.subject, 'Activez votre compte');
    const row = await db.selectFrom('organization_members').select('role').where('user_id', '=', res.json().user_id).executeTakeFirstOrThrow();
    assert.equal(row.role, 'SUPER_ADMIN');

    const second = await app.inject({ method: 'POST', url: '/api/access/nouveau', headers: { cookie }, payload: { email: at('boss2'), role: 'SUPER_ADMIN' } });
    assert.equal(second.statusCode, 409);
    assert.equal(second.json().error, 'super_admin_exists');
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', at('boss2')).execute()).length, 0);
  });

  it('should give one SUPER_ADMIN out of concurrent creations', async () => {
    const { app, db, orgId, at, mails } = await setup();
    const staff = await signedIn(app, db, at('staff'), { staff: 'STAFF' });
    const cookie = `${staff.cookie}; active_org_id=${orgId}`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        app.inject({ method: 'POST', url: '/api/access/nouveau', headers: { cookie }, payload: { email: at(`boss${i}`), role: 'SUPER_ADMIN' } }),
      ),
    );
    assert.equal(responses.filter((r) => r.statusCode === 200).length, 1);
    assert.equal(responses.filter((r) => r.statusCode === 409).length, 7);
    const supers = await db.selectFrom('organization_members').select('user_id').where('org_id', '=', orgId).where('role', '=', 'SUPER_ADMIN').execute();
    assert.equal(supers.length, 1);
    assert.equal((await mails()).length, 1);
  });

  it('should answer 403 Forbidden to an organization ADMIN', async () => {
    const { app, admin, at } = await setup();
    const res = await app.inject({ method: 'POST', url: '/api/access/nouveau', headers: { cookie: admin.cookie }, payload: { email: at('x') } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
  });
});
