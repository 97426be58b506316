/** Invoices: bulk creation, numbers, totals, lists, detail, PDF, the client's list. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { pdfText } from '../support/documents.ts';

const OPERATOR = {
  OPERATOR_NAME: 'Odentas Paie SAS',
  OPERATOR_SIREN: '812345678',
  OPERATOR_VAT: 'FR40812345678',
  OPERATOR_ADDRESS: '12 rue de la Paix',
  OPERATOR_IBAN: 'FR7630006000011234567890189',
  OPERATOR_BIC: 'AGRIFRPP',
};

async function setup(t: Parameters<typeof build>[0], env: Record<string, string> = {}) {
  const { app, database } = await build(t, { env: { ...OPERATOR, ...env } });
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const compta = await member(app, db, soleil, 'compta@soleil.example', 'COMPTA');
  const agent = await member(app, db, soleil, 'agent@soleil.example', 'AGENT');
  const outsider = await member(app, db, lumiere, 'admin@lumiere.example', 'ADMIN');
  const call = (who: Person, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { app, db, soleil, lumiere, staff, compta, agent, outsider, call };
}

/** 12 payslips at 15.50 and 2.5 extra at 3.33, VAT 20 %: HT 186.00 + 8.33 (8.325 rounded half-up), VAT 37.20 + 1.67. */
const PAYROLL_LINES = [
  { label: 'Traitement de la paie (bulletins)', quantity: 12, unit_price: '15.50', vat_rate: '20.00' },
  { label: 'Bulletins supplémentaires', quantity: '2.5', unit_price: 3.33, vat_rate: 20 },
];

const bulk = (invoices: Array<{ org_id: string; lines?: unknown }>, extra: object = {}) => ({
  invoice_type: 'paie_mensuelle',
  payment_method: 'prelevement',
  period_label: 'novembre 2026',
  issue_date: '2026-11-26',
  due_date: '2026-12-10',
  invoices: invoices.map((i) => ({ lines: PAYROLL_LINES, ...i })),
  ...extra,
});

describe('POST /api/staff/facturation/bulk-create', () => {
  it('should number invoices F-YYYY-NNNNNN in request order, continuing the year, with totals from the lines', async (t) => {
    const { db, soleil, lumiere, staff, call } = await setup(t);
    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil }, { org_id: lumiere }, { org_id: soleil }]));
    assert.equal(res.statusCode, 201, res.body);
    const { created } = res.json();
    assert.deepEqual(
      created.map((c: { number: string }) => c.number),
      ['F-2026-000001', 'F-2026-000002', 'F-2026-000003'],
    );
    assert.deepEqual(
      created.map((c: { org_id: string }) => c.org_id),
      [soleil, lumiere, soleil],
    );
    assert.deepEqual(
      created.map((c: { total_ttc: string }) => c.total_ttc),
      ['233.20', '233.20', '233.20'],
    );

    const again = await call(
      staff,
      'POST',
      '/api/staff/facturation/bulk-create',
      bulk([{ org_id: lumiere }], { issue_date: '2026-11-27', due_date: '2027-01-30' }),
    );
    assert.deepEqual(
      again.json().created.map((c: { number: string }) => c.number),
      ['F-2026-000004'],
    );
    // Another year of issue_date, another series starting at 000001: test/invoices/chronology.test.ts.
    const next = await call(
      staff,
      'POST',
      '/api/staff/facturation/bulk-create',
      bulk([{ org_id: lumiere }], { issue_date: '2026-11-27', due_date: undefined }),
    );
    assert.deepEqual(
      next.json().created.map((c: { number: string }) => c.number),
      ['F-2026-000005'],
    );

    const detail = (await call(staff, 'GET', `/api/staff/facturation/${created[0].id}`)).json();
    assert.deepEqual(
      { ...detail, id: undefined, created_at: undefined },
      {
        id: undefined,
        created_at: undefined,
        number: 'F-2026-000001',
        kind: 'facture',
        credited_invoice: null,
        credit_reason: null,
        org_id: soleil,
        org_name: 'Théâtre du Soleil',
        invoice_type: 'paie_mensuelle',
        payment_method: 'prelevement',
        period_label: 'novembre 2026',
        issue_date: '2026-11-26',
        due_date: '2026-12-10',
        lines: [
          { label: 'Traitement de la paie (bulletins)', quantity: '12', unit_price: '15.50', vat_rate: '20.00' },
          { label: 'Bulletins supplémentaires', quantity: '2.5', unit_price: '3.33', vat_rate: '20.00' },
        ],
        total_ht: '194.33',
        total_vat: '38.87',
        total_ttc: '233.20',
        notified: false,
        notified_at: null,
        organization: { id: soleil, name: 'Théâtre du Soleil', structure_api: 'TDS001', email_notifs: [], email_notifs_cc: [] },
      },
    );
    // Without a due date: 30 days after issue.
    const nextDetail = (await call(staff, 'GET', `/api/staff/facturation/${next.json().created[0].id}`)).json();
    assert.equal(nextDetail.due_date, '2026-12-27');
    const events = await db.selectFrom('module_events').select(['action', 'subject_id', 'actor_email']).where('action', '=', 'invoice.created').execute();
    assert.equal(events.length, 5);
    assert.ok(events.every((e) => e.actor_email === 'staff@ops.example'));
  });

  it('should create nothing when one organization is unknown (400 org_not_found), and give its numbers back', async (t) => {
    const { db, soleil, staff, call } = await setup(t);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil }, { org_id: unknown }, { org_id: soleil }]));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'org_not_found');
    assert.match(res.json().message, /invoices\[1\]\.org_id/);
    const notAnId = await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil }, { org_id: 'nope' }]));
    assert.equal(notAnId.json().error, 'org_not_found');
    assert.equal((await db.selectFrom('invoices').select('id').execute()).length, 0);
    assert.equal((await db.selectFrom('module_events').select('id').where('action', '=', 'invoice.created').execute()).length, 0);
    const ok = await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil }]));
    assert.deepEqual(
      ok.json().created.map((c: { number: string }) => c.number),
      ['F-2026-000001'],
    );
  });

  it('should answer the field codes of docs/modules.md for wrong fields', async (t) => {
    const { soleil, staff, call } = await setup(t);
    const line = PAYROLL_LINES[0]!;
    const cases: Array<[unknown, string]> = [
      [{ ...bulk([{ org_id: soleil }]), invoice_type: undefined }, 'missing_invoice_type'],
      [{ ...bulk([{ org_id: soleil }]), invoice_type: 'abonnement' }, 'invalid_invoice_type'],
      [{ ...bulk([{ org_id: soleil }]), payment_method: undefined }, 'missing_payment_method'],
      [{ ...bulk([{ org_id: soleil }]), payment_method: 'cheque' }, 'invalid_payment_method'],
      [{ ...bulk([{ org_id: soleil }]), issue_date: '2026-02-30' }, 'invalid_date'],
      [{ ...bulk([{ org_id: soleil }]), due_date: '2026-11-01' }, 'invalid_due_date'],
      [{ ...bulk([]) }, 'missing_invoices'],
      [{ ...bulk([{ org_id: soleil }]), invoices: 'x' }, 'invalid_invoices'],
      [bulk([{ org_id: soleil, lines: [] }]), 'missing_lines'],
      [bulk([{ org_id: '' }]), 'missing_org_id'],
      [bulk([{ org_id: soleil, lines: [{ ...line, label: ' ' }] }]), 'missing_label'],
      [bulk([{ org_id: soleil, lines: [{ ...line, quantity: 0 }] }]), 'invalid_quantity'],
      [bulk([{ org_id: soleil, lines: [{ ...line, unit_price: '1.234' }] }]), 'invalid_amount'],
      [bulk([{ org_id: soleil, lines: [{ ...line, unit_price: -1 }] }]), 'invalid_amount'],
      [bulk([{ org_id: soleil, lines: [{ ...line, unit_price: undefined }] }]), 'missing_unit_price'],
      [bulk([{ org_id: soleil, lines: [{ ...line, vat_rate: '120' }] }]), 'invalid_vat_rate'],
      [bulk([{ org_id: soleil, lines: [{ ...line, vat_rate: undefined }] }]), 'missing_vat_rate'],
      [bulk([{ org_id: soleil, lines: [{ ...line, quantity: 999_999_999, unit_price: '9999999.99' }] }]), 'invalid_amount'],
      [bulk(Array.from({ length: 5001 }, () => ({ org_id: soleil, lines: [{ label: 'x', quantity: 1, unit_price: 1, vat_rate: 0 }] }))), 'invalid_invoices'],
    ];
    for (const [payload, error] of cases) {
      const res = await call(staff, 'POST', '/api/staff/facturation/bulk-create', payload);
      assert.equal(res.statusCode, 400, `${error}: ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify(payload).slice(0, 200));
    }
  });

  it('should take bodies up to 4 MiB (past 64 KiB), and answer 413 beyond', async (t) => {
    const { soleil, staff, call } = await setup(t);
    const many = Array.from({ length: 1500 }, () => ({
      org_id: soleil,
      lines: [{ label: 'Traitement de la paie', quantity: 1, unit_price: '10.00', vat_rate: '20.00' }],
    }));
    const payload = bulk(many);
    assert.ok(JSON.stringify(payload).length > 64 * 1024);
    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-create', payload);
    assert.equal(res.statusCode, 201, res.body.slice(0, 200));
    assert.equal(res.json().created.length, 1500);
    assert.equal(res.json().created[1499].number, 'F-2026-001500');
    const huge = JSON.stringify({ ...payload, padding: 'x'.repeat(4 * 1024 * 1024) });
    const tooBig = await call(staff, 'POST', '/api/staff/facturation/bulk-create', huge, { 'content-type': 'application/json' });
    assert.equal(tooBig.statusCode, 413);
    assert.equal(tooBig.json().error, 'payload_too_large');
  });

  it('should never delete an issued invoice, even by SQL', async (t) => {
    const { db, soleil, staff, call } = await setup(t);
    const { created } = (await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil }]))).json();
    await assert.rejects(db.deleteFrom('invoices').where('id', '=', created[0].id).execute(), /never deleted/);
    await assert.rejects(db.deleteFrom('organizations').where('id', '=', soleil).execute());
    assert.equal((await db.selectFrom('invoices').select('id').execute()).length, 1);
  });
});

describe('GET /api/staff/facturation and GET /api/factures', () => {
  it('should list newest number first with notified and org_name, filter, and show a client only its own (money set)', async (t) => {
    const { db, soleil, lumiere, staff, compta, agent, outsider, call } = await setup(t);
    await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil }, { org_id: lumiere }, { org_id: soleil }]));
    await call(
      staff,
      'POST',
      '/api/staff/facturation/bulk-create',
      bulk([{ org_id: soleil }], { invoice_type: 'frais_ouverture', payment_method: 'virement', period_label: '' }),
    );
    await db.updateTable('invoices').set({ notified: true, notified_at: new Date() }).where('number', '=', 'F-2026-000002').execute();

    const all = (await call(staff, 'GET', '/api/staff/facturation')).json();
    assert.deepEqual(
      all.items.map((i: { number: string }) => i.number),
      ['F-2026-000004', 'F-2026-000003', 'F-2026-000002', 'F-2026-000001'],
    );
    assert.deepEqual(
      all.items.map((i: { notified: boolean }) => i.notified),
      [false, false, true, false],
    );
    assert.deepEqual(
      all.items.map((i: { org_name: string }) => i.org_name),
      ['Théâtre du Soleil', 'Théâtre du Soleil', 'Compagnie Lumière', 'Théâtre du Soleil'],
    );
    assert.equal(all.next_cursor, null);
    const numbers = async (query: string) => (await call(staff, 'GET', `/api/staff/facturation${query}`)).json().items.map((i: { number: string }) => i.number);
    assert.deepEqual(await numbers('?notified=true'), ['F-2026-000002']);
    assert.deepEqual(await numbers(`?notified=false&org_id=${soleil}`), ['F-2026-000004', 'F-2026-000003', 'F-2026-000001']);
    assert.deepEqual(await numbers('?invoice_type=frais_ouverture'), ['F-2026-000004']);
    const page1 = (await call(staff, 'GET', '/api/staff/facturation?limit=3')).json();
    assert.equal(page1.items.length, 3);
    const page2 = (await call(staff, 'GET', `/api/staff/facturation?limit=3&cursor=${page1.next_cursor}`)).json();
    assert.deepEqual(
      page2.items.map((i: { number: string }) => i.number),
      ['F-2026-000001'],
    );
    for (const [query, error] of [
      ['?notified=yes', 'invalid_notified'],
      ['?org_id=nope', 'invalid_org_id'],
      ['?invoice_type=x', 'invalid_invoice_type'],
      ['?limit=201', 'invalid_limit'],
      ['?cursor=zz', 'invalid_cursor'],
    ]) {
      const res = await call(staff, 'GET', `/api/staff/facturation${query}`);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, error);
    }

    const mine = (await call(compta, 'GET', '/api/factures')).json();
    assert.deepEqual(
      mine.items.map((i: { number: string }) => i.number),
      ['F-2026-000004', 'F-2026-000003', 'F-2026-000001'],
    );
    assert.equal(mine.items[2].total_ttc, '233.20');
    assert.deepEqual(
      (await call(outsider, 'GET', '/api/factures')).json().items.map((i: { number: string }) => i.number),
      ['F-2026-000002'],
    );
    const refused = await call(agent, 'GET', '/api/factures');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    assert.equal((await call(compta, 'GET', '/api/staff/facturation')).statusCode, 403);
    const unknown = await call(staff, 'GET', '/api/staff/facturation/00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'not_found');
  });
});

describe('invoice PDF', () => {
  it('should carry the seller, buyer, lines, VAT, totals, due date and legal mentions; a client reaches only its own', async (t) => {
    const { app, soleil, staff, compta, outsider, call } = await setup(t);
    const lines = [
      { label: 'Traitement de la paie de novembre', quantity: 1, unit_price: '1028.75', vat_rate: '20.00' },
      { label: 'Formation DSN', quantity: '0.5', unit_price: '100', vat_rate: '5.5' },
    ];
    const { created } = (
      await call(staff, 'POST', '/api/staff/facturation/bulk-create', bulk([{ org_id: soleil, lines }], { payment_method: 'virement' }))
    ).json();
    const id = created[0].id;
    assert.equal(await app.jobs.worker.runDue(), 1, 'its document, made by its job');
    const link = await call(staff, 'GET', `/api/staff/facturation/${id}/pdf-url`);
    assert.equal(link.statusCode, 200, link.body);
    const { url, expires_at } = link.json();
    assert.match(url, /^https:\/\/paie\.example\.com\/files\/[^?]+\?exp=\d+&sig=/);
    assert.ok(Date.parse(expires_at) > Date.now());
    const file = await app.inject({ method: 'GET', url: url.replace('https://paie.example.com', '') });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    const text = await pdfText(file.rawPayload);
    for (const expected of [
      'Facture',
      'N° F-2026-000001',
      'Odentas Paie SAS',
      '12 rue de la Paix, 75002 Paris',
      'SIREN : 812345678',
      'N° TVA intracommunautaire : FR40812345678',
      'Théâtre du Soleil',
      'Code client : TDS001',
      "Date d'émission : 26/11/2026",
      "Date d'échéance : 10/12/2026",
      'Période : novembre 2026',
      'Traitement de la paie de novembre',
      '1 028,75 €',
      'Formation DSN',
      '0,5',
      '5,5 %',
      '20 %',
      'Total HT 1 078,75 €', // 1028.75 + 50.00
      'TVA 208,50 €', // 205.75 + 2.75
      'Total TTC 1 287,25 €',
      'par virement avant le 10/12/2026',
      'IBAN FR76 3000 6000 0112 3456 7890 189, BIC AGRIFRPP',
      'F-2026-000001',
      "Pas d'escompte",
      'pénalités de retard',
      'indemnité forfaitaire de 40 € pour frais de recouvrement',
    ]) {
      assert.ok(text.includes(expected), `the PDF says "${expected}":\n${text}`);
    }
    // Rendered once, then the same file.
    const again = (await call(compta, 'GET', `/api/factures/${id}/pdf-url`)).json();
    assert.equal(new URL(again.url).pathname, new URL(url).pathname);
    const foreign = await call(outsider, 'GET', `/api/factures/${id}/pdf-url`);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().error, 'not_found');
  });
});
