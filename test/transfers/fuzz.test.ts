/** Fuzzed bodies and queries on the payslip and transfer routes: a 4xx or a success, never a 5xx. */
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { inDays, setup } from '../payslips/support.ts';
import { anyValue, assertNo5xx, assertProperty } from '../support/fuzz.ts';

const anything = anyValue(
  ['', '2027-01', '2027-13', '2027-02-30', inDays(2), '9999-12-31', '0001-01-01', '12.345', '-1', '1e3', '9999999999.99', '999999999.99', '0.00'],
  fc.array(fc.uuid(), { maxLength: 3 }),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.uuid(),
  fc.constantFrom('0', '200', '201', '2027-01', '2027-13', 'genere', 'annule', 'WyIyMDI3LTAxIl0'),
);

describe('payslips and transfers under fuzzed input', () => {
  it('should never answer 5xx', async (t) => {
    const { app, soleil, staff, compta, helene, marc, payslip } = await setup(t);
    const paid = await payslip(soleil, helene, '2027-01', '1500.00');
    const free = await payslip(soleil, marc, '2027-01', '900.00');
    const batch = (
      await app.inject({
        method: 'POST',
        url: '/api/staff/virements',
        headers: { cookie: staff.cookie },
        payload: { payslip_ids: [paid], execution_date: inDays(1) },
      })
    ).json();
    await assertProperty(
      40,
      [
        fc.record(
          {
            org_id: anything,
            employee_id: anything,
            period: anything,
            gross: anything,
            net_to_pay: anything,
            contract_ids: anything,
            payslip_ids: anything,
            execution_date: anything,
          },
          { requiredKeys: [] },
        ),
        fc.dictionary(fc.constantFrom('limit', 'cursor', 'period', 'employee_id', 'org_id', 'status'), queryValue),
      ],
      async (body, query) => {
        const qs = new URLSearchParams(query).toString();
        const ids = Array.isArray(body.payslip_ids) ? [...body.payslip_ids, free] : body.payslip_ids;
        await assertNo5xx(app, staff.cookie, [
          {
            method: 'POST',
            url: '/api/staff/payslips',
            payload: {
              ...body,
              org_id: typeof body.org_id === 'string' ? body.org_id : soleil,
              employee_id: typeof body.employee_id === 'string' ? body.employee_id : helene,
            },
          },
          { method: 'POST', url: '/api/staff/virements', payload: { payslip_ids: ids, execution_date: body.execution_date } },
          { method: 'GET', url: `/api/staff/payslips/available?${qs}` },
          { method: 'GET', url: `/api/staff/virements?${qs}` },
          { method: 'GET', url: `/api/staff/virements/${batch.id}/sepa.xml` },
          { method: 'GET', url: `/api/payslips?${qs}`, cookie: compta.cookie },
          { method: 'GET', url: `/api/virements?${qs}`, cookie: compta.cookie },
        ]);
      },
    );
  });
});
