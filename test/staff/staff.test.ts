import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, outbox, signedIn } from '../support/fixtures.ts';

describe('POST /api/staff/users/invite', () => {
  it('should create an activated STAFF account with the activation e-mail', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const staff = await signedIn(app, db, 'lead@example.com', { staff: 'STAFF' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/staff/users/invite',
      headers: { cookie: staff.cookie },
      payload: { email: 'New@Example.com', first_name: 'Nora' },
    });
    assert.equal(res.statusCode, 200);
    const row = await db
      .selectFrom('staff_users as s')
      .innerJoin('auth.users as u', 'u.id', 's.user_id')
      .select(['s.level', 's.is_staff', 'u.activated_at'])
      .where('u.email', '=', 'new@example.com')
      .executeTakeFirstOrThrow();
    assert.equal(row.level, 'STAFF');
    assert.equal(row.is_staff, true);
    assert.ok(row.activated_at instanceof Date);
    const mails = await outbox(db);
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.subject, 'Activez votre compte');
    assert.equal(mails[0]!.recipient, 'new@example.com');
  });

  it('should let only a SUPER_STAFF create a SUPER_STAFF', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const boss = await signedIn(app, db, 'boss@example.com', { staff: 'SUPER_STAFF' });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/staff/users/invite',
      headers: { cookie: staff.cookie },
      payload: { email: 'x@example.com', level: 'SUPER_STAFF' },
    });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error, 'forbidden_role');
    const accepted = await app.inject({
      method: 'POST',
      url: '/api/staff/users/invite',
      headers: { cookie: boss.cookie },
      payload: { email: 'x@example.com', level: 'super_staff' },
    });
    assert.equal(accepted.statusCode, 200);
    const row = await db.selectFrom('staff_users').select('level').where('user_id', '=', accepted.json().user_id).executeTakeFirstOrThrow();
    assert.equal(row.level, 'SUPER_STAFF');
  });

  it('should answer 403 Forbidden to an organization ADMIN and 401 without a session', async (t) => {
    const { app, database } = await build(t);
    const orgId = await createOrg(database.db, 'Org');
    const admin = await member(app, database.db, orgId, 'admin@example.com', 'ADMIN');
    let res = await app.inject({ method: 'POST', url: '/api/staff/users/invite', headers: { cookie: admin.cookie }, payload: { email: 'x@example.com' } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Forbidden');
    res = await app.inject({ method: 'GET', url: '/api/staff/users' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
  });
});

describe('DELETE /api/staff/users/:user_id', () => {
  it('should revoke a STAFF account but never a SUPER_STAFF', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const boss = await signedIn(app, db, 'boss@example.com', { staff: 'SUPER_STAFF' });
    const other = await signedIn(app, db, 'other-boss@example.com', { staff: 'SUPER_STAFF' });
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const refused = await app.inject({ method: 'DELETE', url: `/api/staff/users/${other.userId}`, headers: { cookie: boss.cookie } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error, 'forbidden_role');
    const res = await app.inject({ method: 'DELETE', url: `/api/staff/users/${staff.userId}`, headers: { cookie: boss.cookie } });
    assert.equal(res.statusCode, 200);
    // The revoked staff member is an ordinary account from the next request on.
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: staff.cookie } });
    assert.equal(me.json().is_staff, false);
    const list = await app.inject({ method: 'GET', url: '/api/staff/users', headers: { cookie: boss.cookie } });
    const revoked = list.json().items.find((u: { email: string }) => u.email === 'staff@example.com');
    assert.equal(revoked.is_staff, false);
    assert.ok(revoked.revoked_at);
  });
});

describe('PUT /api/staff/active-org', () => {
  it('should store the choice, set the active_org_id cookie and scope the next requests', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS');
    await member(app, db, orgId, 'm@example.com', 'AGENT');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const res = await app.inject({ method: 'PUT', url: '/api/staff/active-org', headers: { cookie: staff.cookie }, payload: { org_id: orgId } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ok: true, org: { id: orgId, name: 'Théâtre du Soleil' } });
    const cookie = res.cookies.find((c) => c.name === 'active_org_id');
    assert.equal(cookie?.value, orgId);
    assert.equal(cookie?.httpOnly, true);
    const settings = await db.selectFrom('staff_settings').selectAll().where('user_id', '=', staff.userId).executeTakeFirstOrThrow();
    assert.equal(settings.active_org_id, orgId);
    const list = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.deepEqual(
      list.json().items.map((i: { email: string }) => i.email),
      ['m@example.com'],
    );
    const missing = await app.inject({ method: 'PUT', url: '/api/staff/active-org', headers: { cookie: staff.cookie }, payload: { org_id: 'nope' } });
    assert.equal(missing.statusCode, 404);
  });
});

describe('GET /api/staff/orgs', () => {
  it('should search organizations by name or key', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    await createOrg(db, 'Théâtre du Soleil', 'TDS001');
    await createOrg(db, 'Compagnie Lumière', 'LUM002');
    await createOrg(db, 'Opéra 100%', 'OPR');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const get = async (q: string) =>
      (await app.inject({ method: 'GET', url: `/api/staff/orgs?q=${encodeURIComponent(q)}`, headers: { cookie: staff.cookie } }))
        .json()
        .items.map((o: { name: string }) => o.name);
    assert.deepEqual(await get(''), ['Compagnie Lumière', 'Opéra 100%', 'Théâtre du Soleil']);
    assert.deepEqual(await get('soleil'), ['Théâtre du Soleil']);
    assert.deepEqual(await get('lum002'), ['Compagnie Lumière']);
    assert.deepEqual(await get('%'), ['Opéra 100%']);
  });
});
