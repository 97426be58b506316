/**
 * Races on one database: concurrent invitations of one e-mail, concurrent role changes of
 * one member, concurrent SUPER_ADMIN creations, salary batches racing for payslips. Meaningful on PostgreSQL (run with
 * TEST_DATABASE_URL); on PGlite requests are serialised by its single session.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, outbox, signedIn } from '../support/fixtures.ts';
import { count } from './counts.ts';
import { inDays, setup as payroll } from '../payslips/support.ts';

describe('races', () => {
  it('should make one account, one membership and one activation e-mail from 100 concurrent invitations', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org');
    const admins = await Promise.all([0, 1, 2, 3].map((i) => member(app, db, orgId, `admin${i}@example.com`, 'ADMIN')));
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admins[i % 4]!.cookie }, payload: { email: 'Race@Example.com', role: 'AGENT' } }),
      ),
    );
    count('cases', 100);
    assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200]);
    assert.equal(responses.filter((r) => r.json().message === 'Invitation envoyée').length, 1);
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', '=', 'race@example.com').execute()).length, 1);
    const memberships = await db
      .selectFrom('organization_members as m')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select('m.role')
      .where('u.email', '=', 'race@example.com')
      .execute();
    assert.deepEqual(memberships, [{ role: 'AGENT' }]);
    const mails = (await outbox(db)).filter((m) => m.recipient === 'race@example.com');
    assert.deepEqual(
      mails.map((m) => m.subject),
      ['Activez votre compte'],
    );
  });

  it('should end concurrent role changes on one of the roles sent, with one e-mail per actual change', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org');
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
    const target = await member(app, db, orgId, 'target@example.com', 'AGENT');
    const roles = Array.from({ length: 60 }, (_, i) => ['ADMIN', 'AGENT', 'COMPTA'][(i * 7) % 3]!);
    const responses = await Promise.all(
      roles.map((role) =>
        app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie }, payload: { email: 'target@example.com', role } }),
      ),
    );
    count('cases', roles.length);
    assert.deepEqual([...new Set(responses.map((r) => r.statusCode))], [200]);

    const final = await db
      .selectFrom('organization_members')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', target.userId)
      .executeTakeFirstOrThrow();
    assert.ok(roles.includes(final.role));
    // The audit trail is a chain AGENT → … → final role, each link an actual change.
    const changes = await db
      .selectFrom('access_events')
      .select(['old_role', 'new_role'])
      .where('target_user_id', '=', target.userId)
      .where('action', '=', 'role_changed')
      .orderBy('id')
      .execute();
    let current: string = 'AGENT';
    for (const change of changes) {
      assert.equal(change.old_role, current);
      assert.notEqual(change.new_role, change.old_role);
      current = change.new_role!;
    }
    assert.equal(current, final.role);
    const mails = (await outbox(db)).filter((m) => m.recipient === 'target@example.com');
    assert.equal(mails.length, changes.length);
    assert.ok(mails.every((m) => m.subject === 'Vos accès ont été mis à jour'));
  });

  it('should give one SUPER_ADMIN out of concurrent creations', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org');
    const staff = await Promise.all([0, 1].map((i) => signedIn(app, db, `staff${i}@example.com`, { staff: 'STAFF' })));
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/access/nouveau',
          headers: { cookie: `${staff[i % 2]!.cookie}; active_org_id=${orgId}` },
          payload: { email: `boss${i}@example.com`, role: 'SUPER_ADMIN' },
        }),
      ),
    );
    count('cases', 20);
    assert.equal(responses.filter((r) => r.statusCode === 200).length, 1);
    assert.ok(responses.every((r) => r.statusCode === 200 || (r.statusCode === 409 && r.json().error === 'super_admin_exists')));
    const supers = await db.selectFrom('organization_members').select('user_id').where('org_id', '=', orgId).where('role', '=', 'SUPER_ADMIN').execute();
    assert.equal(supers.length, 1);
    // Losers left nothing behind: no account, no e-mail.
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', 'like', 'boss%').execute()).length, 1);
    assert.equal((await outbox(db)).length, 1);
  });

  it('should never put a payslip in two live batches, whatever batches and cancellations race', async (t) => {
    const { db, soleil, staff, call, helene, marc, payslip, batch } = await payroll(t);
    const payslips: string[] = [];
    for (let i = 0; i < 10; i++) payslips.push(await payslip(soleil, i % 2 ? marc : helene, `2027-${String(i + 1).padStart(2, '0')}`, `${100 + i}.10`));
    // 30 batches of 3 overlapping payslips each, in varied orders, all at once.
    const subsets = Array.from({ length: 30 }, (_, i) => [payslips[i % 10]!, payslips[(i * 3 + 1) % 10]!, payslips[(i * 7 + 2) % 10]!]);
    const answers = await Promise.all(subsets.map((ids) => batch([...new Set(ids)], inDays(1))));
    count('cases', answers.length);
    assert.ok(
      answers.every((a) => a.statusCode === 201 || (a.statusCode === 409 && a.json().error === 'payslip_unavailable')),
      answers.map((a) => a.statusCode).join(','),
    );
    const lines = await db.selectFrom('transfer_items').select(['payslip_id', 'transfer_id']).where('released', '=', false).execute();
    assert.equal(new Set(lines.map((l) => l.payslip_id)).size, lines.length, 'no payslip twice');
    const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json());
    assert.equal(
      created.reduce((n, b) => n + b.count, 0),
      lines.length,
    );

    // Cancel every batch while new batches claim all the payslips again: at the end, each
    // payslip is in at most one live batch.
    const racing = await Promise.all([
      ...created.map((b) => call(staff, 'POST', `/api/staff/virements/${b.id}/cancel`)),
      ...payslips.map((id) => batch([id], inDays(2))),
    ]);
    count('cases', racing.length);
    assert.ok(
      racing.every((r) => r.statusCode < 500),
      racing.map((r) => r.statusCode).join(','),
    );
    const live = await db.selectFrom('transfer_items').select('payslip_id').where('released', '=', false).execute();
    assert.equal(new Set(live.map((l) => l.payslip_id)).size, live.length, 'no payslip twice after the cancellations');
  });
});
