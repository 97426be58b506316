/**
 * The invoice series is chronological (French invoicing rules). An issue date
 * cannot precede the last invoice issued (409 `issue_date_before_last`, checked under the series
 * lock), nor lie more than 5 days after today in Paris (400 `invalid_issue_date`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, usingPostgres } from '../helper.ts';
import { createOrg, signedIn } from '../support/fixtures.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { checkHeader } from '../../src/invoices/invoice.rules.ts';
import { addDays } from '../../src/format/calendar.ts';

const LINE = { label: 'Traitement de la paie', quantity: 1, unit_price: '25.00', vat_rate: '20.00' };

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  // A second instance of the service on the same database (PostgreSQL: its own connections).
  const other = usingPostgres ? (await build(t, { database })).app : app;
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const create = (issue_date: string | undefined, count = 1, on = app) =>
    on.inject({
      method: 'POST',
      url: '/api/staff/facturation/bulk-create',
      headers: { cookie: staff.cookie },
      payload: {
        invoice_type: 'prestation',
        payment_method: 'virement',
        ...(issue_date ? { issue_date } : {}),
        invoices: Array.from({ length: count }, () => ({ org_id: soleil, lines: [LINE] })),
      },
    });
  return { app, other, db, soleil, staff, create };
}

describe('checkHeader: issue_date', () => {
  it('should take today up to 5 days ahead, and refuse further (400 invalid_issue_date)', () => {
    const header = { invoice_type: 'prestation', payment_method: 'virement' };
    assert.equal(checkHeader({ ...header, issue_date: '2026-12-02' }, '2026-11-27').issue_date, '2026-12-02');
    assert.equal(checkHeader({ ...header }, '2026-11-27').issue_date, '2026-11-27');
    for (const far of ['2026-12-03', '2027-01-02', '9999-12-31']) {
      assert.throws(
        () => checkHeader({ ...header, issue_date: far }, '2026-11-27'),
        (e: { status: number; code: string }) => e.status === 400 && e.code === 'invalid_issue_date',
        far,
      );
    }
  });
});

describe('POST /api/staff/facturation/bulk-create: chronology', () => {
  it('should refuse an issue date before the last invoice issued, whatever its year, and a far-future one', async (t) => {
    const { db, create } = await setup(t);
    const today = todayInFrance();
    // A new year's series starts at 000001 (and the default due date is 30 days after issue).
    assert.deepEqual(
      (await create('2025-12-30')).json().created.map((c: { number: string }) => c.number),
      ['F-2025-000001'],
    );
    const january = await create('2026-01-02', 2);
    assert.deepEqual(
      january.json().created.map((c: { number: string }) => c.number),
      ['F-2026-000001', 'F-2026-000002'],
    );
    assert.equal((await db.selectFrom('invoices').select('due_date').where('number', '=', 'F-2026-000001').executeTakeFirstOrThrow()).due_date, '2026-02-01');

    const late = await create('2026-11-26');
    assert.equal(late.statusCode, 201, late.body);
    for (const before of ['2026-11-25', '2026-01-03', '2025-12-31', '2000-01-01']) {
      const res = await create(before);
      assert.equal(res.statusCode, 409, `${before}: ${res.body}`);
      assert.equal(res.json().error, 'issue_date_before_last');
      assert.equal(res.json().last_number, 'F-2026-000003');
      assert.equal(res.json().last_issue_date, '2026-11-26');
      assert.match(res.json().message, /26\/11\/2026/);
    }
    for (const far of [addDays(today, 6), '2027-06-01', '9999-01-01']) {
      const res = await create(far);
      assert.equal(res.statusCode, 400, `${far}: ${res.body}`);
      assert.equal(res.json().error, 'invalid_issue_date');
    }
    // The same date again, today (the default), and up to 5 days ahead are fine; numbers never skipped.
    assert.equal((await create('2026-11-26')).statusCode, 201);
    assert.equal((await create(undefined)).statusCode, 201);
    assert.equal((await create(addDays(today, 5))).statusCode, 201);
    const numbers = (await db.selectFrom('invoices').select('number').where('number', 'like', 'F-2026-%').orderBy('number').execute()).map((r) => r.number);
    assert.deepEqual(
      numbers,
      Array.from({ length: numbers.length }, (_, i) => `F-2026-${String(i + 1).padStart(6, '0')}`),
    );
  });

  it('should keep the series chronological and gapless when bulks with different dates race', {
    skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL): PGlite runs one session, nothing races',
  }, async (t) => {
    const { db, other, create } = await setup(t);
    const dates = ['2026-11-02', '2026-11-05', '2026-11-05', '2026-11-09', '2026-11-12', '2026-11-16', '2026-11-20', '2026-11-23'];
    // In reverse order of date, so that most bulks that lose the race are the refused ones.
    const responses = await Promise.all([...dates].reverse().map((date, i) => create(date, 20 + i * 7, i % 2 === 0 ? undefined : other)));
    for (const res of responses) assert.ok(res.statusCode === 201 || (res.statusCode === 409 && res.json().error === 'issue_date_before_last'), res.body);
    const rows = await db.selectFrom('invoices').select(['number', 'issue_date']).orderBy('number').execute();
    assert.ok(rows.length > 0);
    rows.forEach((row, i) => {
      assert.equal(row.number, `F-2026-${String(i + 1).padStart(6, '0')}`);
      if (i > 0) assert.ok(row.issue_date >= rows[i - 1]!.issue_date, `${row.number} dated ${row.issue_date} after ${rows[i - 1]!.issue_date}`);
    });
    const created = responses.filter((r) => r.statusCode === 201).reduce((n, r) => n + r.json().created.length, 0);
    assert.equal(rows.length, created);
  });
});
