/**
 * `PATCH /api/staff/orgs/{id}/salaries/{employee_id}`: staff edit any organization's employee
 * (the page `/staff/organisations/{id}` names it in the path, whatever the active organization),
 * checked as `PATCH /api/salaries/{id}` checks it; the IBAN write-only.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const admin = await member(app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const lumiereAgent = await member(app, db, lumiere, 'agent@lumiere.example', 'AGENT');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const zoe = (await call(admin.cookie, 'POST', '/api/salaries', { first_name: 'Zoé', last_name: 'Bernard' })).json().id as string;
  const leonie = (await call(lumiereAgent.cookie, 'POST', '/api/salaries', { first_name: 'Léonie', last_name: 'Faure' })).json().id as string;
  return { db, soleil, lumiere, admin, staff, call, zoe, leonie };
}

describe('PATCH /api/staff/orgs/{id}/salaries/{employee_id}', () => {
  it("should set an employee's IBAN, BIC, cadre and PAS rate, answer only the IBAN's last four, and record who did it", async (t) => {
    const { db, soleil, staff, call, zoe } = await setup(t);
    // The staff member's active organization is another one: the path decides.
    const res = await call(`${staff.cookie}; active_org_id=00000000-0000-4000-8000-000000000000`, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${zoe}`, {
      iban: 'FR76 3000 6000 0112 3456 7890 189',
      bic: 'agrifrpp',
      cadre: true,
      pas_rate: '7.5',
      category: 'artiste',
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.iban_last4, '0189');
    assert.equal(body.bic, 'AGRIFRPP');
    assert.equal(body.cadre, true);
    assert.equal(body.pas_rate, '7.50');
    assert.equal(body.category, 'artiste');
    assert.doesNotMatch(res.body, /FR76|30006000/);
    const row = await db.selectFrom('employees').select(['iban']).where('id', '=', zoe).executeTakeFirstOrThrow();
    assert.equal(row.iban, 'FR7630006000011234567890189');
    const event = await db
      .selectFrom('module_events')
      .selectAll()
      .where('subject_id', '=', zoe)
      .where('action', '=', 'employee.updated')
      .executeTakeFirstOrThrow();
    assert.equal(event.actor_email, 'staff@ops.example');
    assert.deepEqual((event.details as { changed: string[] }).changed.sort(), ['bic', 'cadre', 'category', 'iban', 'pas_rate']);
    assert.doesNotMatch(JSON.stringify(event), /FR76/);
  });

  it('should refuse an invalid IBAN, one outside the SEPA zone and a bad PAS rate in French, naming the field', async (t) => {
    const { soleil, staff, call, zoe } = await setup(t);
    const bad = await call(staff.cookie, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${zoe}`, { iban: 'FR76 3000 6000 0112 3456 7890 188' });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { error: 'invalid_iban', message: "L'IBAN n'est pas valide (clé de contrôle, longueur ou pays)." });
    const outside = await call(staff.cookie, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${zoe}`, { iban: 'BR1800360305000010009795493C1' });
    assert.equal(outside.statusCode, 400);
    assert.equal(outside.json().error, 'invalid_iban');
    assert.match(outside.json().message, /zone SEPA/);
    const rate = await call(staff.cookie, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${zoe}`, { pas_rate: '101' });
    assert.equal(rate.json().error, 'invalid_pas_rate');
  });

  it("should answer 404 for another organization's employee, an unknown organization or an id that is none, and 403 to a client ADMIN", async (t) => {
    const { soleil, lumiere, admin, staff, call, zoe, leonie } = await setup(t);
    const other = await call(staff.cookie, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${leonie}`, { cadre: true });
    assert.equal(other.statusCode, 404);
    assert.deepEqual(other.json(), { error: 'not_found', message: 'Salarié introuvable.' });
    assert.equal((await call(staff.cookie, 'PATCH', `/api/staff/orgs/${lumiere}/salaries/${zoe}`, { cadre: true })).statusCode, 404);
    assert.equal((await call(staff.cookie, 'PATCH', `/api/staff/orgs/not-an-id/salaries/${zoe}`, { cadre: true })).statusCode, 404);
    const refused = await call(admin.cookie, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${zoe}`, { cadre: true });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
  });
});
