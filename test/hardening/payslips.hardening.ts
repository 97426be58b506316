/**
 * Payslips (I): a salary published twice, a net above the gross, periods outside the
 * one rule, cancellations racing batches, and cancelled payslips offered for payment. On
 * PostgreSQL the races are real (concurrent transactions); on PGlite, one session, they are
 * serialised and the same outcomes must hold.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addMonths, parsePeriod, payrollPeriodWindow } from '../../src/format/calendar.ts';
import { count } from './counts.ts';
import { inDays, setup } from '../payslips/support.ts';

type Ctx = Awaited<ReturnType<typeof setup>>;

async function contract(ctx: Ctx, employee_id: string, start: string, end: string): Promise<string> {
  const res = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
    employee_id,
    kind: 'CDD',
    job_title: 'Technicien',
    start_date: start,
    end_date: end,
    monthly_gross: '1000',
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as string;
}

const WINDOW = payrollPeriodWindow();
/** Months the payroll accepts: 36 back, 12 ahead. */
const WINDOW_MONTHS = 49;
/** The n-th month the payroll accepts (cycling): a fresh period for each accepted payslip of one employee. */
const periodNo = (n: number) => addMonths(WINDOW.first, n % WINDOW_MONTHS);

describe('payslips hardening', () => {
  it('should refuse every variation of a salary already published, and take every other salary', async (t) => {
    const ctx = await setup(t);
    const { soleil, staff, call, helene, marc } = ctx;
    const cs = [
      await contract(ctx, helene, '2026-12-01', '2026-12-31'),
      await contract(ctx, helene, '2026-12-02', '2026-12-03'),
      await contract(ctx, helene, '2026-12-04', '2026-12-05'),
    ];
    const marcContract = await contract(ctx, marc, '2026-12-01', '2026-12-31');
    const post = (body: object) => call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, gross: '1000.00', net_to_pay: '800.00', ...body });

    const bare = (await post({ employee_id: helene, period: '2026-12' })).json().id as string;
    const pair = (await post({ employee_id: helene, period: '2026-12', contract_ids: [cs[0], cs[1]] })).json().id as string;
    assert.ok(bare && pair);

    const refused: Array<[object, string]> = [];
    for (const amounts of [{}, { gross: '2000', net_to_pay: '1' }, { net_to_pay: 0 }, { gross: 999999999.99, net_to_pay: '999999999.99' }]) {
      for (const none of [{}, { contract_ids: [] }, { contract_ids: null }]) refused.push([{ ...amounts, ...none }, bare]);
      for (const ids of [[cs[0], cs[1]], [cs[1], cs[0]], [cs[0]], [cs[1]], [cs[0], cs[2]], [cs[2], cs[1]], [cs[0]!.toUpperCase()], [cs[1], cs[1]], cs]) {
        refused.push([{ ...amounts, contract_ids: ids }, pair]);
      }
    }
    for (const [body, existing] of refused) {
      const res = await post({ employee_id: helene, period: '2026-12', ...body });
      assert.equal(res.statusCode, 409, `${JSON.stringify(body)} ${res.body}`);
      assert.equal(res.json().error, 'payslip_exists');
      assert.equal(res.json().payslip_id, existing, JSON.stringify(body));
    }
    count('cases', refused.length);

    // Other salaries: another month, another employee, a contract not yet paid this month.
    const accepted: object[] = [
      { employee_id: helene, period: '2027-01' },
      { employee_id: helene, period: '2026-11', contract_ids: [cs[0]] },
      { employee_id: helene, period: '2026-12', contract_ids: [cs[2]] },
      { employee_id: marc, period: '2026-12' },
      { employee_id: marc, period: '2026-12', contract_ids: [marcContract] },
    ];
    for (const body of accepted) assert.equal((await post(body)).statusCode, 201, JSON.stringify(body));
    count('cases', accepted.length);
    // And each of them is now refused in turn.
    for (const body of accepted) assert.equal((await post(body)).statusCode, 409, JSON.stringify(body));
    count('cases', accepted.length);
    const live = await ctx.db.selectFrom('payslips').select('id').where('status', '=', 'publie').execute();
    assert.equal(live.length, 2 + accepted.length);
  });

  it('should publish one of many concurrent identical payslips, with or without contracts', async (t) => {
    const ctx = await setup(t);
    const { db, soleil, staff, call, helene } = ctx;
    const c = await contract(ctx, helene, '2027-03-01', '2027-03-31');
    for (const contract_ids of [undefined, [c]]) {
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          call(staff, 'POST', '/api/staff/payslips', {
            org_id: soleil,
            employee_id: helene,
            period: '2027-03',
            gross: '100',
            net_to_pay: String(50 + i),
            ...(contract_ids ? { contract_ids } : {}),
          }),
        ),
      );
      count('cases', answers.length);
      const created = answers.filter((a) => a.statusCode === 201);
      assert.equal(created.length, 1, answers.map((a) => a.statusCode).join(','));
      for (const a of answers) if (a.statusCode !== 201) assert.deepEqual([a.statusCode, a.json().payslip_id], [409, created[0]!.json().id]);
    }
    assert.equal((await db.selectFrom('payslips').select('id').execute()).length, 2);
  });

  it('should never take a net to pay above the gross', async (t) => {
    const { soleil, staff, call, helene, marc, zoe } = await setup(t);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.boolean(),
        async (grossCents, netCents, asNumber) => {
          const money = (cents: number) => (asNumber ? cents / 100 : (cents / 100).toFixed(2));
          const res = await call(staff, 'POST', '/api/staff/payslips', {
            org_id: soleil,
            employee_id: [helene, marc, zoe][Math.floor(n / WINDOW_MONTHS)],
            period: periodNo(n),
            gross: money(grossCents),
            net_to_pay: money(netCents),
          });
          count('fuzzed');
          if (netCents > grossCents) {
            assert.equal(res.statusCode, 400, res.body);
            assert.equal(res.json().error, 'invalid_net_to_pay');
          } else {
            assert.equal(res.statusCode, 201, res.body);
            n++;
          }
        },
      ),
      { numRuns: 120 },
    );
    for (const [gross, net] of [
      ['100.00', '5000.00'],
      ['0', '0.01'],
      ['999999999.98', 999999999.99],
    ] as const) {
      const res = await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period: WINDOW.last, gross, net_to_pay: net });
      assert.equal(res.json().error, 'invalid_net_to_pay');
      count('cases');
    }
  });

  it('should hold one period rule for payslips and contribution calls, bodies and filters', async (t) => {
    const { soleil, staff, compta, call, helene } = await setup(t);
    const fixed = [
      WINDOW.first,
      WINDOW.last,
      addMonths(WINDOW.first, -1),
      addMonths(WINDOW.last, 1),
      '1900-01',
      '2999-12',
      '0000-01',
      '9999-12',
      '1899-12',
      '3000-01',
      '2027-00',
      '2027-13',
      '2027-1',
      '27-01',
      '2027-01-01',
      '2027/01',
      ' 2027-01',
      '2027-01 ',
      '２０２７-01',
      '2027-0１',
      '-2027-01',
      '+2027-01',
      '1e3',
      'null',
    ];
    const fuzz = fc.sample(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc
          .tuple(fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1850, max: 3050 })), fc.integer({ min: 0, max: 13 }))
          .map(([y, m]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`),
      ),
      { numRuns: 150, seed: 32 },
    );
    let accepted = 0;
    for (const period of [...fixed, ...fuzz]) {
      // Bodies take the months the payroll accepts; filters any well-formed period.
      const ok = parsePeriod(period) !== null;
      const written = ok && period >= WINDOW.first && period <= WINDOW.last;
      const slip = await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period, gross: '10', net_to_pay: '1' });
      const callRes = await call(staff, 'POST', '/api/staff/cotisations', {
        org_id: soleil,
        period,
        due_date: '2027-01-15',
        lines: [{ organism: 'URSSAF', amount: 1 }],
      });
      const q = encodeURIComponent(period);
      const filters = [
        await call(compta, 'GET', `/api/payslips?period=${q}`),
        await call(compta, 'GET', `/api/cotisations?period=${q}`),
        await call(staff, 'GET', `/api/staff/payslips/available?period=${q}`),
      ];
      count(fixed.includes(period) ? 'cases' : 'fuzzed', 5);
      assert.ok(slip.statusCode < 500 && callRes.statusCode < 500 && filters.every((f) => f.statusCode < 500), period);
      if (period === '') continue;
      if (written) {
        assert.ok([201, 409].includes(slip.statusCode), `${JSON.stringify(period)} ${slip.body}`);
        assert.equal(callRes.statusCode, 201, `${JSON.stringify(period)} ${callRes.body}`);
      } else {
        assert.equal(slip.json().error, 'invalid_period', `${JSON.stringify(period)} ${slip.body}`);
        assert.equal(callRes.json().error, 'invalid_period', `${JSON.stringify(period)} ${callRes.body}`);
      }
      if (ok) {
        accepted++;
        for (const f of filters) assert.equal(f.statusCode, 200, `${JSON.stringify(period)} ${f.body}`);
      } else {
        for (const f of filters) assert.deepEqual([f.statusCode, f.json().error], [400, 'invalid_period'], `${JSON.stringify(period)} ${f.body}`);
      }
    }
    assert.ok(accepted > 10, `the fuzz reached valid periods too (${accepted})`);
  });

  it('should let exactly one of a cancellation and a batch win, and never offer a cancelled payslip', async (t) => {
    const { db, soleil, staff, call, helene, marc, payslip, batch, available } = await setup(t);
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await payslip(soleil, i % 2 ? marc : helene, periodNo(i), `${10 + i}.00`));
    // Each payslip: its cancellation and a batch naming it (alone, or with a neighbour) at once.
    const answers = await Promise.all(
      ids.flatMap((id, i) => [
        call(staff, 'POST', `/api/staff/payslips/${id}/cancel`),
        batch(i % 3 === 0 ? [id, ids[(i + 1) % ids.length]!] : [id], inDays(1)),
      ]),
    );
    count('cases', answers.length);
    assert.ok(
      answers.every((a) => a.statusCode < 500),
      answers.map((a) => a.statusCode).join(','),
    );
    for (const a of answers) {
      if (a.statusCode >= 400) assert.ok(['payslip_in_transfer', 'payslip_unavailable'].includes(a.json().error), a.body);
    }
    const rows = await db.selectFrom('payslips').select(['id', 'status']).execute();
    const live = await db.selectFrom('transfer_items').select('payslip_id').where('released', '=', false).execute();
    const held = new Set(live.map((l) => l.payslip_id));
    assert.equal(held.size, live.length, 'no payslip twice');
    for (const row of rows) {
      // Exactly one won: cancelled, or held by a live batch; never both, never neither.
      assert.notEqual(row.status === 'annule', held.has(row.id), `${row.id}: ${row.status}, held ${held.has(row.id)}`);
    }
    count('cases', rows.length);

    // Cancelled payslips are never offered nor taken; cancel the batches and look again.
    const cancelled = rows.filter((r) => r.status === 'annule').map((r) => r.id);
    const offered = async () => new Set((await available()).map((p) => p.id));
    for (const id of cancelled) assert.ok(!(await offered()).has(id));
    const batches = await db.selectFrom('transfers').select('id').where('status', '=', 'genere').execute();
    await Promise.all(batches.map((b) => call(staff, 'POST', `/api/staff/virements/${b.id}/cancel`)));
    const now = await offered();
    for (const id of ids) assert.equal(now.has(id), !cancelled.includes(id), id);
    for (const id of cancelled) {
      const res = await batch([id], inDays(2));
      assert.deepEqual([res.statusCode, res.json().error], [409, 'payslip_unavailable']);
      const again = await call(staff, 'POST', `/api/staff/payslips/${id}/cancel`);
      assert.deepEqual([again.statusCode, again.json().error], [409, 'payslip_cancelled']);
    }
    count('cases', ids.length + cancelled.length * 2);
  });
});
