/** Fuzzed bodies and queries on the modules' routes: a 4xx or a success, never a 5xx. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';

/** Any JSON value, with the shapes the routes read most likely to appear. */
const anything = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1e6, max: 1e13 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '2027-03-10', '2027-02-30', '9999-12-31', '0001-01-01', 'CDDU', 'CDI', '12.345', '-1', '1e3', '9999999999.99', 'representation'),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const line = fc.record({ date: anything, nature: anything, quantity: anything, amount: anything }, { requiredKeys: [] });
const contractBody = fc.record(
  { employee_id: anything, kind: anything, job_title: anything, show_title: anything, idcc: anything, start_date: anything, end_date: anything, monthly_gross: anything, dates: fc.oneof(anything, fc.array(line, { maxLength: 4 })) },
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
    const contract = (await app.inject({ method: 'POST', url: '/api/contrats', headers, payload: { employee_id: employee.id, kind: 'CDI', start_date: '2027-01-01' } })).json();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(contractBody, fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'kind', 'employee_id', 'from', 'to', 'q', 'org_id'), queryValue), anything, async (body, query, text) => {
        runs++;
        const qs = new URLSearchParams(query).toString();
        for (const request of [
          { method: 'POST' as const, url: '/api/contrats', payload: { ...body, employee_id: typeof body.employee_id === 'string' ? body.employee_id : employee.id } },
          { method: 'PATCH' as const, url: `/api/contrats/${contract.id}`, payload: body },
          { method: 'PATCH' as const, url: `/api/salaries/${employee.id}`, payload: { first_name: body.job_title, iban: body.idcc, email: body.show_title, category: body.kind } },
          { method: 'POST' as const, url: `/api/contrats/${contract.id}/notes`, payload: { text } },
          { method: 'GET' as const, url: `/api/contrats?${qs}` },
          { method: 'GET' as const, url: `/api/salaries?${qs}` },
          { method: 'GET' as const, url: `/api/contrats/${contract.id}/notes?${qs}` },
          { method: 'GET' as const, url: `/api/staff/contrats?${qs}`, staff: true },
          { method: 'PATCH' as const, url: `/api/staff/contrats/${contract.id}/salaires-par-date`, payload: { dates: body.dates }, staff: true },
          { method: 'PATCH' as const, url: `/api/staff/orgs/${orgId}`, payload: { email_notifs: body.dates, virements_salaires: body.kind, documents_slug: body.show_title, siret: body.idcc }, staff: true },
        ]) {
          const { staff: asStaff, ...inject } = request;
          const res = await app.inject({ ...inject, headers: { cookie: asStaff ? staff.cookie : agent.cookie } });
          assert.ok(res.statusCode < 500, `${request.method} ${request.url} ${JSON.stringify(request.payload)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        }
      }),
      { numRuns: 60 },
    );
    assert.equal(runs, 60);
  });
});
