/** Contribution calls: staff create them; the organization's COMPTA and administrators read them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { numberingYear } from '../../src/format/calendar.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const compta = await member(app, db, soleil, 'compta@soleil.example', 'COMPTA');
  const admin = await member(app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const agent = await member(app, db, soleil, 'agent@soleil.example', 'AGENT');
  const outsider = await member(app, db, lumiere, 'compta@lumiere.example', 'COMPTA');
  const call = (who: Person, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
  return { db, soleil, lumiere, staff, compta, admin, agent, outsider, call };
}

const LINES = [
  { organism: 'URSSAF', amount: '1234.56' },
  { organism: 'AUDIENS', amount: 310.2 },
  { organism: 'CONGES_SPECTACLES', amount: '455' },
  { organism: 'FRANCE_TRAVAIL', amount: '88.04' },
  { organism: 'AFDAS', amount: '12.00' },
];

describe('contribution calls', () => {
  it('should be created by staff (201, total of the lines) and read by COMPTA and administrators of the organization only', async (t) => {
    const { db, soleil, lumiere, staff, compta, admin, agent, outsider, call } = await setup(t);
    const res = await call(staff, 'POST', '/api/staff/cotisations', { org_id: soleil, period: '2026-11', due_date: '2026-12-15', lines: LINES });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(
      { ...created, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        created_at: undefined,
        updated_at: undefined,
        org_id: soleil,
        number: `AC-${numberingYear(new Date())}-000001`,
        origin: 'saisi',
        first_call_number: null,
        payslips_counted_in: 0,
        payslips_counted_out: 0,
        period: '2026-11',
        due_date: '2026-12-15',
        total: '2099.80',
        lines: [
          { organism: 'URSSAF', amount: '1234.56' },
          { organism: 'AUDIENS', amount: '310.20' },
          { organism: 'CONGES_SPECTACLES', amount: '455.00' },
          { organism: 'FRANCE_TRAVAIL', amount: '88.04' },
          { organism: 'AFDAS', amount: '12.00' },
        ],
        status: 'a_payer',
      },
    );
    await call(staff, 'POST', '/api/staff/cotisations', {
      org_id: soleil,
      period: '2026-12',
      due_date: '2027-01-15',
      lines: [{ organism: 'URSSAF', amount: 100 }],
    });
    await call(staff, 'POST', '/api/staff/cotisations', {
      org_id: lumiere,
      period: '2026-12',
      due_date: '2027-01-15',
      lines: [{ organism: 'URSSAF', amount: 7 }],
    });

    const list = await call(compta, 'GET', '/api/cotisations');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().items.map((c: { period: string; total: string }) => [c.period, c.total]),
      [
        ['2026-12', '100.00'],
        ['2026-11', '2099.80'],
      ],
    );
    assert.deepEqual(Object.keys(list.json().items[0]).sort(), [
      'created_at',
      'due_date',
      'first_call_number',
      'id',
      'lines',
      'number',
      'org_id',
      'origin',
      'payslips_counted_in',
      'payslips_counted_out',
      'period',
      'status',
      'total',
      'updated_at',
    ]);
    // Numbered in the order made, gap-free: two calls of a month are told apart.
    assert.deepEqual(
      list.json().items.map((c: { number: string }) => c.number.slice(-6)),
      ['000002', '000001'],
    );
    assert.equal((await call(admin, 'GET', '/api/cotisations')).json().items.length, 2);
    assert.deepEqual(
      (await call(compta, 'GET', '/api/cotisations?period=2026-11')).json().items.map((c: { id: string }) => c.id),
      [created.id],
    );
    const page = (await call(compta, 'GET', '/api/cotisations?limit=1')).json();
    assert.equal(page.items[0].period, '2026-12');
    assert.equal((await call(compta, 'GET', `/api/cotisations?limit=1&cursor=${page.next_cursor}`)).json().items[0].id, created.id);
    assert.deepEqual(
      (await call(outsider, 'GET', '/api/cotisations')).json().items.map((c: { total: string }) => c.total),
      ['7.00'],
    );
    const refused = await call(agent, 'GET', '/api/cotisations');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    assert.equal((await call(compta, 'POST', '/api/staff/cotisations', { org_id: soleil })).statusCode, 403);
    const events = await db.selectFrom('module_events').select('action').where('subject_type', '=', 'contribution_call').execute();
    assert.equal(events.length, 3);
  });

  it('should answer the field codes of docs/modules.md for wrong fields and create nothing', async (t) => {
    const { db, soleil, staff, call } = await setup(t);
    const good = { org_id: soleil, period: '2026-11', due_date: '2026-12-15', lines: LINES };
    for (const [payload, error] of [
      [{ ...good, org_id: undefined }, 'missing_org_id'],
      [{ ...good, org_id: '00000000-0000-4000-8000-000000000000' }, 'org_not_found'],
      [{ ...good, org_id: 'nope' }, 'org_not_found'],
      [{ ...good, period: undefined }, 'missing_period'],
      [{ ...good, period: '2026-13' }, 'invalid_period'],
      [{ ...good, period: '0000-01' }, 'invalid_period'],
      [{ ...good, period: '9999-12' }, 'invalid_period'],
      [{ ...good, due_date: '2026-12-32' }, 'invalid_date'],
      [{ ...good, lines: [] }, 'missing_lines'],
      [{ ...good, lines: [{ organism: '', amount: 1 }] }, 'missing_organism'],
      [{ ...good, lines: [{ organism: 'URSSAF', amount: '-3' }] }, 'invalid_amount'],
      [{ ...good, lines: [{ organism: 'URSSAF', amount: 'abc' }] }, 'invalid_amount'],
      [{ ...good, lines: [{ organism: 'URSSAF' }] }, 'missing_amount'],
      [
        {
          ...good,
          lines: [
            { organism: 'URSSAF', amount: '9999999999.99' },
            { organism: 'AFDAS', amount: 1 },
          ],
        },
        'invalid_amount',
      ],
    ] as const) {
      const res = await call(staff, 'POST', '/api/staff/cotisations', payload);
      assert.equal(res.statusCode, 400, `${error}: ${res.body}`);
      assert.equal(res.json().error, error);
    }
    assert.equal((await db.selectFrom('contribution_calls').select('id').execute()).length, 0);
    const badPeriod = await call(staff, 'GET', `/api/cotisations?period=2026`, undefined);
    assert.equal(badPeriod.statusCode, 400); // staff without an organization: no_active_org
  });
});
