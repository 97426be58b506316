/**
 * Factur-X: every invoice PDF is PDF/A-3 with its `factur-x.xml`, valid against
 * the CII D16B schema and with no fatal failed assertion of the EN 16931 rules (the official
 * artefacts in test/support/en16931, run with xmllint-wasm and SaxonJS: nothing from the OS), for
 * every invoice type and payment method, 0-rate and mixed-rate invoices, and credit notes; the
 * XML served alone is the one inside the PDF, byte for byte; credit notes and the 400/409s.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getDocumentProxy } from 'unpdf';
import { build, usingPostgres } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { pdfText, xmlTexts } from '../support/documents.ts';
import { assertEn16931, assertXmlElementText, timings } from '../support/einvoice.ts';
import { FACTUR_X_OPERATOR_ENV } from '../support/operator.ts';

async function setup(t: Parameters<typeof build>[0], env: Record<string, string> = {}) {
  const { app, database } = await build(t, { env: { ...FACTUR_X_OPERATOR_ENV, ...env } });
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const compta = await member(app, db, soleil, 'compta@soleil.example', 'COMPTA');
  const outsider = await member(app, db, lumiere, 'admin@lumiere.example', 'ADMIN');
  const call = async (who: Person, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    // The documents are made by their jobs after issue (test/jobs/documents.test.ts): here they
    // are read once made, as from a server whose worker has caught up.
    if (method === 'GET') await app.jobs.worker.runDue();
    return app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  };
  const address = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, {
    siret: '44306184100047',
    address_line: '3 place du Théâtre',
    postcode: '69001',
    city: 'Lyon',
  });
  assert.equal(address.statusCode, 200, address.body);
  const create = async (body: object) => {
    const res = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
      period_label: 'novembre 2026',
      issue_date: '2026-11-26',
      due_date: '2026-12-10',
      ...body,
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().created as Array<{ id: string; number: string }>;
  };
  return { app, db, database, soleil, lumiere, staff, compta, outsider, call, create };
}

const MIXED = [
  { label: 'Traitement de la paie de novembre', quantity: 12, unit_price: '15.50', vat_rate: '20.00' },
  { label: 'Formation DSN', quantity: '0.5', unit_price: '100', vat_rate: '5.5' },
  { label: 'Débours (frais postaux)', quantity: '2.5', unit_price: '3.33', vat_rate: 0 },
];

describe('Factur-X invoices', () => {
  it('should serve a schema-valid EN 16931 factur-x.xml for every invoice type and payment method, 0-rate and mixed-rate', async (t) => {
    const { soleil, staff, call, create } = await setup(t);
    const cases: Array<{ invoice_type: string; payment_method: string; lines: object[] }> = [];
    for (const invoice_type of ['paie_mensuelle', 'frais_ouverture', 'prestation']) {
      for (const payment_method of ['prelevement', 'virement']) cases.push({ invoice_type, payment_method, lines: [MIXED[0]!] });
    }
    cases.push({ invoice_type: 'prestation', payment_method: 'virement', lines: [MIXED[2]!] }); // 0 % only
    cases.push({ invoice_type: 'paie_mensuelle', payment_method: 'prelevement', lines: MIXED }); // 20 %, 5.5 %, 0 %
    for (const { invoice_type, payment_method, lines } of cases) {
      const [invoice] = await create({ invoice_type, payment_method, invoices: [{ org_id: soleil, lines }] });
      const res = await call(staff, 'GET', `/api/staff/facturation/${invoice!.id}/factur-x.xml`);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/xml/);
      await assertEn16931(res.body);
      assert.deepEqual(xmlTexts(res.body, 'ExchangedDocument/TypeCode'), ['380']);
      assert.deepEqual(xmlTexts(res.body, 'SpecifiedTradeSettlementPaymentMeans/TypeCode'), [payment_method === 'virement' ? '58' : '59']);
    }
    t.diagnostic(`${timings.validated} files validated (schema + EN 16931 rules) in ${timings.ms} ms`);
  });

  it('should carry the seller, buyer, lines, VAT breakdown and totals of the PDF', async (t) => {
    const { soleil, staff, call, create } = await setup(t);
    const [invoice] = await create({ invoice_type: 'paie_mensuelle', payment_method: 'virement', invoices: [{ org_id: soleil, lines: MIXED }] });
    const xml = (await call(staff, 'GET', `/api/staff/facturation/${invoice!.id}/factur-x.xml`)).body;
    assert.deepEqual(xmlTexts(xml, 'GuidelineSpecifiedDocumentContextParameter/ID'), ['urn:cen.eu:en16931:2017']);
    assert.deepEqual(xmlTexts(xml, 'ExchangedDocument/ID'), ['F-2026-000001']);
    assert.deepEqual(xmlTexts(xml, 'SellerTradeParty/Name'), ['Odentas Paie SAS']);
    assert.deepEqual(xmlTexts(xml, 'SellerTradeParty/SpecifiedLegalOrganization/ID'), ['812345678']);
    assert.deepEqual(xmlTexts(xml, 'SellerTradeParty/SpecifiedLegalOrganization/ID/@schemeID'), ['0002']);
    assert.deepEqual(xmlTexts(xml, 'SellerTradeParty/SpecifiedTaxRegistration/ID'), ['FR40812345678']);
    assert.deepEqual(xmlTexts(xml, 'SellerTradeParty//PostcodeCode'), ['75002']);
    assert.deepEqual(xmlTexts(xml, 'BuyerTradeParty/Name'), ['Théâtre du Soleil']);
    assert.deepEqual(xmlTexts(xml, 'BuyerTradeParty/SpecifiedLegalOrganization/ID'), ['443061841']);
    assert.deepEqual(xmlTexts(xml, 'BuyerTradeParty//LineOne'), ['3 place du Théâtre']);
    assert.deepEqual(xmlTexts(xml, 'BuyerTradeParty//CityName'), ['Lyon']);
    assert.deepEqual(xmlTexts(xml, 'BuyerTradeParty//CountryID'), ['FR']);
    assert.deepEqual(xmlTexts(xml, 'PayeePartyCreditorFinancialAccount/IBANID'), ['FR7630006000011234567890189']);
    // 186.00 at 20 % (VAT 37.20), 50.00 at 5.5 % (2.75), 8.33 exempt: 244.33 + 39.95 = 284.28.
    assert.deepEqual(xmlTexts(xml, 'ApplicableHeaderTradeSettlement/ApplicableTradeTax/CategoryCode'), ['S', 'S', 'E']);
    assert.deepEqual(xmlTexts(xml, 'ApplicableHeaderTradeSettlement/ApplicableTradeTax/BasisAmount'), ['186.00', '50.00', '8.33']);
    assert.deepEqual(xmlTexts(xml, 'ApplicableHeaderTradeSettlement/ApplicableTradeTax/CalculatedAmount'), ['37.20', '2.75', '0.00']);
    assert.deepEqual(xmlTexts(xml, 'SpecifiedTradeSettlementHeaderMonetarySummation/TaxBasisTotalAmount'), ['244.33']);
    assert.deepEqual(xmlTexts(xml, 'SpecifiedTradeSettlementHeaderMonetarySummation/TaxTotalAmount'), ['39.95']);
    assert.deepEqual(xmlTexts(xml, 'SpecifiedTradeSettlementHeaderMonetarySummation/GrandTotalAmount'), ['284.28']);
    assert.ok(xmlTexts(xml, 'IncludedNote/Content').some((note) => note.includes('40 €')));
  });

  it('should make the PDF a Factur-X file whose embedded factur-x.xml is the served one, byte for byte; another organization gets 404', async (t) => {
    const { app, soleil, staff, compta, outsider, call, create } = await setup(t);
    const [invoice] = await create({ invoice_type: 'prestation', payment_method: 'prelevement', invoices: [{ org_id: soleil, lines: MIXED }] });
    // The client's route first: it renders and stores both files.
    const served = await call(compta, 'GET', `/api/factures/${invoice!.id}/factur-x.xml`);
    assert.equal(served.statusCode, 200, served.body);
    const { url } = (await call(compta, 'GET', `/api/factures/${invoice!.id}/pdf-url`)).json();
    const pdf = (await app.inject({ method: 'GET', url: url.replace('https://paie.example.com', '') })).rawPayload;
    const document = await getDocumentProxy(new Uint8Array(pdf));
    const attachments = (await document.getAttachments()) as Record<string, { filename: string; content: Uint8Array }>;
    await document.destroy();
    assert.deepEqual(Object.keys(attachments), ['factur-x.xml']);
    assert.ok(Buffer.from(attachments['factur-x.xml']!.content).equals(served.rawPayload), 'the XML inside the PDF is the one served');
    assert.ok(Buffer.from((await call(staff, 'GET', `/api/staff/facturation/${invoice!.id}/factur-x.xml`)).rawPayload).equals(served.rawPayload));
    // PDF/A-3 with the Factur-X XMP metadata, and the page people read.
    const raw = pdf.toString('latin1');
    for (const mark of [
      '<pdfaid:part>3</pdfaid:part>',
      '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>',
      '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>',
      '<fx:DocumentType>INVOICE</fx:DocumentType>',
      '/AFRelationship /Alternative',
    ]) {
      assert.ok(raw.includes(mark), `the PDF has ${mark}`);
    }
    const text = await pdfText(pdf);
    for (const expected of ['Facture', 'N° F-2026-000001', 'Théâtre du Soleil', '3 place du Théâtre, 69001 Lyon', 'Total TTC 284,28 €']) {
      assert.ok(text.includes(expected), `the PDF says "${expected}":\n${text}`);
    }
    const foreign = await call(outsider, 'GET', `/api/factures/${invoice!.id}/factur-x.xml`);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().error, 'not_found');
  });

  it('should fail the document job with operator_identity_missing, naming the variables, rather than make an invalid invoice', async (t) => {
    const { soleil, staff, call, create } = await setup(t, { OPERATOR_SIRET: '', OPERATOR_CITY: '' });
    const [invoice] = await create({ invoice_type: 'prestation', payment_method: 'prelevement', invoices: [{ org_id: soleil, lines: MIXED }] });
    for (const route of ['pdf-url', 'factur-x.xml']) {
      const res = await call(staff, 'GET', `/api/staff/facturation/${invoice!.id}/${route}`);
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json().error, 'document_failed');
    }
    const [job] = (await call(staff, 'GET', '/api/staff/jobs?status=failed')).json().items;
    assert.equal(job.subject_id, invoice!.id);
    assert.equal(job.last_error, "L'identité de l'opérateur est incomplète (OPERATOR_SIRET, OPERATOR_CITY) : la facture électronique ne peut pas être émise.");
  });

  it('should check the organization address fields: 400 invalid_<field>', async (t) => {
    const { soleil, staff, call } = await setup(t);
    for (const [body, code] of [
      [{ postcode: '6900' }, 'invalid_postcode'],
      [{ country: 'France' }, 'invalid_country'],
      [{ country: 'XX' }, 'invalid_country'],
      [{ country: 'ZZ' }, 'invalid_country'],
      [{ address_line: 'x'.repeat(201) }, 'invalid_address_line'],
      [{ city: 42 }, 'invalid_city'],
    ] as const) {
      const res = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, code);
    }
    const belgian = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { country: 'be', postcode: '1000', city: 'Bruxelles' });
    assert.equal(belgian.statusCode, 200, belgian.body);
    assert.deepEqual(
      [belgian.json().country, belgian.json().postcode, belgian.json().city, belgian.json().address_line],
      ['BE', '1000', 'Bruxelles', '3 place du Théâtre'],
    );
  });
});

describe('credit notes', () => {
  it('should credit an invoice in an A-YYYY-NNNNNN credit note, valid EN 16931 (type 381, preceding invoice), listed and never more than invoiced', async (t) => {
    const { soleil, staff, compta, call, create } = await setup(t);
    const [invoice] = await create({ invoice_type: 'paie_mensuelle', payment_method: 'virement', invoices: [{ org_id: soleil, lines: MIXED }] });
    const partial = await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, { reason: 'Formation annulée', lines: [MIXED[1]] });
    assert.equal(partial.statusCode, 201, partial.body);
    const note = partial.json();
    assert.match(note.number, /^A-\d{4}-000001$/);
    assert.equal(note.total_ttc, '52.75'); // 50.00 + 2.75
    assert.equal(note.credited_invoice_id, invoice!.id);

    const xml = (await call(staff, 'GET', `/api/staff/facturation/${note.id}/factur-x.xml`)).body;
    await assertEn16931(xml);
    assert.deepEqual(xmlTexts(xml, 'ExchangedDocument/TypeCode'), ['381']);
    // The preceding invoice (BG-3): @e-invoice-eu/core 2.3.4 drops cac:BillingReference when it
    // writes CII (its mapping reads cbc:ID one level too high), so the reference is in a note.
    assert.ok(xmlTexts(xml, 'IncludedNote/Content').includes('Avoir sur la facture F-2026-000001 : Formation annulée'));
    assert.deepEqual(xmlTexts(xml, 'GrandTotalAmount'), ['52.75']);

    // 284.28 invoiced, 52.75 credited: the rest (231.53) once, then nothing more.
    const all = await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, { reason: 'Facture annulée' });
    assert.equal(all.statusCode, 409, all.body);
    assert.equal(all.json().error, 'credit_exceeds_invoice');
    assert.equal(all.json().remaining_ttc, '231.53');
    const rest = await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, { reason: 'Solde', lines: [MIXED[0], MIXED[2]] });
    assert.equal(rest.statusCode, 201, rest.body);
    assert.match(rest.json().number, /^A-\d{4}-000002$/);
    const more = await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, {
      reason: 'Encore',
      lines: [{ label: 'x', quantity: 1, unit_price: '0.01', vat_rate: 0 }],
    });
    assert.equal(more.statusCode, 409);
    assert.equal(more.json().remaining_ttc, '0.00');

    const listed = (await call(compta, 'GET', '/api/factures?kind=avoir')).json().items;
    assert.deepEqual(
      listed.map((i: { number: string; kind: string }) => i.kind),
      ['avoir', 'avoir'],
    );
    assert.deepEqual(listed[1].credited_invoice, { id: invoice!.id, number: 'F-2026-000001', issue_date: '2026-11-26' });
    assert.equal(listed[1].credit_reason, 'Formation annulée');
    const { url } = (await call(compta, 'GET', `/api/factures/${note.id}/pdf-url`)).json();
    assert.ok(url);

    const notified = await call(staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [note.id] });
    assert.equal(notified.statusCode, 200, notified.body);
    assert.deepEqual(
      notified.json().skipped.map((s: { reason: string }) => s.reason),
      ['no_recipient'],
    );
  });

  it('should read as a credit note everywhere: its PDF (French title, no debit, no penalties), the lists and pages (Avoir, negative amount)', async (t) => {
    const { app, soleil, staff, compta, call, create } = await setup(t);
    const [invoice] = await create({ invoice_type: 'paie_mensuelle', payment_method: 'prelevement', invoices: [{ org_id: soleil, lines: MIXED }] });
    const note = (await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, { reason: 'Formation annulée', lines: [MIXED[1]] })).json();
    const { url } = (await call(compta, 'GET', `/api/factures/${note.id}/pdf-url`)).json();
    const pdf = (await app.inject({ method: 'GET', url: url.replace('https://paie.example.com', '') })).rawPayload;
    const text = await pdfText(pdf);
    assert.ok(text.includes('Cet avoir annule tout ou partie de la facture F-2026-000001 : son montant TTC vous est dû.'), text);
    for (const wrong of ['sera prélevé', 'pénalités', 'indemnité forfaitaire', "Date d'échéance"])
      assert.ok(!text.includes(wrong), `the credit note says "${wrong}":\n${text}`);
    const document = await getDocumentProxy(new Uint8Array(pdf));
    const { info } = (await document.getMetadata()) as { info: { Title?: string; Subject?: string } };
    await document.destroy();
    assert.deepEqual(
      [info.Title, info.Subject],
      [note.number, note.number].map((n) => `Avoir ${n}`),
    );
    assert.ok(pdf.toString('latin1').includes(`<rdf:li xml:lang="x-default">Avoir ${note.number}</rdf:li>`), 'the XMP title');
    const invoicePdf = (await call(compta, 'GET', `/api/factures/${invoice!.id}/pdf-url`)).json().url as string;
    const invoiceDocument = await getDocumentProxy(
      new Uint8Array((await app.inject({ method: 'GET', url: invoicePdf.replace('https://paie.example.com', '') })).rawPayload),
    );
    assert.equal(((await invoiceDocument.getMetadata()) as { info: { Title?: string } }).info.Title, 'Facture F-2026-000001');
    await invoiceDocument.destroy();

    const page = (await call(compta, 'GET', '/factures')).body;
    const row = page.slice(page.indexOf(`data-invoice-id="${note.id}"`), page.indexOf('</tr>', page.indexOf(`data-invoice-id="${note.id}"`)));
    assert.match(row, /Avoir sur F-2026-000001/);
    assert.match(row, /-52,75\u00a0€/);
    assert.match(row, /de l&#39;avoir A-|de l'avoir A-|de l&#x27;avoir A-/);
    const staffPage = (await call(staff, 'GET', '/staff/facturation')).body;
    const staffRow = staffPage.slice(
      staffPage.indexOf(`data-invoice-id="${note.id}"`),
      staffPage.indexOf('</tr>', staffPage.indexOf(`data-invoice-id="${note.id}"`)),
    );
    assert.match(staffRow, /Avoir sur F-2026-000001/);
    assert.match(staffRow, /-52,75\u00a0€/);
  });

  it('should answer the documented 400/409 to bad credit notes, never a 500', async (t) => {
    const { soleil, staff, call, create } = await setup(t);
    const [invoice] = await create({ invoice_type: 'prestation', payment_method: 'prelevement', invoices: [{ org_id: soleil, lines: MIXED }] });
    const post = (id: string, body: object) => call(staff, 'POST', `/api/staff/facturation/${id}/avoir`, body);
    for (const [body, status, code] of [
      [{}, 400, 'missing_reason'],
      [{ reason: 42 }, 400, 'invalid_reason'],
      [{ reason: 'Erreur', lines: [] }, 400, 'invalid_lines'],
      [{ reason: 'Erreur', lines: [{ label: 'Paie', quantity: 1, unit_price: '10.00', vat_rate: '20.125' }] }, 400, 'invalid_vat_rate'],
      [{ reason: 'Erreur', lines: [{ label: 'Paie', quantity: 1, unit_price: '10.001', vat_rate: '20' }] }, 400, 'invalid_amount'],
      [{ reason: 'Erreur', lines: [{ label: 'Paie', quantity: 1, unit_price: '1000.00', vat_rate: '20' }] }, 409, 'credit_exceeds_invoice'],
      // A rate the invoice does not have; nothing credited; 100.00 at 0 % where 8.33 was invoiced (within the total, 284.28).
      [{ reason: 'Erreur', lines: [{ label: 'Paie', quantity: 1, unit_price: '10.00', vat_rate: '99.99' }] }, 400, 'invalid_vat_rate'],
      [{ reason: 'Erreur', lines: [{ label: 'Paie', quantity: 1, unit_price: '10.00', vat_rate: '10' }] }, 400, 'invalid_vat_rate'],
      [{ reason: 'Erreur', lines: [{ label: 'Rien', quantity: 1, unit_price: '0', vat_rate: '20' }] }, 400, 'invalid_lines'],
      [{ reason: 'Erreur', lines: [{ label: 'Débours', quantity: 1, unit_price: '100.00', vat_rate: 0 }] }, 400, 'credit_exceeds_rate'],
    ] as const) {
      const res = await post(invoice!.id, body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, code, res.body);
    }
    assert.equal((await post('00000000-0000-4000-8000-000000000000', { reason: 'x' })).statusCode, 404);
    assert.equal((await post('not-an-id', { reason: 'x' })).statusCode, 404);
    const moved = await post(invoice!.id, { reason: 'Erreur', lines: [{ label: 'Débours', quantity: 1, unit_price: '100.00', vat_rate: 0 }] });
    assert.deepEqual([moved.json().vat_rate, moved.json().remaining_ht], ['0.00', '8.33']);
    const note = (await post(invoice!.id, { reason: 'Erreur', lines: [MIXED[2]] })).json();
    assert.match(note.number, /^A-\d{4}-000001$/, 'no number spent on a refusal');
    // 8.33 at 0 % is credited: nothing more at that rate, though the total allows it.
    const again = await post(invoice!.id, { reason: 'Erreur', lines: [{ label: 'Débours', quantity: 1, unit_price: '0.01', vat_rate: 0 }] });
    assert.equal(again.statusCode, 400, again.body);
    assert.deepEqual([again.json().error, again.json().remaining_ht], ['credit_exceeds_rate', '0.00']);
    const ofNote = await post(note.id, { reason: 'x' });
    assert.equal(ofNote.statusCode, 409);
    assert.equal(ofNote.json().error, 'not_an_invoice');
  });

  it('should number concurrent credit notes A-YYYY-000001 onwards with no gap, and never credit more than invoiced', {
    skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL): PGlite runs one session, nothing races',
  }, async (t) => {
    const { app, database, soleil, staff, create } = await setup(t);
    const second = await build(t, { database, env: FACTUR_X_OPERATOR_ENV });
    const invoices = await create({
      invoice_type: 'prestation',
      payment_method: 'prelevement',
      invoices: [1, 2, 3].map(() => ({ org_id: soleil, lines: [{ label: 'Paie', quantity: 1, unit_price: '100.00', vat_rate: 0 }] })),
    });
    // Each invoice is 100.00; 5 credits of 30.00 each at once: 3 fit, 2 do not.
    const requests = invoices.flatMap((invoice) =>
      Array.from({ length: 5 }, (_, i) =>
        (i % 2 === 0 ? app : second.app).inject({
          method: 'POST',
          url: `/api/staff/facturation/${invoice.id}/avoir`,
          headers: { cookie: staff.cookie },
          payload: { reason: 'Remise', lines: [{ label: 'Remise', quantity: 1, unit_price: '30.00', vat_rate: 0 }] },
        }),
      ),
    );
    const responses = await Promise.all(requests);
    const statuses = responses.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 9, responses.map((r) => r.body).join('\n'));
    assert.equal(statuses.filter((s) => s === 409).length, 6);
    const numbers = responses
      .filter((r) => r.statusCode === 201)
      .map((r) => Number(r.json().number.slice(-6)))
      .sort((a, b) => a - b);
    assert.deepEqual(numbers, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('texts of an e-invoice', () => {
  it('should write every text into a valid EN 16931 factur-x.xml exactly as stored: &, <, character references, CDATA ends', async (t) => {
    const { db, staff, call, create } = await setup(t);
    // What the library's XML writing altered: `&amp;` became `&`, `&#x0;` a NUL byte, `&D;` an undefined entity.
    const name = 'Évil <b>&amp; Co</b> & "Fils" \'R&D;\' &#38; &#0;';
    const address = '12 rue <x>&"\' ]]>&#x0; <!DOCTYPE';
    const city = 'Lyon &#x1; &lt;b&gt;';
    const label = 'Paie &amp;#x0; &#xFFFE; <![CDATA[ x ]]>';
    const reason = 'Erreur de saisie &#x1; &lt;b&gt; R&amp;D';
    const org = await createOrg(db, name, 'EVIL01');
    const patched = await call(staff, 'PATCH', `/api/staff/orgs/${org}`, { siret: '44306184100047', address_line: address, postcode: '69001', city });
    assert.equal(patched.statusCode, 200, patched.body);
    const [invoice] = await create({
      invoice_type: 'prestation',
      payment_method: 'virement',
      invoices: [{ org_id: org, lines: [{ label, quantity: 1, unit_price: '10.00', vat_rate: '20' }] }],
    });
    const xml = (await call(staff, 'GET', `/api/staff/facturation/${invoice!.id}/factur-x.xml`)).body;
    await assertEn16931(xml);
    assertXmlElementText(xml, 'Name', name);
    assertXmlElementText(xml, 'LineOne', address);
    assertXmlElementText(xml, 'CityName', city);
    assertXmlElementText(xml, 'Name', label);

    const credit = await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, { reason });
    assert.equal(credit.statusCode, 201, credit.body);
    const noteXml = (await call(staff, 'GET', `/api/staff/facturation/${credit.json().id}/factur-x.xml`)).body;
    await assertEn16931(noteXml);
    assertXmlElementText(noteXml, 'Content', `Avoir sur la facture ${invoice!.number} : ${reason}`);
    assertXmlElementText(noteXml, 'Name', name);
  });

  it('should refuse (400) the characters XML 1.0 cannot carry in every text of an invoice or credit note, and store nothing', async (t) => {
    const { soleil, staff, call, create } = await setup(t);
    const [invoice] = await create({ invoice_type: 'prestation', payment_method: 'prelevement', invoices: [{ org_id: soleil, lines: MIXED }] });
    const line = (label: string) => [{ label, quantity: 1, unit_price: '10.00', vat_rate: '20' }];
    for (const bad of ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\ufffe', '\uffff', '\ud800', '\udc00']) {
      const text = `Texte ${bad} fin`;
      const where = JSON.stringify(bad);
      for (const field of ['address_line', 'city']) {
        const res = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, { [field]: text });
        assert.equal(res.statusCode, 400, `${field} ${where}: ${res.body}`);
        assert.equal(res.json().error, `invalid_${field}`);
      }
      const bulk = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
        invoice_type: 'prestation',
        payment_method: 'virement',
        invoices: [{ org_id: soleil, lines: line(text) }],
      });
      assert.equal(bulk.statusCode, 400, `label ${where}: ${bulk.body}`);
      assert.equal(bulk.json().error, 'invalid_label');
      const period = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
        invoice_type: 'prestation',
        payment_method: 'virement',
        period_label: text,
        invoices: [{ org_id: soleil, lines: line('Paie') }],
      });
      assert.equal(period.statusCode, 400, `period_label ${where}: ${period.body}`);
      assert.equal(period.json().error, 'invalid_period_label');
      for (const body of [{ reason: text }, { reason: 'Erreur', lines: line(text) }]) {
        const res = await call(staff, 'POST', `/api/staff/facturation/${invoice!.id}/avoir`, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.equal(res.json().error, 'reason' in body && body.reason === text ? 'invalid_reason' : 'invalid_label');
      }
    }
    const listed = (await call(staff, 'GET', '/api/staff/facturation')).json().items;
    assert.deepEqual(
      listed.map((i: { number: string }) => i.number),
      ['F-2026-000001'],
    );
  });
});
