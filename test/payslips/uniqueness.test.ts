/**
 * A salary is published once. A second live payslip for the same employee, period
 * and contracts is refused (409 `payslip_exists`), by the service and by the database; the net
 * never exceeds the gross; a payslip can be cancelled, unless a live batch holds it, and a
 * cancelled payslip is never payable.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { usingPostgres } from '../helper.ts';
import * as payslipUniqueness from '../../src/db/migrations/2026_11_27_00_00_00_payslip_uniqueness.ts';
import { inDays, setup } from './support.ts';

const UNKNOWN = '6f1c2d3e-0000-4000-8000-000000000000';

async function contractOf(ctx: Awaited<ReturnType<typeof setup>>, employee_id: string, start = '2026-12-01', end = '2026-12-31') {
  const res = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
    employee_id,
    kind: 'CDD',
    job_title: 'Régisseur',
    start_date: start,
    end_date: end,
    monthly_gross: '2000',
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as string;
}

describe('a salary published twice', () => {
  it('should refuse a second live payslip for the same employee, period and contracts, naming the first', async (t) => {
    const ctx = await setup(t);
    const { soleil, staff, call, helene, marc } = ctx;
    const c1 = await contractOf(ctx, helene);
    const c2 = await contractOf(ctx, helene, '2026-12-10', '2026-12-20');
    const post = (body: object) => call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, gross: '2000.00', net_to_pay: '1500.00', ...body });

    const bare = await post({ employee_id: helene, period: '2026-12' });
    assert.equal(bare.statusCode, 201, bare.body);
    const again = await post({ employee_id: helene, period: '2026-12' });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().error, 'payslip_exists');
    assert.equal(again.json().payslip_id, bare.json().id);
    // The same, other amounts or an explicit empty list: still the same salary.
    for (const body of [{ net_to_pay: '1.00' }, { contract_ids: [] }, { contract_ids: null }]) {
      const res = await post({ employee_id: helene, period: '2026-12', ...body });
      assert.equal(res.statusCode, 409, `${JSON.stringify(body)} ${res.body}`);
      assert.equal(res.json().payslip_id, bare.json().id);
    }

    const withContracts = await post({ employee_id: helene, period: '2026-12', contract_ids: [c1, c2] });
    assert.equal(withContracts.statusCode, 201, withContracts.body);
    for (const ids of [[c1, c2], [c2, c1], [c1], [c2], [c2.toUpperCase()], [c1, c1]]) {
      const res = await post({ employee_id: helene, period: '2026-12', contract_ids: ids });
      assert.equal(res.statusCode, 409, `${ids} ${res.body}`);
      assert.deepEqual(res.json(), { ...res.json(), error: 'payslip_exists', payslip_id: withContracts.json().id });
    }
    // Another month, another employee: other salaries.
    assert.equal((await post({ employee_id: helene, period: '2027-01', contract_ids: [c1] })).statusCode, 201);
    assert.equal((await post({ employee_id: marc, period: '2026-12' })).statusCode, 201);

    const live = await ctx.db.selectFrom('payslips').select('id').where('employee_id', '=', helene).where('period', '=', '2026-12').execute();
    assert.equal(live.length, 2);
  });

  it('should let the database refuse a duplicate whatever the application does', async (t) => {
    const ctx = await setup(t);
    const { db, soleil, helene } = ctx;
    const c1 = await contractOf(ctx, helene);
    const insert = (contract_ids: string[]) =>
      db
        .insertInto('payslips')
        .values({ org_id: soleil, employee_id: helene, period: '2026-12', gross: '10', net_to_pay: '5', contract_ids })
        .returning('id')
        .executeTakeFirstOrThrow();
    await insert([]);
    await assert.rejects(insert([]), /payslips_one_live_without_contracts_key/);
    const first = await insert([c1]);
    await db.insertInto('payslip_contracts').values({ payslip_id: first.id, org_id: soleil, contract_id: c1, period: '2026-12' }).execute();
    const second = await insert([c1]);
    await assert.rejects(
      db.insertInto('payslip_contracts').values({ payslip_id: second.id, org_id: soleil, contract_id: c1, period: '2026-12' }).execute(),
      /payslip_contracts_one_live_key/,
    );
    await assert.rejects(
      db
        .insertInto('payslips')
        .values({ org_id: soleil, employee_id: helene, period: '2027-02', gross: '10', net_to_pay: '10.01', contract_ids: [] })
        .execute(),
      /payslips_net_within_gross/,
    );
  });

  it('should refuse a net to pay above the gross (400 invalid_net_to_pay), and take it equal', async (t) => {
    const { soleil, staff, call, helene } = await setup(t);
    const post = (gross: unknown, net_to_pay: unknown, period = '2026-12') =>
      call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period, gross, net_to_pay });
    for (const [gross, net] of [
      ['100.00', '5000.00'],
      ['100', 100.01],
      [0, '0.01'],
      ['999999999.98', '999999999.99'],
    ] as const) {
      const res = await post(gross, net);
      assert.equal(res.statusCode, 400, `${gross} ${net} ${res.body}`);
      assert.equal(res.json().error, 'invalid_net_to_pay');
    }
    assert.equal((await post('100.00', '100')).statusCode, 201);
    assert.equal((await post(0, 0, '2027-01')).statusCode, 201);
  });
});

describe('POST /api/staff/payslips/{id}/cancel', () => {
  it('should cancel a payslip with its audit event, make it unpayable, and let the salary be published again', async (t) => {
    const ctx = await setup(t);
    const { db, soleil, staff, call, helene, payslip, available, batch } = ctx;
    const c1 = await contractOf(ctx, helene);
    const first = (
      await call(staff, 'POST', '/api/staff/payslips', {
        org_id: soleil,
        employee_id: helene,
        period: '2026-12',
        gross: '2000',
        net_to_pay: '1500',
        contract_ids: [c1],
      })
    ).json().id;
    const other = await payslip(soleil, helene, '2027-01', '900.00');
    assert.deepEqual((await available()).map((p) => p.id).sort(), [first, other].sort());

    const res = await call(staff, 'POST', `/api/staff/payslips/${first}/cancel`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'annule');
    assert.equal(res.json().id, first);
    const events = await db.selectFrom('module_events').select(['action', 'actor_email', 'details']).where('subject_id', '=', first).orderBy('id').execute();
    assert.deepEqual(
      events.map((e) => e.action),
      ['payslip.created', 'payslip.cancelled'],
    );
    assert.equal(events[1]!.actor_email, 'staff@ops.example');

    // Never payable again: not listed, refused by a batch.
    assert.deepEqual(
      (await available()).map((p) => p.id),
      [other],
    );
    const refused = await batch([first]);
    assert.equal(refused.statusCode, 409);
    assert.deepEqual(refused.json().payslip_ids, [first]);
    // Already cancelled: 409.
    const twice = await call(staff, 'POST', `/api/staff/payslips/${first}/cancel`);
    assert.equal(twice.statusCode, 409);
    assert.equal(twice.json().error, 'payslip_cancelled');
    // The salary may be published again, once.
    const again = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: helene,
      period: '2026-12',
      gross: '2000',
      net_to_pay: '1400',
      contract_ids: [c1],
    });
    assert.equal(again.statusCode, 201, again.body);
    const third = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: helene,
      period: '2026-12',
      gross: '2000',
      net_to_pay: '1400',
      contract_ids: [c1],
    });
    assert.equal(third.json().payslip_id, again.json().id);
  });

  it('should refuse while a live batch holds it (409 payslip_in_transfer), and allow it once the batch is cancelled', async (t) => {
    const { staff, call, soleil, helene, payslip, batch, available } = await setup(t);
    const id = await payslip(soleil, helene, '2026-12', '1500.00');
    const made = await batch([id], inDays(0));
    assert.equal(made.statusCode, 201, made.body);
    const held = await call(staff, 'POST', `/api/staff/payslips/${id}/cancel`);
    assert.equal(held.statusCode, 409);
    assert.deepEqual(held.json(), { ...held.json(), error: 'payslip_in_transfer', transfer_id: made.json().id });
    // Executed: money gone, still refused.
    assert.equal((await call(staff, 'POST', `/api/staff/virements/${made.json().id}/executed`)).statusCode, 200);
    assert.equal((await call(staff, 'POST', `/api/staff/payslips/${id}/cancel`)).json().error, 'payslip_in_transfer');

    const id2 = await payslip(soleil, helene, '2027-01', '700.00');
    const b2 = (await batch([id2])).json().id;
    assert.equal((await call(staff, 'POST', `/api/staff/virements/${b2}/cancel`)).statusCode, 200);
    assert.deepEqual(
      (await available()).map((p) => p.id),
      [id2],
    );
    const ok = await call(staff, 'POST', `/api/staff/payslips/${id2}/cancel`);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(await available(), []);
  });

  it('should answer 404 for unknown ids, 403 to anyone but staff', async (t) => {
    const { admin, agent, compta, staff, call, soleil, helene, payslip } = await setup(t);
    const id = await payslip(soleil, helene, '2026-12', '1500.00');
    for (const bad of [UNKNOWN, 'nope']) {
      const res = await call(staff, 'POST', `/api/staff/payslips/${bad}/cancel`);
      assert.equal(res.statusCode, 404, bad);
      assert.equal(res.json().error, 'not_found');
    }
    for (const who of [admin, agent, compta]) assert.equal((await call(who, 'POST', `/api/staff/payslips/${id}/cancel`)).statusCode, 403);
  });
});

describe('the migration meeting duplicates written before it', () => {
  it('should cancel the later duplicates (keeping one a batch holds) with an audit event, and then hold', async (t) => {
    const ctx = await setup(t);
    const { db, soleil, helene, marc, batch } = ctx;
    const c1 = await contractOf(ctx, helene);
    const c2 = await contractOf(ctx, helene, '2026-12-05', '2026-12-06');
    await payslipUniqueness.down(db);
    const insert = async (employee_id: string, period: string, contract_ids: string[], at: string) =>
      (
        await db
          .insertInto('payslips')
          .values({ org_id: soleil, employee_id, period, gross: '3000', net_to_pay: '1000', contract_ids, created_at: new Date(at) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const bareOld = await insert(helene, '2026-12', [], '2026-12-01T00:00:00Z');
    const bareNew = await insert(helene, '2026-12', [], '2026-12-02T00:00:00Z');
    const heldLater = await insert(marc, '2026-11', [], '2026-12-03T00:00:00Z');
    const notHeldEarlier = await insert(marc, '2026-11', [], '2026-12-01T00:00:00Z');
    // A chain: A pays c1, B pays c1 and c2, C pays c2. B goes, A and C stay.
    const a = await insert(helene, '2026-12', [c1], '2026-12-01T00:00:00Z');
    const b = await insert(helene, '2026-12', [c1, c2], '2026-12-02T00:00:00Z');
    const c = await insert(helene, '2026-12', [c2], '2026-12-03T00:00:00Z');
    const alone = await insert(helene, '2027-01', [c1], '2026-12-01T00:00:00Z');
    assert.equal((await batch([heldLater])).statusCode, 201);

    await payslipUniqueness.up(db);
    const status = Object.fromEntries((await db.selectFrom('payslips').select(['id', 'status']).execute()).map((r) => [r.id, r.status]));
    assert.deepEqual(
      [bareOld, bareNew, heldLater, notHeldEarlier, a, b, c, alone].map((id) => status[id]),
      ['publie', 'annule', 'publie', 'annule', 'publie', 'annule', 'publie', 'publie'],
    );
    const events = await db.selectFrom('module_events').select(['subject_id', 'details']).where('action', '=', 'payslip.cancelled').execute();
    assert.deepEqual(events.map((e) => e.subject_id).sort(), [bareNew, notHeldEarlier, b].sort());
    assert.equal((events.find((e) => e.subject_id === bareNew)!.details as { kept_payslip_id: string }).kept_payslip_id, bareOld);
    const links = await db.selectFrom('payslip_contracts').select(['payslip_id', 'contract_id', 'cancelled']).execute();
    assert.equal(links.length, 5);
    assert.ok(links.filter((l) => l.payslip_id === b).every((l) => l.cancelled));
    await assert.rejects(insert(helene, '2026-12', [], '2026-12-09T00:00:00Z'), /payslips_one_live_without_contracts_key/);
    // Its down and up again on a clean table: nothing left to cancel.
    await payslipUniqueness.down(db);
    await payslipUniqueness.up(db);
    assert.equal((await db.selectFrom('module_events').select('id').where('action', '=', 'payslip.cancelled').execute()).length, 3);
  });
});

describe('races (PostgreSQL)', () => {
  const skip = usingPostgres ? false : 'PGlite has one session: no two transactions run at once';

  it('should let exactly one of a cancellation and a batch win, every time', { skip }, async (t) => {
    const { db, soleil, staff, call, helene, marc, payslip, batch } = await setup(t);
    const outcomes = { cancel: 0, batch: 0 };
    for (let i = 0; i < 12; i++) {
      const id = await payslip(soleil, i % 2 ? marc : helene, `2026-${String(i + 1).padStart(2, '0')}`, '100.00');
      const [cancel, made] = await Promise.all(
        i % 2
          ? [call(staff, 'POST', `/api/staff/payslips/${id}/cancel`), batch([id])]
          : await Promise.all([batch([id]), call(staff, 'POST', `/api/staff/payslips/${id}/cancel`)]).then(([m, c]) => [c, m]),
      );
      const won = [cancel!.statusCode === 200, made!.statusCode === 201];
      assert.equal(won.filter(Boolean).length, 1, `${cancel!.statusCode} ${cancel!.body} / ${made!.statusCode} ${made!.body}`);
      if (won[0]) {
        outcomes.cancel++;
        assert.equal(made!.json().error, 'payslip_unavailable');
      } else {
        outcomes.batch++;
        assert.equal(cancel!.json().error, 'payslip_in_transfer');
      }
      const row = await db.selectFrom('payslips').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      const lines = await db.selectFrom('transfer_items').select('payslip_id').where('payslip_id', '=', id).where('released', '=', false).execute();
      assert.equal(row.status === 'annule', lines.length === 0, 'cancelled exactly when no live batch holds it');
    }
    assert.equal(outcomes.cancel + outcomes.batch, 12);
  });

  it('should publish one of 10 concurrent identical payslips', { skip }, async (t) => {
    const { db, soleil, staff, call, helene } = await setup(t);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period: '2026-12', gross: '2000', net_to_pay: '1500' }),
      ),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    assert.equal(created.length, 1, answers.map((a) => a.statusCode).join(','));
    for (const a of answers.filter((r) => r.statusCode !== 201))
      assert.deepEqual([a.statusCode, a.json().error, a.json().payslip_id], [409, 'payslip_exists', created[0]!.json().id]);
    assert.equal((await db.selectFrom('payslips').select('id').execute()).length, 1);
  });
});
