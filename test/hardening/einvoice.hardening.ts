/**
 * E-invoices and CSV exports under hostile text. Texts that look like XML (`&amp;`, `&#x0;`,
 * `<![CDATA[`, `]]>`, `R&D;`) reach factur-x.xml exactly as stored, in a document valid against
 * the CII schema and the EN 16931 rules; texts XML cannot carry are refused where they are
 * typed (400), never stored into a PDF/A. Names that start a formula, or hide one after a comma,
 * leave the CSV exports neutralised and quoted for `;` and `,` readers alike.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { build } from '../helper.ts';
import { createOrg, signedIn } from '../support/fixtures.ts';
import { assertEn16931, assertXmlElementText } from '../support/einvoice.ts';
import { FACTUR_X_OPERATOR_ENV } from '../support/operator.ts';
import { readCsv } from '../support/csv.ts';
import { count } from './counts.ts';

/** What XML 1.0 cannot carry: refused at input. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/u;

/** Texts built of what XML writers and readers treat specially, with a few characters XML cannot carry. */
const hostileText = fc
  .array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          '&',
          '&amp;',
          '&#38;',
          '&#x0;',
          '&#0;',
          '&#x1;',
          '&lt;',
          '<b>',
          ']]>',
          '<![CDATA[',
          '<!DOCTYPE x>',
          'R&D;',
          '"',
          "'",
          ';',
          '#',
          'x',
          '1',
          'é',
          ' ',
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0001', '\u000b', '\ufffe', '\uffff', '\ud800') },
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => `T ${parts.join('')}`.slice(0, 90));

describe('e-invoices under hostile text', () => {
  it('should write every text into a valid EN 16931 factur-x.xml exactly as stored, or refuse it with a 400', async (t) => {
    const { app, database } = await build(t, { env: FACTUR_X_OPERATOR_ENV });
    const db = database.db;
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
      // Documents are made by their jobs after issue: read once made.
      if (method === 'GET') await app.jobs.worker.runDue();
      return app.inject({ method, url, headers: { cookie: staff.cookie }, ...(payload ? { payload } : {}) });
    };
    let runs = 0;
    let documents = 0;
    await fc.assert(
      fc.asyncProperty(hostileText, hostileText, hostileText, hostileText, async (name, address, label, reason) => {
        runs++;
        const org = await createOrg(db, name.replace(/[\u0000-\u001f\ufffe\uffff]|\p{Cs}/gu, '?'), null);
        const storedName = (await db.selectFrom('organizations').select('name').where('id', '=', org).executeTakeFirstOrThrow()).name;
        const patched = await call('PATCH', `/api/staff/orgs/${org}`, { siret: '44306184100047', address_line: address, postcode: '69001', city: 'Lyon' });
        const line = [{ label, quantity: 1, unit_price: '10.00', vat_rate: '20' }];
        const created = await call('POST', '/api/staff/facturation/bulk-create', {
          invoice_type: 'prestation',
          payment_method: 'virement',
          invoices: [{ org_id: org, lines: line }],
        });
        for (const [res, text, code] of [
          [patched, address, 'invalid_address_line'],
          [created, label, 'invalid_label'],
        ] as const) {
          if (NOT_XML.test(text)) {
            assert.equal(res.statusCode, 400, res.body);
            assert.equal(res.json().error, code);
          } else {
            assert.ok(res.statusCode < 300, res.body);
          }
        }
        if (created.statusCode !== 201) return;
        const invoice = created.json().created[0] as { id: string; number: string };
        const xml = await call('GET', `/api/staff/facturation/${invoice.id}/factur-x.xml`);
        assert.equal(xml.statusCode, 200, xml.body);
        await assertEn16931(xml.body);
        documents++;
        assertXmlElementText(xml.body, 'Name', storedName);
        assertXmlElementText(xml.body, 'Name', label.trim());
        if (patched.statusCode === 200) assertXmlElementText(xml.body, 'LineOne', patched.json().address_line);
        const credit = await call('POST', `/api/staff/facturation/${invoice.id}/avoir`, { reason });
        if (NOT_XML.test(reason)) {
          assert.equal(credit.statusCode, 400, credit.body);
          assert.equal(credit.json().error, 'invalid_reason');
          return;
        }
        assert.equal(credit.statusCode, 201, credit.body);
        const noteXml = await call('GET', `/api/staff/facturation/${credit.json().id}/factur-x.xml`);
        assert.equal(noteXml.statusCode, 200, noteXml.body);
        await assertEn16931(noteXml.body);
        documents++;
        assertXmlElementText(noteXml.body, 'Content', `Avoir sur la facture ${invoice.number} : ${reason.trim()}`);
      }),
      { numRuns: 10, seed: 20261207 },
    );
    count('fuzzed', runs * 4);
    count('cases', documents);
    assert.ok(documents >= 5, `${documents} documents validated`);
  });
});

describe('CSV exports under hostile names', () => {
  it('should neutralise formulas and quote what a `;` or a `,` reader would split, round-tripping every name', async (t) => {
    const { app, database } = await build(t, { env: FACTUR_X_OPERATOR_ENV });
    const db = database.db;
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const names = ['Dupont,=1+1', '=HYPERLINK("http://evil.example","x")', '+33 1 23', '@SUM(A1)', 'Martin;Paul', 'Le "Grand", Théâtre', 'a,b;c"d', '-2+3'];
    const orgs: string[] = [];
    for (const name of names) orgs.push(await createOrg(db, name));
    const created = await app.inject({
      method: 'POST',
      url: '/api/staff/facturation/bulk-create',
      headers: { cookie: staff.cookie },
      payload: {
        invoice_type: 'prestation',
        payment_method: 'virement',
        invoices: orgs.map((org_id, i) => ({ org_id, lines: [{ label: names[i], quantity: 1, unit_price: '14.40', vat_rate: 0 }] })),
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const first = created.json().created[0].id as string;
    assert.equal(
      (
        await app.inject({
          method: 'POST',
          url: `/api/staff/facturation/${first}/avoir`,
          headers: { cookie: staff.cookie },
          payload: { reason: 'Erreur, =1+1' },
        })
      ).statusCode,
      201,
    );
    const res = await app.inject({ method: 'GET', url: '/api/staff/facturation.csv', headers: { cookie: staff.cookie } });
    assert.equal(res.statusCode, 200);
    const text = res.body.replace(/^\ufeff/, '');
    const bySemicolon = readCsv(text, ';');
    const header = bySemicolon[0]!;
    const orgColumn = header.indexOf('Organisation');
    const reasonColumn = header.indexOf("Motif de l'avoir");
    const neutral = (name: string) => (/^[=+\-@]/.test(name) ? `'${name}` : name);
    assert.deepEqual(
      bySemicolon
        .slice(1)
        .map((row) => row[orgColumn])
        .sort(),
      names.concat(names[0]!).map(neutral).sort(),
    );
    assert.ok(bySemicolon.slice(1).some((row) => row[reasonColumn] === 'Erreur, =1+1'));
    // A reader that splits on commas: no cell it reads starts a formula.
    for (const row of readCsv(text, ',')) {
      for (const cell of row)
        assert.doesNotMatch(cell, /^[=+@]|^-(?!\d)/, `a formula a comma reader would run: ${JSON.stringify(cell)} in ${JSON.stringify(row)}`);
    }
    count('cases', names.length + 1);
  });
});
