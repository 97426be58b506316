/**
 * Avenants: `POST /api/contrats/{id}/avenants` extends a contract's period and adds
 * its dates in one transaction, recorded in the contract's history and listed in its PDF.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { cddu, createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { pdfText } from '../support/documents.ts';
import { todayInFrance, formatDateFr } from '../../src/format/french.ts';

const PDF = Buffer.from('%PDF-1.4\n% signed\n%%EOF\n');

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const otherId = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const agent = await member(app, db, orgId, 'agent@soleil.example', 'AGENT');
  const compta = await member(app, db, orgId, 'compta@soleil.example', 'COMPTA');
  const outsider = await member(app, db, otherId, 'agent@lumiere.example', 'AGENT');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const call = (who: Person, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | Buffer, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload ? { payload } : {}) });
  const helene = (await call(agent, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre' })).json().id as string;
  // December 2026: the 1st to the 7th, two performances (1 000,00 € in all).
  const contract = (
    await call(
      agent,
      'POST',
      '/api/contrats',
      cddu(helene, {
        start_date: '2026-12-01',
        end_date: '2026-12-07',
        dates: [
          { date: '2026-12-04', nature: 'representation', quantity: 1, amount: '450.00' },
          { date: '2026-12-05', nature: 'representation', quantity: 1, amount: '550.00' },
        ],
      }),
    )
  ).json();
  return { app, db, orgId, agent, compta, outsider, staff, call, contract };
}

const avenant = {
  end_date: '2026-12-14',
  dates: [
    { date: '2026-12-09', nature: 'representation', quantity: 1, amount: '480.50' },
    { date: '2026-12-13', nature: 'representation', quantity: 1, amount: '480.50' },
  ],
};

describe('POST /api/contrats/{id}/avenants', () => {
  it('should extend a signed contract to the 14th with performances on the 9th and 13th, back to signature with a PDF that lists it, the signed PDF kept in its history', async (t) => {
    const { app, db, orgId, staff, call, contract } = await setup(t);
    const asStaff = { 'x-active-org-id': orgId };
    const signedRes = await call(staff, 'PUT', `/api/staff/contrats/${contract.id}/signed-pdf`, PDF, { 'content-type': 'application/pdf' });
    assert.equal(signedRes.statusCode, 200);
    const signedAt = signedRes.json().signed_at as string;
    const signedFile = (await db.selectFrom('contracts').select('signed_pdf_id').where('id', '=', contract.id).executeTakeFirstOrThrow()).signed_pdf_id!;

    const res = await call(staff, 'POST', `/api/contrats/${contract.id}/avenants`, avenant, asStaff);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.start_date, '2026-12-01');
    assert.equal(body.end_date, '2026-12-14');
    // An avenant is a document to sign: the contract goes back to signature.
    assert.equal(body.status, 'a_signer');
    assert.equal(body.has_signed_pdf, false);
    assert.equal(body.signed_at, null);
    assert.equal(body.has_generated_pdf, true);
    assert.equal(body.gross_total, '1961.00');
    assert.deepEqual(
      body.dates.map((d: { date: string; amount: string }) => [d.date, d.amount]),
      [
        ['2026-12-04', '450.00'],
        ['2026-12-05', '550.00'],
        ['2026-12-09', '480.50'],
        ['2026-12-13', '480.50'],
      ],
    );

    const events = await db
      .selectFrom('module_events')
      .select(['action', 'actor_email', 'details'])
      .where('subject_id', '=', contract.id)
      .where('action', '=', 'contract.amended')
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]!.actor_email, 'staff@ops.example');
    assert.deepEqual(events[0]!.details, {
      number: 1,
      on: todayInFrance(),
      previous: { start_date: '2026-12-01', end_date: '2026-12-07' },
      start_date: '2026-12-01',
      end_date: '2026-12-14',
      dates: [
        { date: '2026-12-09', nature: 'representation', quantity: '1', amount: '480.50' },
        { date: '2026-12-13', nature: 'representation', quantity: '1', amount: '480.50' },
      ],
      gross_total: '1961.00',
      from: 'signe',
      to: 'a_signer',
      unsigned: { signed_pdf_id: signedFile, signed_at: signedAt },
    });
    // The signed PDF of before is kept, as it was signed.
    assert.ok(await db.selectFrom('files').select('id').where('id', '=', signedFile).executeTakeFirst(), 'the signed file is kept');
    // What is out for signature is a PDF with the avenant.
    const toSign = await call(staff, 'GET', `/api/contrats/${contract.id}/pdf-url`, undefined, asStaff);
    assert.equal(toSign.json().signed, false);
    const toSignText = await pdfText((await app.inject({ method: 'GET', url: toSign.json().url.replace('https://paie.example.com', '') })).rawPayload);
    assert.ok(toSignText.includes('Avenant n° 1'), toSignText);

    // A second avenant, an earlier start: numbered 2.
    const second = await call(
      staff,
      'POST',
      `/api/contrats/${contract.id}/avenants`,
      { start_date: '2026-11-30', dates: [{ date: '2026-11-30', nature: 'repetition', quantity: 1, amount: '100' }] },
      asStaff,
    );
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.json().start_date, '2026-11-30');
    assert.equal(second.json().gross_total, '2061.00');

    const pdf = await call(staff, 'POST', '/api/generate-contract-pdf', { contract_id: contract.id }, asStaff);
    assert.equal(pdf.statusCode, 200, pdf.body);
    const text = await pdfText((await app.inject({ method: 'GET', url: pdf.json().url.replace('https://paie.example.com', '') })).rawPayload);
    const today = formatDateFr(todayInFrance());
    for (const expected of [
      'Avenants',
      `Avenant n° 1 du ${today} : période portée du 01/12/2026 au 14/12/2026 inclus (auparavant du 01/12/2026 au 07/12/2026 inclus). Dates ajoutées : 09/12/2026 (Représentation, 480,50 €), 13/12/2026 (Représentation, 480,50 €).`,
      `Avenant n° 2 du ${today} : période portée du 30/11/2026 au 14/12/2026 inclus (auparavant du 01/12/2026 au 14/12/2026 inclus). Dates ajoutées : 30/11/2026 (Répétition, 100,00 €).`,
      'du 30/11/2026 au 14/12/2026 inclus',
      '13/12/2026',
      'Total brut 2 061,00 €',
    ]) {
      assert.ok(text.includes(expected), `the PDF says "${expected}":\n${text}`);
    }
  });

  it("should let the organization's AGENT amend, and refuse what is not an extension, dates outside it, a cancelled contract, and other roles", async (t) => {
    const { agent, compta, outsider, call, contract } = await setup(t);
    const url = `/api/contrats/${contract.id}/avenants`;
    for (const [payload, status, error] of [
      [{ end_date: '2026-12-07', dates: [] }, 400, 'period_not_extended'],
      [{ end_date: '2026-12-06' }, 400, 'period_not_extended'],
      [{ start_date: '2026-12-02', end_date: '2026-12-14' }, 400, 'period_not_extended'],
      [{}, 400, 'period_not_extended'],
      [{ end_date: '2026-12-14', dates: [{ date: '2026-12-15', nature: 'representation', quantity: 1, amount: '10' }] }, 400, 'invalid_date'],
      [{ end_date: '2026-12-14', dates: [{ date: '2026-11-30', nature: 'representation', quantity: 1, amount: '10' }] }, 400, 'invalid_date'],
      [{ end_date: '14/12/2026' }, 400, 'invalid_date'],
      [{ end_date: '2026-12-14', dates: [{ date: '2026-12-09', nature: 'representation', quantity: 1 }] }, 400, 'missing_amount'],
    ] as const) {
      const res = await call(agent, 'POST', url, payload);
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
      assert.equal(res.json().error, error);
    }
    // Nothing was written by the refusals.
    const unchanged = (await call(agent, 'GET', `/api/contrats/${contract.id}`)).json();
    assert.equal(unchanged.end_date, '2026-12-07');
    assert.equal(unchanged.gross_total, '1000.00');

    assert.equal((await call(compta, 'POST', url, avenant)).statusCode, 403);
    assert.equal((await call(outsider, 'POST', url, avenant)).statusCode, 404);

    const ok = await call(agent, 'POST', url, avenant);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().gross_total, '1961.00');

    assert.equal((await call(agent, 'POST', `/api/contrats/${contract.id}/cancel`)).statusCode, 200);
    const cancelled = await call(agent, 'POST', url, { end_date: '2026-12-20' });
    assert.equal(cancelled.statusCode, 409);
    assert.equal(cancelled.json().error, 'contract_cancelled');
  });

  it('should refuse an end date on a CDI, and extend a CDI by an earlier start', async (t) => {
    const { agent, call } = await setup(t);
    const employee = (await call(agent, 'POST', '/api/salaries', { first_name: 'Marc', last_name: 'Dupont' })).json().id;
    const cdi = (await call(agent, 'POST', '/api/contrats', { employee_id: employee, kind: 'CDI', start_date: '2027-01-04', monthly_gross: '2600' })).json();
    const bad = await call(agent, 'POST', `/api/contrats/${cdi.id}/avenants`, { end_date: '2027-12-31' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_end_date');
    const ok = await call(agent, 'POST', `/api/contrats/${cdi.id}/avenants`, { start_date: '2027-01-02' });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().start_date, '2027-01-02');
    assert.equal(ok.json().end_date, null);
    assert.equal(ok.json().gross_total, '2600.00');
  });
});
