/** `/staff/contrats` and the staff's contract workspace, read over HTTP. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';

const XSS = '<img src=x onerror=alert(1)>';

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, XSS, 'CLU002');
  const agent = await member(app, db, soleil, 'agent@soleil.example', 'AGENT');
  const admin = await member(app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const lumiereAgent = await member(app, db, lumiere, 'agent@lumiere.example', 'AGENT');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const call = (who: Person, method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload ? { payload } : {}) });
  const make = async (who: Person, first: string, body: object) => {
    const employee = (await call(who, 'POST', '/api/salaries', { first_name: first, last_name: 'Test' })).json().id;
    return (await call(who, 'POST', '/api/contrats', { employee_id: employee, ...body })).json();
  };
  const soleilContract = await make(agent, 'Hélène', {
    kind: 'CDDU',
    show_title: 'Le Soleil',
    start_date: '2026-12-01',
    end_date: '2026-12-07',
    dates: [{ date: '2026-12-04', nature: 'representation', quantity: 1, amount: '450' }],
  });
  const lumiereContract = await make(lumiereAgent, 'Léonie', { kind: 'CDI', start_date: '2027-01-04', monthly_gross: '2100' });
  return { app, soleil, lumiere, agent, admin, staff, call, soleilContract, lumiereContract };
}

const gridIds = (body: string) => [...body.matchAll(/<tr data-contract-id="([^"]+)"/g)].map((m) => m[1]);

describe('GET /staff/contrats', () => {
  it("should list every organization's contracts, filter by organization, and link each to its organization", async (t) => {
    const { soleil, staff, call, soleilContract, lumiereContract } = await setup(t);
    const all = await call(staff, 'GET', '/staff/contrats');
    assert.equal(all.statusCode, 200);
    assert.deepEqual(gridIds(all.body), [lumiereContract.id, soleilContract.id]);
    assert.ok(all.body.includes(`<a href="/staff/contrats/${soleilContract.id}">${soleilContract.contract_number}</a>`));
    assert.ok(all.body.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!all.body.includes(XSS));
    assert.ok(!all.body.includes('id="new-contract"'), 'staff create contracts in an organization, from /contrats');
    const one = await call(staff, 'GET', `/staff/contrats?org_id=${soleil}&limit=50`);
    assert.deepEqual(gridIds(one.body), [soleilContract.id]);
    const next = await call(staff, 'GET', '/staff/contrats?limit=1');
    assert.deepEqual(gridIds(next.body), [lumiereContract.id]);
    const cursor = /id="next-page" href="([^"]+)"/.exec(next.body)![1]!.replace(/&amp;/g, '&');
    assert.deepEqual(gridIds((await call(staff, 'GET', cursor)).body), [soleilContract.id]);
    const bad = await call(staff, 'GET', '/staff/contrats?org_id=nope');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /L&#39;organisation|L'organisation/);
  });

  it('should be refused to clients', async (t) => {
    const { admin, agent, call } = await setup(t);
    for (const who of [admin, agent]) assert.equal((await call(who, 'GET', '/staff/contrats')).statusCode, 403);
  });
});

describe('GET /contrats/{id} for staff', () => {
  it('should offer staff the signed PDF, the salaries in place and the history; the AGENT the avenant only', async (t) => {
    const { soleil, agent, staff, call, soleilContract } = await setup(t);
    const asStaff = await call(staff, 'GET', `/contrats/${soleilContract.id}`, undefined, { 'x-active-org-id': soleil });
    assert.equal(asStaff.statusCode, 200);
    assert.ok(asStaff.body.includes('<a href="/staff/contrats">← Tous les contrats</a> · <a href="/contrats">Contrats de Théâtre du Soleil</a>'));
    for (const part of [
      'id="signed-pdf"',
      'id="signed-file"',
      'id="confirm-delete-signed"',
      'id="salaries-form"',
      'id="salary-amount-1"',
      'id="avenant-form"',
      'id="contract-history"',
    ]) {
      assert.ok(asStaff.body.includes(part), part);
    }
    const asAgent = await call(agent, 'GET', `/contrats/${soleilContract.id}`);
    assert.ok(asAgent.body.includes('id="avenant-form"'));
    for (const part of ['id="signed-pdf"', 'id="salaries-form"', 'id="contract-history"', 'staff@ops.example']) {
      assert.ok(!asAgent.body.includes(part), part);
    }
  });
});
