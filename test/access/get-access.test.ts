import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { appPerSuite, build } from '../helper.ts';
import { addMembership, createOrg, member, signedIn } from '../support/fixtures.ts';

const ITEM_KEYS = ['activated', 'created_at', 'email', 'first_name', 'org_id', 'revoked', 'revoked_at', 'role', 'user_id'];

// One app for the tests that read only what they made (their own organizations, at an address
// domain of their own); the global list and the tests that change the schema build their own.
const suite = appPerSuite();
let tests = 0;
const domain = () => `t${++tests}.example.com`;

describe('GET /api/access', () => {
  it('should answer 401 plain Unauthorized without a session', async () => {
    const { app } = suite();
    const res = await app.inject({ method: 'GET', url: '/api/access' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.body, 'Unauthorized');
  });

  it('should answer 400 no_active_org to a non-staff caller without organization', async () => {
    const { app, database } = suite();
    const loner = await signedIn(app, database.db, `loner@${domain()}`);
    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: loner.cookie } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'no_active_org', message: 'Aucune organisation active trouvée' });
  });

  it('should list the members of the caller organization, newest first, with the fields of docs/access.md', async () => {
    const { app, database } = suite();
    const db = database.db;
    const d = domain();
    const orgId = await createOrg(db, 'Théâtre du Soleil');
    const admin = await member(app, db, orgId, `admin@${d}`, 'ADMIN', { metadata: { first_name: 'Alice' } });
    const agent = await signedIn(app, db, `agent@${d}`, { metadata: { display_name: 'Bruno  Martin' } });
    await addMembership(db, orgId, agent.userId, 'AGENT', { createdAt: new Date('2030-01-02T00:00:00Z') });
    const gone = await signedIn(app, db, `gone@${d}`);
    await addMembership(db, orgId, gone.userId, 'COMPTA', { revoked: true, createdAt: new Date('2030-01-01T00:00:00Z') });
    const pending = await db
      .insertInto('auth.users')
      .values({ email: `pending@${d}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addMembership(db, orgId, pending.id, 'COMPTA', { createdAt: new Date('2020-01-01T00:00:00Z') });
    // Someone else's organization: never listed.
    const otherOrg = await createOrg(db, 'Autre');
    await member(app, db, otherOrg, `other@${d}`, 'ADMIN');

    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: admin.cookie } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const { items } = res.json() as { items: Array<Record<string, unknown>> };
    assert.deepEqual(
      items.map((i) => i.email),
      [`agent@${d}`, `gone@${d}`, `admin@${d}`, `pending@${d}`],
    );
    for (const item of items) assert.deepEqual(Object.keys(item).sort(), ITEM_KEYS);
    assert.deepEqual(items[0], {
      org_id: null,
      user_id: agent.userId,
      first_name: 'Bruno',
      email: `agent@${d}`,
      role: 'AGENT',
      created_at: '2030-01-02T00:00:00.000Z',
      revoked: false,
      revoked_at: null,
      activated: true,
    });
    assert.equal(items[1]!.revoked, true);
    assert.match(String(items[1]!.revoked_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(items[1]!.first_name, null);
    assert.equal(items[2]!.first_name, 'Alice');
    assert.equal(items[3]!.activated, false);
  });

  it('should answer an empty items array when the organization has no membership (staff)', async () => {
    const { app, database } = suite();
    const orgId = await createOrg(database.db, 'Vide');
    const staff = await signedIn(app, database.db, `staff@${domain()}`, { staff: 'STAFF' });
    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { items: [] });
  });

  for (const [role, revoked] of [
    ['AGENT', false],
    ['COMPTA', false],
    ['ADMIN', true],
  ] as const) {
    it(`should answer 403 plain Forbidden to ${revoked ? 'a revoked ' : 'an '}${role}`, async () => {
      const { app, database } = suite();
      const orgId = await createOrg(database.db, 'Org');
      const person = await member(app, database.db, orgId, `p@${domain()}`, role, { revoked });
      const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: person.cookie } });
      // A revoked member's organization still resolves (`get_my_org`): the access rules' 403.
      assert.equal(res.statusCode, 403);
      assert.equal(res.body, 'Forbidden');
    });
  }

  it('should answer a revoked member 403 Forbidden on GET, POST and DELETE, and resolve their most recently revoked organization', async () => {
    const { app, database } = suite();
    const db = database.db;
    const d = domain();
    const older = await createOrg(db, 'Ancienne');
    const newer = await createOrg(db, 'Récente');
    const person = await member(app, db, older, `p@${d}`, 'ADMIN', { revoked: true });
    await addMembership(db, newer, person.userId, 'ADMIN', { revoked: true });
    await db
      .updateTable('organization_members')
      .set({ revoked_at: new Date(Date.now() - 3600_000) })
      .where('org_id', '=', older)
      .execute();
    const target = await member(app, db, older, `target@${d}`, 'AGENT');
    for (const request of [
      { method: 'GET' as const, url: '/api/access' },
      { method: 'POST' as const, url: '/api/access', payload: { email: `new@${d}` } },
      { method: 'DELETE' as const, url: `/api/access/${target.userId}` },
    ]) {
      const res = await app.inject({ ...request, headers: { cookie: person.cookie } });
      assert.equal(res.statusCode, 403, request.method);
      assert.equal(res.body, 'Forbidden');
    }
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: person.cookie } });
    assert.equal(me.json().active_org.id, newer);
    // An active membership comes first, however old the revoked ones.
    const active = await createOrg(db, 'Active');
    await addMembership(db, active, person.userId, 'AGENT');
    const { rows } = await sql<{ org_id: string }>`select public.get_my_org(${person.userId}) as org_id`.execute(db);
    assert.equal(rows[0]!.org_id, active);
  });

  it('should let a SUPER_ADMIN read the list', async () => {
    const { app, database } = suite();
    const orgId = await createOrg(database.db, 'Org');
    const boss = await member(app, database.db, orgId, `boss@${domain()}`, 'SUPER_ADMIN');
    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: boss.cookie } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json().items.map((i: { role: string }) => i.role),
      ['SUPER_ADMIN'],
    );
  });

  it("should ignore a non-staff caller's hints and show only its own organization", async () => {
    const { app, database } = suite();
    const db = database.db;
    const d = domain();
    const mine = await createOrg(db, 'Mine', 'MINE');
    const theirs = await createOrg(db, 'Theirs', 'THEIRS');
    const admin = await member(app, db, mine, `admin@mine.${d}`, 'ADMIN');
    await member(app, db, theirs, `secret@theirs.${d}`, 'ADMIN');
    const b64 = Buffer.from('Theirs').toString('base64');
    const res = await app.inject({
      method: 'GET',
      url: '/api/access',
      headers: {
        cookie: `${admin.cookie}; active_org_id=${theirs}; active_org_key=THEIRS; active_org_name_b64=${b64}`,
        'x-active-org-id': theirs,
        'x-company-name': 'Theirs',
      },
    });
    assert.equal(res.statusCode, 200);
    assert.doesNotMatch(res.body, /theirs\./);
    assert.deepEqual(
      res.json().items.map((i: { email: string }) => i.email),
      [`admin@mine.${d}`],
    );
  });

  it('should list every membership with its org_id in global staff mode', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const a = await createOrg(db, 'A');
    const b = await createOrg(db, 'B');
    const x = await signedIn(app, db, 'x@example.com');
    const y = await signedIn(app, db, 'y@example.com');
    await addMembership(db, a, x.userId, 'ADMIN', { createdAt: new Date('2031-01-01T00:00:00Z') });
    await addMembership(db, b, y.userId, 'AGENT', { createdAt: new Date('2031-01-03T00:00:00Z') });
    await addMembership(db, b, x.userId, 'COMPTA', { createdAt: new Date('2031-01-02T00:00:00Z') });
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'SUPER_STAFF' });
    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: staff.cookie } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.json().items.map((i: { org_id: string; email: string; role: string }) => [i.org_id, i.email, i.role]),
      [
        [b, 'y@example.com', 'AGENT'],
        [b, 'x@example.com', 'COMPTA'],
        [a, 'x@example.com', 'ADMIN'],
      ],
    );
  });

  it('should read the organization named by a staff hint', async () => {
    const { app, database } = suite();
    const db = database.db;
    const d = domain();
    const a = await createOrg(db, 'Compagnie Lumière', 'LUM');
    const b = await createOrg(db, 'Autre');
    await member(app, db, a, `lum@${d}`, 'AGENT');
    await member(app, db, b, `autre@${d}`, 'AGENT');
    const staff = await signedIn(app, db, `staff@${d}`, { staff: 'STAFF' });
    const b64 = Buffer.from('Compagnie Lumière').toString('base64');
    for (const hint of [
      { cookie: `${staff.cookie}; active_org_key=LUM` },
      { cookie: `${staff.cookie}; active_org_name_b64=${b64}` },
      { cookie: staff.cookie, 'x-active-org-id': a },
      { cookie: staff.cookie, 'x-company-name-b64': b64 },
    ]) {
      const res = await app.inject({ method: 'GET', url: '/api/access', headers: hint });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        res.json().items.map((i: { email: string }) => i.email),
        [`lum@${d}`],
      );
    }
  });

  it('should write Email non disponible and a null first name for an account that cannot be read', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org');
    const ghost = await signedIn(app, db, 'ghost@example.com', { metadata: { first_name: 'Casper' } });
    await addMembership(db, orgId, ghost.userId, 'AGENT');
    // Simulate an identity provider that lost the account.
    await sql`alter table public.organization_members drop constraint organization_members_user_id_fkey`.execute(db);
    await sql`delete from auth.users where id = ${ghost.userId}`.execute(db);
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.equal(res.statusCode, 200);
    const [item] = res.json().items;
    assert.equal(item.email, 'Email non disponible');
    assert.equal(item.first_name, null);
    assert.equal(item.user_id, ghost.userId);
  });

  it('should answer 500 database_error when the members cannot be read, without the database message', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    await sql`alter table public.organization_members rename to organization_members_moved`.execute(db);
    const res = await app.inject({ method: 'GET', url: '/api/access', headers: { cookie: `${staff.cookie}; active_org_id=${orgId}` } });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { error: 'database_error', message: 'Impossible de lire les membres' });
  });
});
