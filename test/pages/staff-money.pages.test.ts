/**
 * The staff's money pages: `/staff/facturation`, `/staff/virements`, and
 * `/staff/contrats/{id}` (the contract-note e-mail's link), as the server renders them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IBAN, inDays, setup } from '../payslips/support.ts';
import { NAV, currentEntry, navFor } from '../../src/pages/nav.ts';
import { formatDateFr } from '../../src/format/french.ts';

const NBSP = '\u00a0';
const XSS = '<img src=x onerror=alert(1)>';
const XSS_TEXT = '&lt;img src=x onerror=alert(1)&gt;';

/** The payroll of test/payslips/support.ts, the second organization renamed to a hostile name, and three invoices. */
async function money(t: Parameters<typeof setup>[0]) {
  const ctx = await setup(t);
  const { db, call, staff, soleil, lumiere } = ctx;
  await db.updateTable('organizations').set({ name: XSS }).where('id', '=', lumiere).execute();
  const created = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
    invoice_type: 'paie_mensuelle',
    payment_method: 'prelevement',
    period_label: 'mars 2026',
    issue_date: '2026-03-12',
    due_date: '2026-04-11',
    invoices: [
      {
        org_id: soleil,
        lines: [
          { label: 'Gestion de la paie', quantity: 12, unit_price: '85.00', vat_rate: '20' },
          { label: 'Frais', quantity: 1, unit_price: '214.58', vat_rate: '20' },
        ],
      },
      { org_id: lumiere, lines: [{ label: 'Gestion de la paie', quantity: 1, unit_price: '100', vat_rate: '20' }] },
    ],
  });
  assert.equal(created.statusCode, 201, created.body);
  const opening = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
    invoice_type: 'frais_ouverture',
    payment_method: 'virement',
    issue_date: '2026-03-15',
    invoices: [{ org_id: soleil, lines: [{ label: 'Ouverture du dossier', quantity: 1, unit_price: '150', vat_rate: '20' }] }],
  });
  const [march, hostile] = created.json().created as Array<{ id: string; number: string }>;
  const openingInvoice = opening.json().created[0] as { id: string; number: string };
  return { ...ctx, march: march!, hostile: hostile!, opening: openingInvoice };
}

/** One table of a page, by its id. */
const tableOf = (body: string, id: string) => new RegExp(`<table[^>]* id="${id}"[\\s\\S]*?</table>`).exec(body)?.[0] ?? '';

/** The ids of the rows carrying `attribute`, in page order. */
const rowIds = (body: string, attribute: string) => [...body.matchAll(new RegExp(`<tr ${attribute}="([^"]+)"`, 'g'))].map((m) => m[1]);

/** The text of the cells labelled `label`, in page order, tags removed. */
const cells = (body: string, label: string) =>
  [...body.matchAll(new RegExp(`<td data-label="${label}"[^>]*>([\\s\\S]*?)</td>`, 'g'))].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/[ \t\n\r]+/g, ' ')
      .trim(),
  );

describe('GET /staff/facturation', () => {
  it("should list every organization's invoices in French: number, organization, type, period, date, total TTC, notified", async (t) => {
    const { call, staff, march, hostile, opening } = await money(t);
    const res = await call(staff, 'GET', '/staff/facturation');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.deepEqual(rowIds(res.body, 'data-invoice-id'), [opening.id, hostile.id, march.id], 'newest number first');
    assert.deepEqual(cells(res.body, 'Numéro'), [opening.number, hostile.number, march.number]);
    assert.deepEqual(cells(res.body, 'Type'), ['Frais d&#39;ouverture', 'Paie mensuelle', 'Paie mensuelle']);
    assert.deepEqual(cells(res.body, 'Période'), ['—', 'mars 2026', 'mars 2026']);
    assert.deepEqual(cells(res.body, 'Émise le'), ['15/03/2026', '12/03/2026', '12/03/2026']);
    // 12 × 85 + 214,58 = 1 234,58 HT; 246,92 VAT (20 %).
    assert.deepEqual(cells(res.body, 'Total TTC'), [`180,00${NBSP}€`, `120,00${NBSP}€`, `1${NBSP}481,50${NBSP}€`]);
    assert.deepEqual(cells(res.body, 'Notifiée'), ['Non', 'Non', 'Non']);
    assert.ok(!res.body.includes(XSS), 'the organization name is escaped');
    assert.equal(cells(res.body, 'Organisation')[1], XSS_TEXT);
    assert.match(res.body, /<input type="checkbox" id="select-all">/);
    assert.ok(res.body.includes(`data-pdf-url="/api/staff/facturation/${march.id}/pdf-url"`), 'each invoice links to its PDF');
    assert.match(res.body, /<button type="button" class="button" id="notify-selected">Notifier la sélection<\/button>/);
    assert.match(res.body, /<script type="module" src="\/assets\/staff-facturation.js"><\/script>/);
    assert.match(res.body, /<a href="\/staff\/facturation" aria-current="page">Facturation<\/a>/);
  });

  it('should filter by notified, organization and type, and page by 200 at most', async (t) => {
    const { app, call, staff, soleil, march, hostile, opening } = await money(t);
    const notify = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [march.id] });
    assert.deepEqual(notify.json(), { notified: [], waiting: [], skipped: [{ id: march.id, reason: 'no_recipient' }] });
    await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { email_notifs: ['compta@soleil.example'] });
    // Announced once its document, made by its job, exists.
    assert.deepEqual((await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [march.id] })).json().waiting, [march.id]);
    await app.jobs.worker.runDue();

    const notified = await call(staff, 'GET', '/staff/facturation?notified=true');
    assert.deepEqual(rowIds(notified.body, 'data-invoice-id'), [march.id]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    assert.deepEqual(cells(notified.body, 'Notifiée'), [`Oui, le ${formatDateFr(today)}`]);
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/facturation?notified=false&org_id=&invoice_type=')).body, 'data-invoice-id'), [
      opening.id,
      hostile.id,
    ]);
    assert.deepEqual(rowIds((await call(staff, 'GET', `/staff/facturation?org_id=${soleil}&invoice_type=paie_mensuelle`)).body, 'data-invoice-id'), [march.id]);
    const filtered = await call(staff, 'GET', `/staff/facturation?org_id=${soleil}`);
    assert.match(filtered.body, new RegExp(`<option value="${soleil}" selected>Théâtre du Soleil \\(TDS001\\)</option>`));

    const first = await call(staff, 'GET', '/staff/facturation?limit=2');
    assert.deepEqual(rowIds(first.body, 'data-invoice-id'), [opening.id, hostile.id]);
    const next = /id="next-page" href="([^"]+)"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(next, /^\/staff\/facturation\?limit=2&cursor=/);
    assert.deepEqual(rowIds((await call(staff, 'GET', next)).body, 'data-invoice-id'), [march.id]);

    const refused = await call(staff, 'GET', '/staff/facturation?limit=201');
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /Le paramètre limit doit être un entier de 1 à 200\./);
    assert.equal((await call(staff, 'GET', '/staff/facturation?notified=peut-etre')).statusCode, 400);
  });
});

describe('GET /staff/virements', () => {
  it('should list the payable payslips (IBAN as •••• 1234) and every batch with French statuses', async (t) => {
    const { db, call, staff, soleil, lumiere, helene, marc, zoe, leonie, autonome, autonomeEmployee, payslip, batch, employee, agent } = await money(t);
    // The API refuses such a name; one from elsewhere (an import, an older version) is still shown as text.
    const hostileEmployee = await employee(agent, 'Jean', 'Durand', IBAN.other);
    await db.updateTable('employees').set({ first_name: XSS }).where('id', '=', hostileEmployee).execute();
    const h = await payslip(soleil, helene, '2027-03', '2104.50');
    const m = await payslip(soleil, marc, '2027-03', '1830.00');
    await payslip(soleil, zoe, '2027-03', '1500.00'); // no IBAN: not payable
    const x = await payslip(soleil, hostileEmployee, '2027-02', '99.99');
    const l = await payslip(lumiere, leonie, '2027-03', '1234.50');
    await payslip(autonome, autonomeEmployee, '2027-03', '900.00'); // the organization pays its salaries itself

    const paid = await batch([await payslip(soleil, marc, '2027-01', '99.99')], inDays(0));
    assert.equal(paid.statusCode, 201, paid.body);

    const res = await call(staff, 'GET', '/staff/virements');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(rowIds(res.body, 'data-payslip-id'), [l, x, m, h], 'by organization name, then period, then name');
    const available = tableOf(res.body, 'payslip-table');
    assert.deepEqual(cells(available, 'Salarié'), ['Léonie Faure', `${XSS_TEXT} Durand`, 'Marc Dupont', 'Hélène Lefèvre']);
    assert.deepEqual(cells(available, 'IBAN'), ['•••• 2606', '•••• 7034', '•••• 3000', '•••• 0189']);
    assert.deepEqual(cells(available, 'Période'), ['mars 2027', 'février 2027', 'mars 2027', 'mars 2027']);
    assert.deepEqual(cells(available, 'Net à payer'), [`1${NBSP}234,50${NBSP}€`, `99,99${NBSP}€`, `1${NBSP}830,00${NBSP}€`, `2${NBSP}104,50${NBSP}€`]);
    assert.equal(cells(available, 'Organisation')[0], XSS_TEXT);
    // What the list leaves out, and why, with where to fix it.
    const unpayable = tableOf(res.body, 'unpayable-table');
    assert.deepEqual(cells(unpayable, 'Salarié'), ['Paul Autonome', 'Zoé Bernard']);
    assert.deepEqual(cells(unpayable, 'Raison'), ['L&#39;organisation paie elle-même ses salaires', 'Aucun IBAN pour ce salarié']);
    assert.ok(unpayable.includes(`<a href="/staff/organisations/${autonome}">Modifier le mode de virement`));
    assert.ok(unpayable.includes(`<a href="/staff/organisations/${soleil}">Saisir l&#39;IBAN du salarié`));
    assert.ok(!res.body.includes(XSS), 'organization and employee names are escaped');
    assert.ok(res.body.includes(`<tr data-payslip-id="${l}" data-org-id="${lumiere}" data-org-name="${XSS_TEXT}" data-period="2027-03">`));
    assert.match(res.body, /<button type="submit" class="button" id="create-transfer">Créer le virement<\/button>/);

    // The batch list: its reference, organization, execution date, count, total and status.
    assert.deepEqual(rowIds(res.body, 'data-batch-id'), [paid.json().id]);
    assert.deepEqual(cells(res.body, 'Exécution'), [formatDateFr(inDays(0))]);
    assert.deepEqual(cells(res.body, 'Total'), [`99,99${NBSP}€`]);
    assert.deepEqual(cells(res.body, 'Statut'), ['Généré']);
    assert.match(res.body, /Marquer exécuté<span class="visually-hidden"> : lot VIR-\d{4}-000001<\/span>/);

    // Filters: organization, and the period as a French user types it.
    assert.deepEqual(rowIds((await call(staff, 'GET', `/staff/virements?org_id=${soleil}`)).body, 'data-payslip-id'), [x, m, h]);
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/virements?period=02/2027')).body, 'data-payslip-id'), [x]);
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/virements?period=3/2027&org_id=')).body, 'data-payslip-id'), [l, m, h]);
    const wrong = await call(staff, 'GET', '/staff/virements?period=mars');
    assert.equal(wrong.statusCode, 400);

    // Executed, then cancelled ones: French labels, and no action left but the file.
    await call(staff, 'POST', `/api/staff/virements/${paid.json().id}/executed`);
    const cancelled = (await batch([h])).json();
    await call(staff, 'POST', `/api/staff/virements/${cancelled.id}/cancel`);
    const after = await call(staff, 'GET', '/staff/virements');
    assert.deepEqual(cells(after.body, 'Statut').sort(), ['Annulé', 'Exécuté']);
    assert.ok(!after.body.includes('data-action="executed"'));
    assert.ok(!after.body.includes(`data-sepa="${cancelled.id}"`), 'a cancelled batch has no file');
    assert.ok(after.body.includes(`data-sepa="${paid.json().id}"`));
  });

  it('should show the batch just made (?lot=): count, total, execution date and its file', async (t) => {
    const { call, staff, soleil, helene, marc, payslip, batch } = await money(t);
    const made = (await batch([await payslip(soleil, helene, '2027-03', '2104.50'), await payslip(soleil, marc, '2027-03', '1830.00')], inDays(5))).json();
    const res = await call(staff, 'GET', `/staff/virements?lot=${made.id}`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`<h2 id="created-title" tabindex="-1">Lot ${made.reference} créé</h2>`));
    assert.match(
      res.body,
      new RegExp(
        `Théâtre du Soleil : 2 virements, total <strong>3${NBSP}934,50${NBSP}€</strong>, exécution le ${formatDateFr(inDays(5)).replaceAll('/', '\\/')}\\.`,
      ),
    );
    assert.match(res.body, new RegExp(`data-sepa="${made.id}" data-reference="${made.reference}" id="created-download">Télécharger le fichier SEPA \\(XML\\)`));
    assert.ok(!(await call(staff, 'GET', '/staff/virements?lot=nope')).body.includes('id="created"'));
  });

  it('should work for staff without an active organization', async (t) => {
    const { call, staff, db } = await money(t);
    assert.equal(
      (await db.selectFrom('staff_settings').select('active_org_id').where('user_id', '=', staff.userId).executeTakeFirst())?.active_org_id ?? null,
      null,
    );
    assert.equal((await call(staff, 'GET', '/staff/virements')).statusCode, 200);
    assert.equal((await call(staff, 'GET', '/staff/facturation')).statusCode, 200);
  });
});

describe('staff pages: who may open them', () => {
  it('should answer a client ADMIN, COMPTA or AGENT as the API does (403 Forbidden), and send no session to /login', async (t) => {
    const { app, call, admin, compta, agent } = await money(t);
    for (const who of [admin, compta, agent]) {
      for (const url of ['/staff/facturation', '/staff/virements', '/staff/contrats/00000000-0000-4000-8000-000000000000']) {
        const res = await call(who, 'GET', url);
        assert.equal(res.statusCode, 403, `${who.email} ${url}`);
        assert.equal(res.body, 'Forbidden');
      }
      assert.equal((await call(who, 'GET', '/api/staff/facturation')).statusCode, 403);
    }
    const anonymous = await app.inject({ method: 'GET', url: '/staff/facturation' });
    assert.equal(anonymous.statusCode, 302);
    assert.equal(anonymous.headers.location, '/login');
  });

  it("should offer the staff pages in the bar to staff only, in the month's order", async (t) => {
    const { call, staff, admin } = await money(t);
    const staffOnly = NAV.filter((e) => e.gate === 'staff').map((e) => [e.href, e.label]);
    assert.deepEqual(staffOnly, [
      ['/staff/organisations', 'Organisations'],
      ['/staff/contrats', 'Contrats'],
      ['/staff/paie', 'Paie'],
      ['/staff/virements', 'Virements'],
      ['/staff/cotisations', 'Cotisations'],
      ['/staff/facturation', 'Facturation'],
      ['/staff/travaux', 'Travaux en échec'],
      ['/staff/equipe', 'Équipe interne'],
      ['/staff/operateur', 'Opérateur'],
    ]);
    assert.deepEqual(
      navFor({ isStaff: false } as never, { role: 'ADMIN', revoked: false }).map((e) => e.label),
      ['Contrats', 'Paie', 'Factures', 'Accès'],
    );
    // Staff: each name once, none of the client pages' twins.
    const staffBar = navFor({ isStaff: true } as never, undefined).map((e) => e.label);
    assert.deepEqual(staffBar, [
      'Organisations',
      'Contrats',
      'Paie',
      'Virements',
      'Cotisations',
      'Facturation',
      'Travaux en échec',
      'Accès',
      'Équipe interne',
      'Opérateur',
    ]);
    assert.equal(new Set(staffBar).size, staffBar.length);
    // One entry highlighted, the one the page belongs to, wherever staff are.
    for (const [path, label] of [
      ['/staff/contrats/00000000-0000-4000-8000-000000000000', 'Contrats'],
      ['/contrats/nouveau', 'Contrats'],
      ['/paie', 'Paie'],
      ['/factures', 'Facturation'],
      ['/staff/paie', 'Paie'],
      ['/vos-acces', 'Accès'],
    ] as const) {
      assert.equal(currentEntry(navFor({ isStaff: true } as never, undefined), path)?.label, label, path);
    }
    const staffPage = await call(staff, 'GET', '/staff/virements');
    assert.match(staffPage.body, /<a href="\/staff\/virements" aria-current="page">Virements<\/a><\/li><li><a href="\/staff\/cotisations">Cotisations<\/a>/);
    const adminPage = await call(admin, 'GET', '/contrats');
    assert.ok(!adminPage.body.includes('/staff/facturation'));
  });
});

describe('GET /staff/contrats/{id}', () => {
  it("should make the contract's organization the staff member's active one (settings, audit, cookie) and redirect 303 to /contrats/{id}", async (t) => {
    const { app, db, call, staff, agent, lumiere, helene, soleil } = await money(t);
    await call(staff, 'PUT', '/api/staff/active-org', { org_id: lumiere });
    const contract = (
      await call(agent, 'POST', '/api/contrats', {
        employee_id: helene,
        kind: 'CDI',
        job_title: 'Administratrice',
        start_date: '2027-01-04',
        monthly_gross: '3100',
      })
    ).json();
    const res = await call(staff, 'GET', `/staff/contrats/${contract.id}`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/contrats/${contract.id}`);
    const cookie = res.cookies.find((c) => c.name === 'active_org_id');
    assert.equal(cookie?.value, soleil);
    const settings = await db.selectFrom('staff_settings').select('active_org_id').where('user_id', '=', staff.userId).executeTakeFirstOrThrow();
    assert.equal(settings.active_org_id, soleil);
    const events = await db
      .selectFrom('access_events')
      .select(['org_id', 'target_user_id'])
      .where('action', '=', 'active_org_selected')
      .where('org_id', '=', soleil)
      .execute();
    assert.deepEqual(events, [{ org_id: soleil, target_user_id: staff.userId }], 'one event, as PUT /api/staff/active-org writes it');
    // The contract's page, in that organization.
    const page = await app.inject({
      method: 'GET',
      url: res.headers.location as string,
      headers: { cookie: `${staff.cookie}; active_org_id=${cookie!.value}` },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<title>Contrat ${contract.contract_number} · Espace paie</title>`));
    assert.match(page.body, /Organisation : <strong>Théâtre du Soleil<\/strong>/);
  });

  it('should change nothing on a GET sent by another site, and still render a page whose link opens the contract', async (t) => {
    const { db, call, staff, agent, lumiere, helene } = await money(t);
    await call(staff, 'PUT', '/api/staff/active-org', { org_id: lumiere });
    const before = await db.selectFrom('access_events').select('id').where('action', '=', 'active_org_selected').execute();
    const contract = (
      await call(agent, 'POST', '/api/contrats', {
        employee_id: helene,
        kind: 'CDI',
        job_title: 'Administratrice',
        start_date: '2027-01-04',
        monthly_gross: '3100',
      })
    ).json();
    for (const site of ['cross-site', 'same-site']) {
      const res = await call(staff, 'GET', `/staff/contrats/${contract.id}`, undefined, { accept: 'text/html', 'sec-fetch-site': site });
      assert.equal(res.statusCode, 200, site);
      assert.equal(res.cookies.length, 0, `${site}: no cookie`);
      assert.match(res.body, new RegExp(`Contrat ${contract.contract_number}`));
      assert.match(res.body, /Théâtre du Soleil/);
      assert.match(res.body, new RegExp(`href="/staff/contrats/${contract.id}"`));
    }
    const settings = await db.selectFrom('staff_settings').select('active_org_id').where('user_id', '=', staff.userId).executeTakeFirstOrThrow();
    assert.equal(settings.active_org_id, lumiere, 'the stored active organization is unchanged');
    assert.equal((await db.selectFrom('access_events').select('id').where('action', '=', 'active_org_selected').execute()).length, before.length);
    // Unknown: the 404 page, as before.
    const unknown = await call(staff, 'GET', '/staff/contrats/00000000-0000-4000-8000-000000000000', undefined, {
      accept: 'text/html',
      'sec-fetch-site': 'cross-site',
    });
    assert.equal(unknown.statusCode, 404);
    // The page's link, followed from our own page (same-origin), or typed (none), switches.
    for (const site of ['same-origin', 'none']) {
      const res = await call(staff, 'GET', `/staff/contrats/${contract.id}`, undefined, { 'sec-fetch-site': site });
      assert.equal(res.statusCode, 303, site);
      assert.ok(res.cookies.some((c) => c.name === 'active_org_id'));
    }
  });

  it('should answer an unknown or malformed id with the HTML 404 page and change nothing', async (t) => {
    const { db, call, staff } = await money(t);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await call(staff, 'GET', `/staff/contrats/${id}`, undefined, { accept: 'text/html' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(res.body, /Contrat introuvable/);
      assert.equal(res.cookies.length, 0);
    }
    assert.equal((await db.selectFrom('access_events').select('id').where('action', '=', 'active_org_selected').execute()).length, 0);
  });
});
