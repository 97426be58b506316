/** Fuzzed bodies and queries on the invoice and contribution routes: a 4xx or a success, never a 5xx. */
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { anyValue, assertNo5xx, assertProperty } from '../support/fuzz.ts';

const anything = anyValue([
  '',
  '2026-11-30',
  '2027-02-30',
  '9999-12-31',
  '0001-01-01',
  '2026-11',
  'paie_mensuelle',
  'virement',
  '12.345',
  '-1',
  '1e3',
  '9999999999.99',
  '20.00',
  'URSSAF',
]);
const line = fc.record(
  { label: anything, quantity: anything, unit_price: anything, vat_rate: anything, organism: anything, amount: anything },
  { requiredKeys: [] },
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('0', '200', '201', 'true', 'false', 'prestation', '2026-13', 'WyJGLTIwMjYtMDAwMDAxIl0'),
);

describe('invoices and contribution calls under fuzzed input', () => {
  it('should never answer 5xx', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org', 'KEY');
    const compta = await member(app, db, orgId, 'compta@example.com', 'COMPTA');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const orgOrAnything = fc.oneof(fc.constant(orgId), anything);
    await assertProperty(
      60,
      [
        fc.record(
          {
            invoice_type: anything,
            payment_method: anything,
            period_label: anything,
            issue_date: anything,
            due_date: anything,
            force: anything,
            period: anything,
          },
          { requiredKeys: [] },
        ),
        fc.oneof(
          anything,
          fc.array(fc.record({ org_id: orgOrAnything, lines: fc.oneof(anything, fc.array(line, { maxLength: 3 })) }, { requiredKeys: [] }), { maxLength: 3 }),
        ),
        fc.oneof(anything, fc.array(line, { maxLength: 3 })),
        fc.dictionary(fc.constantFrom('limit', 'cursor', 'notified', 'org_id', 'invoice_type', 'period'), queryValue),
      ],
      async (body, invoices, lines, query) => {
        const qs = new URLSearchParams(query).toString();
        await assertNo5xx(app, compta.cookie, [
          { method: 'POST', url: '/api/staff/facturation/bulk-create', payload: { ...body, invoices }, cookie: staff.cookie },
          { method: 'POST', url: '/api/staff/facturation/bulk-notify', payload: { invoice_ids: invoices, force: body.force }, cookie: staff.cookie },
          {
            method: 'POST',
            url: '/api/staff/cotisations',
            payload: { org_id: orgId, period: body.period, due_date: body.due_date, lines },
            cookie: staff.cookie,
          },
          { method: 'GET', url: `/api/staff/facturation?${qs}`, cookie: staff.cookie },
          { method: 'GET', url: `/api/factures?${qs}` },
          { method: 'GET', url: `/api/cotisations?${qs}` },
        ]);
      },
    );
  });
});
