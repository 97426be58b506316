/** Fuzzed bodies and queries on the modules' routes: a 4xx or a success, never a 5xx. */
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { anyValue, assertNo5xx, assertProperty } from '../support/fuzz.ts';

/** Any JSON value, these shapes among them. */
const anything = anyValue([
  '',
  '2027-03-10',
  '2027-02-30',
  '9999-12-31',
  '0001-01-01',
  'CDDU',
  'CDI',
  '12.345',
  '-1',
  '1e3',
  '9999999999.99',
  'representation',
]);
const line = fc.record({ date: anything, nature: anything, quantity: anything, amount: anything }, { requiredKeys: [] });
const contractBody = fc.record(
  {
    employee_id: anything,
    kind: anything,
    job_title: anything,
    show_title: anything,
    idcc: anything,
    start_date: anything,
    end_date: anything,
    monthly_gross: anything,
    dates: fc.oneof(anything, fc.array(line, { maxLength: 4 })),
  },
  { requiredKeys: [] },
);
const queryValue = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('0', '200', '201', 'brouillon', 'CDD', '2027-13-01', 'WyIyMDI3LTAxLTAxIl0'));

describe('modules under fuzzed input', () => {
  it('should never answer 5xx', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org', 'KEY');
    const agent = await member(app, db, orgId, 'agent@example.com', 'AGENT');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'STAFF' });
    const headers = { cookie: agent.cookie };
    const employee = (await app.inject({ method: 'POST', url: '/api/salaries', headers, payload: { first_name: 'A', last_name: 'B' } })).json();
    const contract = (
      await app.inject({ method: 'POST', url: '/api/contrats', headers, payload: { employee_id: employee.id, kind: 'CDI', start_date: '2027-01-01' } })
    ).json();
    await assertProperty(
      60,
      [contractBody, fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'kind', 'employee_id', 'from', 'to', 'q', 'org_id'), queryValue), anything],
      async (body, query, text) => {
        const qs = new URLSearchParams(query).toString();
        await assertNo5xx(app, agent.cookie, [
          { method: 'POST', url: '/api/contrats', payload: { ...body, employee_id: typeof body.employee_id === 'string' ? body.employee_id : employee.id } },
          { method: 'PATCH', url: `/api/contrats/${contract.id}`, payload: body },
          {
            method: 'PATCH',
            url: `/api/salaries/${employee.id}`,
            payload: { first_name: body.job_title, iban: body.idcc, email: body.show_title, category: body.kind },
          },
          { method: 'POST', url: `/api/contrats/${contract.id}/notes`, payload: { text } },
          { method: 'GET', url: `/api/contrats?${qs}` },
          { method: 'GET', url: `/api/salaries?${qs}` },
          { method: 'GET', url: `/api/contrats/${contract.id}/notes?${qs}` },
          { method: 'GET', url: `/api/staff/contrats?${qs}`, cookie: staff.cookie },
          { method: 'PATCH', url: `/api/staff/contrats/${contract.id}/salaires-par-date`, payload: { dates: body.dates }, cookie: staff.cookie },
          {
            method: 'PATCH',
            url: `/api/staff/orgs/${orgId}`,
            payload: { email_notifs: body.dates, virements_salaires: body.kind, documents_slug: body.show_title, siret: body.idcc },
            cookie: staff.cookie,
          },
        ]);
      },
    );
  });
});
