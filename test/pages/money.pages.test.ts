/** `/paie` and `/factures` as the server renders them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite, build, type TestApp } from '../helper.ts';
import { createOrg, member, type Person } from '../support/fixtures.ts';
import { HOSTILE_NAME, moneyOrganizations } from '../support/money-fixtures.ts';
import { formatDateFr } from '../../src/format/french.ts';

const NBSP = '\u00a0';
const eur = (text: string) => `${text.replace(/ /g, NBSP)}${NBSP}€`;

async function organizations({ app, database }: TestApp) {
  const money = await moneyOrganizations(app, database.db, { hostileName: true });
  const get = (who: Person | null, url: string) => app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
  return { app, db: database.db, get, ...money };
}

// The organizations made once, on one app, for the tests that only read them; the test that adds
// invoices to them builds its own.
const suite = appPerSuite();
let shared: ReturnType<typeof organizations> | undefined;
const setup = () => (shared ??= organizations(suite()));

/** The `<tr data-…-id>` rows of a page, by id: each row's markup. */
function rows(body: string, kind: 'payslip' | 'invoice' | 'call' | 'transfer'): Map<string, string> {
  return new Map([...body.matchAll(new RegExp(`<tr data-${kind}-id="([^"]+)">([\\s\\S]*?)</tr>`, 'g'))].map((m) => [m[1]!, m[2]!]));
}
const rowIds = (body: string, kind: 'payslip' | 'invoice' | 'call' | 'transfer') => [...rows(body, kind).keys()];

describe('GET /paie', () => {
  it("should show the organization's payslips in French: period, employee, gross, net to pay, status, transfer, PDF", async () => {
    const { get, compta, payslips } = await setup();
    const res = await get(compta, '/paie');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(res.body.includes('<script type="module" src="/assets/pdf-button.js"></script>'));
    const list = rows(res.body, 'payslip');
    assert.deepEqual(new Set(list.keys()), new Set([payslips.heleneMarch, payslips.paulMarch, payslips.hostileMarch, payslips.heleneFebruary]));
    assert.equal(rowIds(res.body, 'payslip').at(-1), payslips.heleneFebruary, 'the newest period first');

    const helene = list.get(payslips.heleneMarch)!;
    assert.ok(helene.includes('<td data-label="Période" class="nowrap">mars 2027</td>'));
    assert.ok(helene.includes('<td data-label="Salarié" class="wrap">Hélène Lefèvre</td>'));
    assert.ok(helene.includes(`<td data-label="Brut" class="amount">${eur('3 000,00')}</td>`));
    assert.ok(helene.includes(`<td data-label="Net à payer" class="amount"><strong>${eur('2 345,67')}</strong></td>`));
    assert.ok(helene.includes('<span class="badge badge-active">Publié</span>'));
    assert.ok(helene.includes('<td data-label="Virement"><span class="muted">Aucun</span></td>'));
    assert.ok(helene.includes(`data-pdf-url="/api/payslips/${payslips.heleneMarch}/pdf-url"`));
    assert.ok(helene.includes('Télécharger le PDF<span class="visually-hidden"> du bulletin de mars 2027 d&#39;Hélène Lefèvre</span>'));

    const paul = list.get(payslips.paulMarch)!;
    assert.ok(paul.includes(`${eur('987,65')}`));
    assert.ok(paul.includes('<span class="badge badge-pending">En cours</span>'), 'its transfer batch is generated');
    assert.ok(paul.includes('<span class="muted">PDF pas encore disponible</span>'));
    assert.ok(!paul.includes('data-pdf-url'));
    assert.ok(list.get(payslips.heleneFebruary)!.includes('février 2027'));

    // A hostile name is text; another organization's payslip is never shown.
    assert.ok(!res.body.includes(HOSTILE_NAME));
    assert.ok(list.get(payslips.hostileMarch!)!.includes('Zoé &lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!res.body.includes('Léonie') && !res.body.includes(eur('8 888,88')));
    assert.match(res.body, /<a href="\/paie" aria-current="page">Paie<\/a>/);
    assert.match(res.body, /<p class="lead">Organisation : <strong>Théâtre du Soleil<\/strong><\/p>/);
  });

  it('should filter by period (MM/AAAA or AAAA-MM) and employee, and page with the keyset cursor', async () => {
    const { get, agent, payslips, employees } = await setup();
    assert.deepEqual(rowIds((await get(agent, '/paie?period=02%2F2027&employee_id=')).body, 'payslip'), [payslips.heleneFebruary]);
    assert.deepEqual(rowIds((await get(agent, '/paie?period=2027-02')).body, 'payslip'), [payslips.heleneFebruary]);
    const byEmployee = await get(agent, `/paie?employee_id=${employees.helene}`);
    assert.deepEqual(rowIds(byEmployee.body, 'payslip'), [payslips.heleneMarch, payslips.heleneFebruary]);
    assert.ok(byEmployee.body.includes(`<option value="${employees.helene}" selected>Lefèvre Hélène</option>`));
    const none = await get(agent, '/paie?period=01/2020');
    assert.deepEqual(rowIds(none.body, 'payslip'), []);
    assert.ok(none.body.includes('Aucun bulletin ne correspond à ces critères.'));
    assert.ok(none.body.includes('value="01/2020"'), 'the filter keeps what was typed');

    const refused = await get(agent, '/paie?period=13/2027');
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /<p class="status" data-kind="error" role="alert">[^<]*période[^<]*<\/p>/i);
    assert.deepEqual(rowIds(refused.body, 'payslip'), []);

    const first = await get(agent, '/paie?limit=3');
    assert.equal(rowIds(first.body, 'payslip').length, 3);
    const next = /id="next-page" href="([^"]+)"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(next, /^\/paie\?limit=3&cursor=/);
    const second = await get(agent, next);
    assert.deepEqual(rowIds(second.body, 'payslip'), [payslips.heleneFebruary]);
    assert.ok(second.body.includes('Première page') && !second.body.includes('id="next-page"'));
  });

  it('should say so when an organization has no payslip yet', async () => {
    const { app, db, get } = await setup();
    const empty = await createOrg(db, 'Ensemble Vide', 'ENV004');
    const comptaVide = await member(app, db, empty, 'compta@vide.example', 'COMPTA');
    const res = await get(comptaVide, '/paie');
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes('Aucun bulletin de paie pour le moment : ils s&#39;affichent ici dès que l&#39;équipe paie les publie.'));
    assert.ok(!res.body.includes('<table'), 'no empty table');
    const factures = await get(comptaVide, '/factures');
    for (const text of ['Aucune facture pour le moment.', 'Aucun appel de cotisations pour le moment.', 'Aucun virement de salaires pour le moment']) {
      assert.ok(factures.body.includes(text), text);
    }
  });
});

describe('GET /factures', () => {
  it('should show a COMPTA the invoices, contribution calls and transfers in French, never an IBAN', async () => {
    const { get, compta, invoices, contributionCall, transfer, executionDate } = await setup();
    const res = await get(compta, '/factures');
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes('<h1>Factures et paiements</h1>'));

    assert.deepEqual(rowIds(res.body, 'invoice'), [invoices.opening.id, invoices.march.id], 'by number, newest first');
    const march = rows(res.body, 'invoice').get(invoices.march.id)!;
    assert.equal(invoices.march.number, 'F-2026-000001');
    for (const cell of [
      '<td data-label="Numéro" class="nowrap">F-2026-000001</td>',
      '<td data-label="Objet">Paie mensuelle</td>',
      '<td data-label="Période" class="period">Mars 2026</td>',
      '<td data-label="Émise le" class="date">31/03/2026</td>',
      '<td data-label="Échéance" class="date">15/04/2026</td>',
      `<td data-label="Total TTC" class="amount"><strong>${eur('1 231,20')}</strong></td>`,
      `data-pdf-url="/api/factures/${invoices.march.id}/pdf-url"`,
    ])
      assert.ok(march.includes(cell), cell);
    const opening = rows(res.body, 'invoice').get(invoices.opening.id)!;
    assert.ok(opening.includes('Frais d&#39;ouverture') && opening.includes(eur('180,00')) && opening.includes('<span class="muted">—</span>'));

    assert.deepEqual(rowIds(res.body, 'call'), [contributionCall.id]);
    const call = rows(res.body, 'call').get(contributionCall.id)!;
    for (const cell of [
      '<td data-label="Période" class="nowrap">mars 2027</td>',
      '<td data-label="Échéance" class="date">15/04/2027</td>',
      `<li><span class="organism">Urssaf</span> <span class="amount">${eur('1 234,50')}</span></li>`,
      `<li><span class="organism">Audiens</span> <span class="amount">${eur('456,78')}</span></li>`,
      `<li><span class="organism">Congés Spectacles</span> <span class="amount">${eur('300,00')}</span></li>`,
      `<td data-label="Total" class="amount"><strong>${eur('1 991,28')}</strong></td>`,
      '<span class="badge badge-pending">À payer</span>',
    ])
      assert.ok(call.includes(cell), cell);

    assert.deepEqual(rowIds(res.body, 'transfer'), [transfer.id]);
    const batch = rows(res.body, 'transfer').get(transfer.id)!;
    for (const cell of [
      `<td data-label="Exécution" class="date">${formatDateFr(executionDate)}</td>`,
      '<td data-label="Salaires" class="amount">2 bulletins</td>',
      `<td data-label="Total" class="amount"><strong>${eur('3 288,75')}</strong></td>`,
      '<span class="badge badge-pending">En cours</span>',
    ])
      assert.ok(batch.includes(cell), cell);
    for (const iban of ['FR76', 'DE89', '3000 6000', '30006000', 'iban']) assert.ok(!res.body.toLowerCase().includes(iban.toLowerCase()), iban);

    // Nothing of another organization.
    for (const foreign of ['F-2026-000002', eur('11 999,99'), eur('7 777,77'), 'Afdas']) assert.ok(!res.body.includes(foreign), foreign);
    assert.match(res.body, /<a href="\/factures" aria-current="page">Factures<\/a>/);
  });

  it('should show each organization only its own, and an ADMIN the same page', async () => {
    const { get, admin, lumiereCompta, invoices, payslips } = await setup();
    assert.deepEqual(rowIds((await get(admin, '/factures')).body, 'invoice'), [invoices.opening.id, invoices.march.id]);
    const theirs = await get(lumiereCompta, '/factures');
    assert.deepEqual(rowIds(theirs.body, 'invoice'), [invoices.lumiere.id]);
    assert.ok(theirs.body.includes(eur('11 999,99')) && theirs.body.includes('Afdas') && theirs.body.includes(eur('7 777,77')));
    assert.deepEqual(rowIds(theirs.body, 'transfer'), []);
    const paie = await get(lumiereCompta, '/paie');
    assert.deepEqual(rowIds(paie.body, 'payslip'), [payslips.leonieMarch]);
    assert.ok(!paie.body.includes('Hélène'));
  });

  it('should answer as the API does: 403 Forbidden to an AGENT, the sign-in page to a visitor', async () => {
    const { get, agent, compta } = await setup();
    const page = await get(agent, '/factures');
    const api = await get(agent, '/api/factures');
    assert.equal(page.statusCode, 403);
    assert.equal(page.body, 'Forbidden');
    assert.equal(page.body, api.body);
    assert.equal((await get(agent, '/paie')).statusCode, 200, 'payslips are in the read set');
    for (const url of ['/paie', '/factures']) {
      const visitor = await get(null, url);
      assert.equal(visitor.statusCode, 302);
      assert.equal(visitor.headers.location, '/login');
    }
    const agentNav = (await get(agent, '/paie')).body;
    assert.ok(agentNav.includes('<a href="/paie" aria-current="page">Paie</a>'));
    assert.ok(!agentNav.includes('href="/factures"'), 'an AGENT is not offered the invoices');
    const comptaNav = (await get(compta, '/paie')).body;
    assert.ok(comptaNav.includes('<a href="/factures">Factures</a>') && !comptaNav.includes('href="/contrats"'));
  });

  it('should page each section on its own cursor and show a broken one in its section only (400)', async (t) => {
    const { get, call, staff, soleil, compta, invoices, contributionCall } = await organizations(await build(t));
    const broken = await get(compta, '/factures?cursor_factures=nope');
    assert.equal(broken.statusCode, 400);
    assert.match(
      broken.body,
      /<section class="card" id="invoices"[^>]*>\s*<h2[^>]*>Factures<\/h2>\s*<p class="status" data-kind="error" role="alert">Curseur de pagination invalide/,
    );
    assert.deepEqual(rowIds(broken.body, 'call'), [contributionCall.id], 'the other sections are shown');
    assert.deepEqual(rowIds(broken.body, 'invoice'), []);

    // 50 more invoices: the section shows the API's default page (50), then the rest.
    const lines = [{ label: 'Prestation', quantity: '1', unit_price: '10', vat_rate: '20' }];
    await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
      invoice_type: 'prestation',
      payment_method: 'virement',
      issue_date: '2026-05-03',
      invoices: Array.from({ length: 50 }, () => ({ org_id: soleil, lines })),
    });
    const first = await get(compta, '/factures');
    assert.equal(rowIds(first.body, 'invoice').length, 50);
    assert.ok(first.body.includes('<td data-label="Échéance" class="date">02/06/2026</td>'), 'due 30 days after issue by default');
    const next = /id="invoices-next" href="([^"]+)"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(next, /^\/factures\?cursor_factures=[^&#]+#invoices$/);
    const second = await get(compta, next.replace(/#.*$/, ''));
    assert.deepEqual(rowIds(second.body, 'invoice'), [invoices.opening.id, invoices.march.id]);
    assert.deepEqual(rowIds(second.body, 'call'), [contributionCall.id], 'the other sections stay on their first page');
  });
});
