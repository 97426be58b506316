/**
 * SEPA files under huge amounts, on both databases (a CDDU of three dates at
 * 999,999,999.99 computed a net of 1,499,877,835.51 and `GET …/sepa.xml` answered 500). One
 * SEPA transfer carries at most 999,999,999.99: what would exceed it is refused where it is typed
 * (400), a stored one is never offered to a batch (409), and a batch holding one answers 409 on
 * its file. Amounts fuzzed around the cap either make a valid file or a 4xx, never a 500.
 */
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { setup } from '../payslips/support.ts';
import { assertValidXml } from '../support/documents.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { count } from './counts.ts';

const XSD = path.join(import.meta.dirname, '..', 'fixtures', 'pain.001.001.03.xsd');
const PERIOD = todayInFrance().slice(0, 7);
const day = (n: number) => `${PERIOD}-${String(n).padStart(2, '0')}`;

describe('SEPA files under huge amounts', () => {
  it('should refuse at input what one transfer cannot carry, and answer 409, never 500, for a stored one', async (t) => {
    const ctx = await setup(t);
    const { call, staff, agent, soleil, helene, marc } = ctx;
    // The contract: three dates at the largest amount, in one month.
    const contract = await call(agent, 'POST', '/api/contrats', {
      employee_id: marc,
      kind: 'CDDU',
      job_title: 'Régisseur',
      show_title: 'Le Songe',
      idcc: '3090',
      start_date: day(1),
      end_date: day(28),
      dates: [1, 2, 3].map((n) => ({ date: day(n), nature: 'representation', quantity: 1, amount: '999999999.99' })),
    });
    assert.deepEqual([contract.statusCode, contract.json().error, contract.json().field], [400, 'invalid_amount', 'dates']);
    const typed = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: helene,
      period: PERIOD,
      gross: '1499877835.51',
      net_to_pay: '1499877835.51',
    });
    assert.deepEqual([typed.statusCode, typed.json().error], [400, 'invalid_amount']);

    // A net stored before the checks (the computed one of the issue).
    const big = await ctx.payslip(soleil, helene, PERIOD, '900000000.00');
    await ctx.db.updateTable('payslips').set({ gross: '2999999999.97', net_to_pay: '1499877835.51' }).where('id', '=', big).execute();
    assert.deepEqual(
      (await ctx.available()).map((p) => p.id),
      [],
    );
    const refused = await ctx.batch([big]);
    assert.deepEqual([refused.statusCode, refused.json().error, refused.json().payslip_ids], [409, 'payslip_unavailable', [big]]);
    // A batch of before the checks holding it: its file is refused, with the payslip named.
    const small = await ctx.payslip(soleil, marc, PERIOD, '100.00');
    const made = await ctx.batch([small]);
    assert.equal(made.statusCode, 201, made.body);
    await ctx.db.updateTable('transfer_items').set({ amount: '1499877835.51' }).where('payslip_id', '=', small).execute();
    // A batch made before its SEPA file was stored with it: none stored, the file is made on download.
    await ctx.db.updateTable('transfers').set({ total: '1499877835.51', sepa_file_id: null }).where('id', '=', made.json().id).execute();
    const xml = await call(staff, 'GET', `/api/staff/virements/${made.json().id}/sepa.xml`);
    assert.equal(xml.statusCode, 409, xml.body);
    assert.deepEqual({ error: xml.json().error, payslip_ids: xml.json().payslip_ids }, { error: 'transfer_amount_too_large', payslip_ids: [small] });
    count('cases', 5);
  });

  it('should make a valid file or refuse with a 4xx for nets around the cap, never a 500', async (t) => {
    const ctx = await setup(t);
    const { call, staff, soleil, helene } = ctx;
    const cents = fc.oneof(fc.bigInt({ min: 99_999_999_990n, max: 100_000_000_010n }), fc.bigInt({ min: 1n, max: 99_999_999_999n }));
    const amounts = fc.sample(cents, { numRuns: 12, seed: 61 }).map((c) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`);
    let files = 0;
    for (const net of amounts) {
      const typed = await call(staff, 'POST', '/api/staff/payslips', { org_id: soleil, employee_id: helene, period: PERIOD, gross: net, net_to_pay: net });
      assert.ok(typed.statusCode === 201 || typed.statusCode === 400 || typed.statusCode === 409, `${net}: ${typed.statusCode} ${typed.body}`);
      if (typed.statusCode !== 201) {
        assert.ok(Number(net) > 999_999_999.99 || typed.json().error !== 'invalid_amount', `${net} refused: ${typed.body}`);
        continue;
      }
      const batch = await ctx.batch([typed.json().id]);
      assert.equal(batch.statusCode, 201, `${net}: ${batch.body}`);
      const xml = await call(staff, 'GET', `/api/staff/virements/${batch.json().id}/sepa.xml`);
      assert.equal(xml.statusCode, 200, `${net}: ${xml.body}`);
      await assertValidXml(xml.body, XSD);
      assert.ok(xml.body.includes(`<CtrlSum>${net}</CtrlSum>`), `${net} in CtrlSum`);
      files++;
      // The next amount is typed for the same employee and month: this one is cancelled first.
      assert.equal((await call(staff, 'POST', `/api/staff/virements/${batch.json().id}/cancel`)).statusCode, 200);
      await ctx.db.updateTable('payslips').set({ status: 'annule' }).where('id', '=', typed.json().id).execute();
      count('fuzzed');
    }
    assert.ok(files >= 3, `${files} files validated`);
  });
});
