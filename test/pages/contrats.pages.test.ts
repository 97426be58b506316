import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { NAV, navFor } from '../../src/pages/nav.ts';

const NBSP = '\u00a0';
const XSS = '<img src=x onerror=alert(1)>';

// One app for the file: each test makes its own organizations, people and contract, at address
// domains and employer keys of its own.
const suite = appPerSuite();
let tests = 0;

async function setup() {
  const { app, database } = suite();
  const db = database.db;
  const tag = `t${++tests}`;
  const orgId = await createOrg(db, 'Théâtre du Soleil', `TDS-${tag}`);
  const otherId = await createOrg(db, 'Compagnie Lumière', `CLU-${tag}`);
  const agent = await member(app, db, orgId, `agent@soleil-${tag}.example`, 'AGENT', { metadata: { first_name: 'Inès' } });
  const compta = await member(app, db, orgId, `compta@soleil-${tag}.example`, 'COMPTA');
  const outsider = await member(app, db, otherId, `agent@lumiere-${tag}.example`, 'AGENT');
  const call = (who: Person, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
  const helene = (await call(agent, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre', category: 'artiste' })).json().id as string;
  const contract = (
    await call(agent, 'POST', '/api/contrats', {
      employee_id: helene,
      kind: 'CDDU',
      job_title: 'Comédienne',
      show_title: XSS,
      idcc: '3090',
      start_date: '2027-03-01',
      end_date: '2027-03-31',
      dates: [
        { date: '2027-03-02', nature: 'repetition', quantity: 1, amount: '180' },
        { date: '2027-03-20', nature: 'representation', quantity: '2', amount: '1054.5' },
      ],
    })
  ).json();
  return { app, db, orgId, otherId, agent, compta, outsider, call, helene, contract, tag };
}

/** The `<tr data-contract-id>` rows of the grid, in page order. */
const gridIds = (body: string) => [...body.matchAll(/<tr data-contract-id="([^"]+)"/g)].map((m) => m[1]);

describe('GET /contrats', () => {
  it('should show an AGENT the grid in French: number, employee, period, total, status badge', async () => {
    const { agent, call, contract } = await setup();
    const res = await call(agent, 'GET', '/contrats');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.deepEqual(gridIds(res.body), [contract.id]);
    assert.ok(res.body.includes(`<a href="/contrats/${contract.id}">${contract.contract_number}</a>`));
    assert.ok(res.body.includes('Hélène Lefèvre'));
    assert.ok(res.body.includes('01/03/2027 → 31/03/2027'));
    assert.ok(res.body.includes(`1${NBSP}234,50${NBSP}€`), 'the total in French');
    assert.ok(res.body.includes('<span class="badge badge-contract-brouillon">Brouillon</span>'));
    assert.ok(!res.body.includes(XSS), 'the show title is escaped');
    assert.ok(res.body.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.match(res.body, /<nav class="main-nav" aria-label="Rubriques">/);
    assert.match(res.body, /<a href="\/contrats" aria-current="page">Contrats<\/a>/);
    // The grid has no script of its own: the banner's logout button still works.
    assert.match(res.body, /<script type="module" src="\/assets\/session\.js"><\/script>/);
  });

  it("should filter, search and page with the API's parameters, 200 per page at most", async () => {
    const { agent, call, helene, contract } = await setup();
    const cdi = (await call(agent, 'POST', '/api/contrats', { employee_id: helene, kind: 'CDI', start_date: '2027-05-01', monthly_gross: '2100' })).json();
    assert.deepEqual(gridIds((await call(agent, 'GET', '/contrats')).body), [cdi.id, contract.id], 'newest start first');
    assert.deepEqual(gridIds((await call(agent, 'GET', '/contrats?kind=CDI&status=&q=')).body), [cdi.id], 'empty form fields are no filter');
    assert.deepEqual(gridIds((await call(agent, 'GET', '/contrats?q=LEFEVRE+misérables')).body), [], 'every word must match');
    assert.deepEqual(gridIds((await call(agent, 'GET', `/contrats?q=${contract.contract_number.toLowerCase()}`)).body), [contract.id]);
    assert.deepEqual(gridIds((await call(agent, 'GET', '/contrats?to=2027-04-01')).body), [contract.id]);

    const first = await call(agent, 'GET', '/contrats?limit=1');
    assert.deepEqual(gridIds(first.body), [cdi.id]);
    const next = /id="next-page" href="([^"]+)"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(next, /^\/contrats\?limit=1&cursor=/);
    const second = await call(agent, 'GET', next);
    assert.deepEqual(gridIds(second.body), [contract.id]);
    assert.ok(!second.body.includes('id="next-page"'));
    assert.ok(second.body.includes('Première page'));

    const tooMany = await call(agent, 'GET', '/contrats?limit=201');
    assert.equal(tooMany.statusCode, 400);
    assert.ok(tooMany.body.includes('Le paramètre limit doit être un entier de 1 à 200.'));
    assert.deepEqual(gridIds(tooMany.body), []);
    assert.ok((await call(agent, 'GET', '/contrats')).body.includes('<option value="200">200 par page</option>'));
  });

  it('should answer as the API does to a role outside the contract set, and send a visitor to sign in', async () => {
    const { app, compta, call } = await setup();
    for (const url of ['/contrats', '/contrats/nouveau']) {
      const page = await call(compta, 'GET', url);
      const api = await call(compta, 'GET', '/api/contrats');
      assert.equal(page.statusCode, 403);
      assert.equal(page.statusCode, api.statusCode);
      assert.equal(page.body, api.body);
      assert.equal(page.body, 'Forbidden');
    }
    const visitor = await app.inject({ method: 'GET', url: '/contrats' });
    assert.equal(visitor.statusCode, 302);
    assert.equal(visitor.headers.location, '/login');
  });

  it('should tell staff without an organization to choose one (400 no_active_org, as the API)', async () => {
    const { app, db, tag } = await setup();
    const staff = await signedIn(app, db, `staff@ops-${tag}.example`, { staff: 'STAFF' });
    const res = await app.inject({ method: 'GET', url: '/contrats', headers: { cookie: staff.cookie } });
    assert.equal(res.statusCode, 400);
    assert.equal((await app.inject({ method: 'GET', url: '/api/contrats', headers: { cookie: staff.cookie } })).statusCode, 400);
    assert.match(res.body, /<h1 id="error-title">/);
  });
});

describe('GET /contrats/{id}', () => {
  it('should show the details, the dates in French with their total, the notes and the PDF actions', async () => {
    const { agent, call, contract } = await setup();
    await call(agent, 'POST', `/api/contrats/${contract.id}/notes`, { text: `Merci de vérifier\n${XSS}` });
    const res = await call(agent, 'GET', `/contrats/${contract.id}?cree=1`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(`<h1>Contrat <span class="nowrap">${contract.contract_number}</span></h1>`));
    assert.ok(res.body.includes('Brouillon créé.'));
    assert.ok(res.body.includes('du 01/03/2027 au 31/03/2027'));
    assert.ok(res.body.includes('<td data-label="Date" class="date">02/03/2027</td>'));
    assert.ok(res.body.includes('<td data-label="Nature">Répétition</td>'));
    assert.ok(res.body.includes(`<td data-label="Montant" class="amount">1${NBSP}054,50${NBSP}€</td>`));
    assert.ok(res.body.includes(`<strong id="gross-total">1${NBSP}234,50${NBSP}€</strong>`));
    assert.ok(res.body.includes('Total (2 dates)'));
    assert.ok(res.body.includes('Merci de vérifier\n&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(res.body.includes('id="generate-pdf"'));
    assert.ok(!res.body.includes('id="download-pdf"'), 'nothing to download yet');
    assert.ok(res.body.includes('id="submit-contract"'));
    assert.ok(res.body.includes(`href="/contrats/${contract.id}/modifier"`));
    assert.match(res.body, /<script type="module" src="\/assets\/contrat\.js"><\/script>/);

    await call(agent, 'POST', '/api/generate-contract-pdf', { contract_id: contract.id });
    await call(agent, 'POST', `/api/contrats/${contract.id}/submit`);
    const after = await call(agent, 'GET', `/contrats/${contract.id}`);
    assert.ok(after.body.includes('<span class="badge badge-contract-a_signer">À signer</span>'));
    assert.ok(after.body.includes('id="download-pdf"'));
    assert.ok(!after.body.includes('id="generate-pdf"'), 'the PDF to sign is not generated again');
    assert.ok(!after.body.includes('id="submit-contract"'));
    assert.ok(!after.body.includes('/modifier"'), 'only a draft is edited');
  });

  it("should answer 404 for another organization's contract, as for an unknown one", async () => {
    const { outsider, call, contract } = await setup();
    const foreign = await call(outsider, 'GET', `/contrats/${contract.id}`);
    const unknown = await call(outsider, 'GET', '/contrats/00000000-0000-4000-8000-000000000000');
    const junk = await call(outsider, 'GET', '/contrats/pas-un-id');
    for (const res of [foreign, unknown, junk]) {
      assert.equal(res.statusCode, 404);
      assert.ok(res.body.includes('Contrat introuvable.'));
      assert.ok(!res.body.includes('Lefèvre'));
    }
    assert.equal((await call(outsider, 'GET', `/contrats/${contract.id}/modifier`)).statusCode, 404);
  });
});

describe('GET /contrats/nouveau and /contrats/{id}/modifier', () => {
  it('should offer the employees, the kinds and the dates of the draft', async () => {
    const { agent, call, helene, contract } = await setup();
    const blank = await call(agent, 'GET', '/contrats/nouveau');
    assert.equal(blank.statusCode, 200);
    // The category rides on the option: a technician's new date lines start in hours.
    assert.ok(blank.body.includes(`<option value="${helene}" data-category="artiste">Lefèvre Hélène</option>`));
    assert.ok(blank.body.includes('Créer le brouillon'));
    assert.ok(blank.body.includes('Un technicien est payé à l’heure : nature « heures »'));
    const edit = await call(agent, 'GET', `/contrats/${contract.id}/modifier`);
    assert.equal(edit.statusCode, 200);
    assert.ok(edit.body.includes(`<option value="${helene}" data-category="artiste" selected>Lefèvre Hélène</option>`));
    assert.ok(edit.body.includes('value="1054,50"'), 'amounts as a French user types them');
    assert.ok(edit.body.includes('value="20/03/2027"'), 'dates as a French user types them');
    assert.ok(edit.body.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!edit.body.includes(XSS));
  });

  it('should refuse the form of a contract that is no longer a draft (409, as PATCH would)', async () => {
    const { agent, call, contract } = await setup();
    await call(agent, 'POST', `/api/contrats/${contract.id}/submit`);
    const res = await call(agent, 'GET', `/contrats/${contract.id}/modifier`);
    assert.equal(res.statusCode, 409);
    assert.ok(res.body.includes('Seul un contrat en brouillon peut être modifié.'));
  });
});

describe('the navigation bar', () => {
  it('should offer each role only the pages its gates open', () => {
    const hrefs = (role: string | null, staff = false) =>
      navFor({ isStaff: staff } as never, role ? { role: role as never, revoked: false } : undefined).map((e) => e.href);
    assert.deepEqual(hrefs('AGENT'), ['/contrats', '/paie', '/vos-acces']);
    assert.deepEqual(hrefs('ADMIN'), ['/contrats', '/paie', '/factures', '/vos-acces']);
    assert.deepEqual(hrefs('SUPER_ADMIN'), ['/contrats', '/paie', '/factures', '/vos-acces']);
    assert.deepEqual(hrefs('COMPTA'), ['/paie', '/factures', '/vos-acces']);
    assert.deepEqual(hrefs(null), ['/vos-acces']);
    assert.deepEqual(
      hrefs(null, true),
      NAV.filter((e) => !e.membersOnly).map((e) => e.href),
      'staff: their own entries, none of their twins',
    );
  });

  it('should show on /vos-acces what the role may open', async () => {
    const { agent, compta, call } = await setup();
    const agentPage = (await call(agent, 'GET', '/vos-acces')).body;
    assert.match(agentPage, /<a href="\/contrats">Contrats<\/a>/);
    assert.match(agentPage, /<a href="\/vos-acces" aria-current="page">Accès<\/a>/);
    const comptaPage = (await call(compta, 'GET', '/vos-acces')).body;
    assert.ok(!comptaPage.includes('href="/contrats"'));
  });
});
