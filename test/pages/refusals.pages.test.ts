import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { homeOf, NAV } from '../../src/pages/nav.ts';
import { totalLabel } from '../../src/pages/contrats.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

// One app for the file: each test makes its own organization and people, at an address domain of
// its own.
const suite = appPerSuite();
let tests = 0;

async function setup() {
  const { app, database } = suite();
  const db = database.db;
  const tag = `t${++tests}`;
  const at = (local: string) => `${local}@planches-${tag}.example`;
  const orgId = await createOrg(db, 'Atelier des Planches', `ADP-${tag}`);
  const admin = await member(app, db, orgId, at('admin'), 'ADMIN');
  const agent = await member(app, db, orgId, at('agent'), 'AGENT');
  const compta = await member(app, db, orgId, at('compta'), 'COMPTA');
  const revoked = await member(app, db, orgId, at('ancien'), 'AGENT', { revoked: true });
  const staff = await signedIn(app, db, `staff@ops-${tag}.example`, { staff: 'STAFF' });
  const get = (who: Person | null, url: string, accept?: string) =>
    app.inject({ method: 'GET', url, headers: { ...(who ? { cookie: who.cookie } : {}), ...(accept ? { accept } : {}) } });
  return { app, db, orgId, admin, agent, compta, revoked, staff, get, at };
}

/** The hrefs of the navigation bar. */
const navHrefs = (body: string) => [...(/<nav class="main-nav"[\s\S]*?<\/nav>/.exec(body)?.[0] ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe('a refused page (403), browser and API', () => {
  it('should show a browser a French page in the layout, the bar of what the role opens and a way back, with 403 kept', async () => {
    const { get, agent, compta, at } = await setup();
    const asCompta = await get(compta, '/contrats', BROWSER);
    assert.equal(asCompta.statusCode, 403);
    assert.equal(asCompta.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(asCompta.headers['cache-control'], 'no-store');
    assert.match(asCompta.body, /<title>Accès refusé · Espace paie<\/title>/);
    assert.match(asCompta.body, /<h1 id="refusal-title">Vous n'avez pas accès à cette page<\/h1>/);
    assert.ok(asCompta.body.includes("Votre rôle dans <strong>Atelier des Planches</strong> (Comptabilité) ne permet pas d'ouvrir cette page."));
    assert.deepEqual(navHrefs(asCompta.body), ['/paie', '/factures', '/vos-acces']);
    assert.ok(asCompta.body.includes('<a class="button" id="refusal-home" href="/factures">Aller aux factures et paiements</a>'));
    assert.match(asCompta.body, /<a class="brand" href="\/">Espace paie<\/a>/);
    assert.ok(asCompta.body.includes(`Connecté : <strong>${at('compta')}</strong>`));

    const asAgent = await get(agent, '/factures', BROWSER);
    assert.equal(asAgent.statusCode, 403);
    assert.ok(asAgent.body.includes("(Agent) ne permet pas d'ouvrir cette page."));
    assert.deepEqual(navHrefs(asAgent.body), ['/contrats', '/paie', '/vos-acces']);
    assert.ok(asAgent.body.includes('<a class="button" id="refusal-home" href="/contrats">Aller aux contrats</a>'));

    // A staff-only page refused to a client: the same page.
    const staffPage = await get(agent, '/staff/facturation', BROWSER);
    assert.equal(staffPage.statusCode, 403);
    assert.match(staffPage.body, /Vous n'avez pas accès à cette page/);
  });

  it('should keep docs/api.md for the API and for a client that does not ask for HTML: plain Forbidden', async () => {
    const { get, compta, agent } = await setup();
    for (const [who, url] of [
      [compta, '/api/contrats'],
      [agent, '/api/factures'],
      [agent, '/api/staff/facturation'],
    ] as const) {
      const api = await get(who, url, BROWSER);
      assert.equal(api.statusCode, 403, url);
      assert.equal(api.body, 'Forbidden');
      assert.match(String(api.headers['content-type']), /^text\/plain/);
    }
    const curl = await get(compta, '/contrats');
    assert.equal(curl.statusCode, 403);
    assert.equal(curl.body, 'Forbidden');
    const json = await get(compta, '/contrats', 'application/json');
    assert.equal(json.body, 'Forbidden');
  });

  it('should tell a revoked member their access was withdrawn, and lead them to their accesses', async () => {
    const { get, revoked } = await setup();
    const res = await get(revoked, '/contrats', BROWSER);
    assert.equal(res.statusCode, 403);
    assert.ok(res.body.includes('Votre accès à <strong>Atelier des Planches</strong> a été révoqué'));
    assert.deepEqual(navHrefs(res.body), ['/vos-acces']);
    assert.ok(res.body.includes('href="/vos-acces">Aller à vos accès</a>'));
  });

  it('should still send a visitor to the sign-in page, and /staff/equipe to /vos-acces', async () => {
    const { get, agent } = await setup();
    const visitor = await get(null, '/contrats', BROWSER);
    assert.equal(visitor.statusCode, 302);
    assert.equal(visitor.headers.location, '/login');
    const team = await get(agent, '/staff/equipe', BROWSER);
    assert.equal(team.statusCode, 302);
    assert.equal(team.headers.location, '/vos-acces');
  });
});

describe('a module page opened by staff before choosing an organization (400 no_active_org)', () => {
  it('should show the switcher in the layout with the bar, the page asked for named, and 400 kept', async () => {
    const { get, staff } = await setup();
    for (const [url, name] of [
      ['/paie', 'Paie'],
      ['/contrats', 'Contrats'],
      ['/factures', 'Factures'],
    ] as const) {
      const res = await get(staff, url, BROWSER);
      assert.equal(res.statusCode, 400, url);
      assert.match(res.body, /<h1 id="refusal-title">Choisissez une organisation<\/h1>/);
      assert.ok(res.body.includes(`La page « ${name} » montre les données d'une organisation.`));
      assert.match(res.body, /<input id="org-search" type="text" role="combobox"/);
      assert.match(res.body, /<script type="module" src="\/assets\/choose-org\.js"><\/script>/);
      assert.deepEqual(
        navHrefs(res.body),
        NAV.filter((e) => !e.membersOnly).map((e) => e.href),
        'staff: every staff page in the bar',
      );
      // The client page is highlighted through staff's entry of the same name.
      assert.match(res.body, new RegExp(`<a href="/staff/${url === '/factures' ? 'facturation' : url.slice(1)}" aria-current="page">`));
      assert.equal(res.body.match(/aria-current="page"/g)?.length, 1);
      assert.ok(!res.body.includes('Réessayer'));
    }
    const api = await get(staff, '/api/contrats', BROWSER);
    assert.equal(api.statusCode, 400);
    assert.equal(api.json().error, 'no_active_org');
  });

  it('should tell a member without any organization that they have none', async () => {
    const { app, db, get } = await setup();
    const nobody = await signedIn(app, db, `personne@${tests}.example.com`);
    const res = await get(nobody, '/paie', BROWSER);
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /Aucune organisation active/);
    assert.deepEqual(navHrefs(res.body), ['/vos-acces']);
  });
});

describe('GET / and the landing page of each role', () => {
  it('should send each role to the page it works in', async () => {
    const { get, admin, agent, compta, revoked, staff } = await setup();
    const landing = async (who: Person | null) => (await get(who, '/', BROWSER)).headers.location;
    assert.equal(await landing(admin), '/contrats');
    assert.equal(await landing(agent), '/contrats');
    assert.equal(await landing(compta), '/factures');
    assert.equal(await landing(staff), '/staff/organisations');
    assert.equal(await landing(revoked), '/vos-acces');
    assert.equal(await landing(null), '/login');
    assert.equal((await get(compta, '/login', BROWSER)).headers.location, '/');
  });

  it('should pick the first home page the bar offers', () => {
    const at = (...hrefs: string[]) => homeOf(NAV.filter((e) => hrefs.includes(e.href)));
    assert.equal(at('/paie', '/factures', '/vos-acces'), '/factures');
    assert.equal(at('/vos-acces'), '/vos-acces');
    assert.equal(at(), '/vos-acces');
  });
});

describe('/activate', () => {
  it('should tell its script who is signed in, so that it never asks GET /api/me (401 to a visitor)', async () => {
    const { get, agent, at } = await setup();
    assert.match((await get(null, '/activate', BROWSER)).body, /id="activate" data-signed-in-as=""/);
    assert.ok((await get(agent, '/activate', BROWSER)).body.includes(`id="activate" data-signed-in-as="${at('agent')}"`));
  });
});

describe('wording', () => {
  it('should count the days of a contract, not its lines', () => {
    assert.equal(totalLabel([{ date: '2027-03-02' }, { date: '2027-03-20' }]), 'Total (2 dates)');
    assert.equal(totalLabel([{ date: '2027-03-02' }]), 'Total (1 date)');
    assert.equal(totalLabel([{ date: '2027-03-02' }, { date: '2027-03-02' }, { date: '2027-03-03' }, { date: '2027-03-03' }]), 'Total (2 dates, 4 lignes)');
  });

  it('should say "obligatoire" for a missing field, never "requis(e)"', async () => {
    const { app, agent } = await setup();
    const res = await app.inject({ method: 'POST', url: '/api/contrats', headers: { cookie: agent.cookie }, payload: { kind: 'CDDU' } });
    assert.equal(res.statusCode, 400);
    assert.doesNotMatch(res.json().message, /requis/);
    assert.match(res.json().message, / est obligatoire\.$/);
  });
});

describe('wording on the pages', () => {
  it('should offer no "Générer le PDF" on a signed contract, and say "Total" once on a phone', async () => {
    const { app, db, agent } = await setup();
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: { cookie: agent.cookie }, ...(payload ? { payload } : {}) });
    const employee = (await call('POST', '/api/salaries', { first_name: 'Élodie', last_name: 'Martin' })).json().id as string;
    const contract = (
      await call('POST', '/api/contrats', {
        employee_id: employee,
        kind: 'CDDU',
        job_title: 'Comédienne',
        show_title: 'Ondine',
        idcc: '3090',
        start_date: '2027-03-01',
        end_date: '2027-03-31',
        dates: [
          { date: '2027-03-02', nature: 'repetition', quantity: 1, amount: '180' },
          { date: '2027-03-02', nature: 'representation', quantity: 1, amount: '300' },
        ],
      })
    ).json();
    const draft = await call('GET', `/contrats/${contract.id}`);
    assert.ok(draft.body.includes('id="generate-pdf"'));
    assert.ok(draft.body.includes('<th scope="row" colspan="3">Total (1 date, 2 lignes)</th><td class="amount">'), 'no second "Total" label on a phone');
    await db.updateTable('contracts').set({ status: 'signe' }).where('id', '=', contract.id).execute();
    const signed = await call('GET', `/contrats/${contract.id}`);
    assert.equal(signed.statusCode, 200);
    assert.ok(!signed.body.includes('id="generate-pdf"'), 'a signed contract is not generated again');
  });

  it('should elide "de" before a vowel in what the pages write', async () => {
    const { get, admin, at } = await setup();
    const page = await get(admin, '/vos-acces', BROWSER);
    assert.ok(page.body.includes('<h2 id="members-title" class="wrap" tabindex="-1">Membres d&#39;Atelier des Planches</h2>'));
    assert.ok(page.body.includes(`>Rôle d&#39;${at('agent')}</label>`));
  });
});
