import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inDays, setup } from './support.ts';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024, 0x20), Buffer.from('\n%%EOF\n')]);
const UNKNOWN = '6f1c2d3e-0000-4000-8000-000000000000';

describe('POST /api/staff/payslips', () => {
  it('should publish a payslip with its amounts, period and contracts', async (t) => {
    const { db, soleil, agent, staff, call, helene } = await setup(t);
    const contract = await call(agent, 'POST', '/api/contrats', {
      employee_id: helene,
      kind: 'CDD',
      job_title: 'Comédienne',
      start_date: '2027-01-01',
      end_date: '2027-01-31',
      monthly_gross: '2150',
    });
    const res = await call(staff, 'POST', '/api/staff/payslips', {
      org_id: soleil,
      employee_id: helene,
      period: '2027-01',
      gross: '2150',
      net_to_pay: 1642.4,
      contract_ids: [contract.json().id],
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.ok(Date.now() - Date.parse(body.created_at) < 60_000);
    assert.deepEqual(
      { ...body, id: undefined, created_at: undefined },
      {
        id: undefined,
        org_id: soleil,
        employee_id: helene,
        employee: { first_name: 'Hélène', last_name: 'Lefèvre' },
        period: '2027-01',
        gross: '2150.00',
        net_to_pay: '1642.40',
        contract_ids: [contract.json().id],
        has_pdf: false,
        status: 'publie',
        transfer_status: null,
        // Typed in: none of the computed payroll's figures.
        source: 'saisi',
        kind: 'normal',
        complements_id: null,
        model_version: null,
        employee_contributions: null,
        employer_contributions: null,
        net_before_tax: null,
        net_taxable: null,
        net_social: null,
        pas_rate: null,
        pas_amount: null,
        employer_cost: null,
        created_at: undefined,
      },
    );
    const events = await db.selectFrom('module_events').select(['action', 'subject_id']).where('subject_type', '=', 'payslip').execute();
    assert.deepEqual(events, [{ action: 'payslip.created', subject_id: body.id }]);
  });

  it('should answer the documented 400s and 403, and never a 500', async (t) => {
    const { soleil, lumiere, agent, compta, staff, call, helene, leonie } = await setup(t);
    const theirContract = (
      await call(agent, 'POST', '/api/contrats', { employee_id: helene, kind: 'CDI', start_date: '2027-01-01', monthly_gross: '100' })
    ).json().id;
    const ok = { org_id: soleil, employee_id: helene, period: '2027-01', gross: '2000', net_to_pay: '1500' };
    const cases: Array<[object, string]> = [
      [{ ...ok, org_id: undefined }, 'missing_org_id'],
      [{ ...ok, org_id: 'soleil' }, 'org_not_found'],
      [{ ...ok, org_id: UNKNOWN }, 'org_not_found'],
      [{ ...ok, employee_id: undefined }, 'missing_employee_id'],
      [{ ...ok, employee_id: leonie }, 'invalid_employee_id'],
      [{ ...ok, org_id: lumiere }, 'invalid_employee_id'],
      [{ ...ok, period: undefined }, 'missing_period'],
      [{ ...ok, period: '2027-13' }, 'invalid_period'],
      [{ ...ok, period: '2027-1' }, 'invalid_period'],
      [{ ...ok, period: '2027-01-15' }, 'invalid_period'],
      [{ ...ok, period: 202701 }, 'invalid_period'],
      // One period rule with contribution calls (src/format/period.ts): years 1900 to 2999.
      [{ ...ok, period: '0000-01' }, 'invalid_period'],
      [{ ...ok, period: '9999-12' }, 'invalid_period'],
      [{ ...ok, period: '1899-12' }, 'invalid_period'],
      [{ ...ok, gross: undefined }, 'missing_gross'],
      [{ ...ok, gross: '-1' }, 'invalid_amount'],
      [{ ...ok, net_to_pay: '12.345' }, 'invalid_amount'],
      [{ ...ok, net_to_pay: 'mille' }, 'invalid_amount'],
      [{ ...ok, net_to_pay: true }, 'invalid_amount'],
      [{ ...ok, net_to_pay: '1000000000.00' }, 'invalid_amount'],
      [{ ...ok, contract_ids: 'C-2027-000001' }, 'invalid_contract_ids'],
      [{ ...ok, contract_ids: [UNKNOWN] }, 'invalid_contract_ids'],
      [
        { ...ok, employee_id: (await call(agent, 'POST', '/api/salaries', { first_name: 'A', last_name: 'B' })).json().id, contract_ids: [theirContract] },
        'invalid_contract_ids',
      ],
    ];
    for (const [payload, error] of cases) {
      const res = await call(staff, 'POST', '/api/staff/payslips', payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)} ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify(payload));
    }
    for (const who of [agent, compta]) assert.equal((await call(who, 'POST', '/api/staff/payslips', ok)).statusCode, 403);
  });
});

describe('GET /api/payslips and the PDF', () => {
  it('should list the organization’s payslips to every role, newest period first, with filters and pages', async (t) => {
    const { soleil, lumiere, admin, agent, compta, lumiereAgent, call, helene, marc, leonie, payslip } = await setup(t);
    const jan = await payslip(soleil, helene, '2027-01', '1500.00');
    const febMarc = await payslip(soleil, marc, '2027-02', '980.50');
    const febHelene = await payslip(soleil, helene, '2027-02', '1600.10');
    await payslip(lumiere, leonie, '2027-02', '1200.00');
    for (const who of [admin, agent, compta]) {
      const res = await call(who, 'GET', '/api/payslips');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().items.map((p: { id: string }) => p.id),
        [febMarc, febHelene, jan],
        'period desc, then last name',
      );
    }
    const page1 = (await call(compta, 'GET', '/api/payslips?limit=2')).json();
    assert.equal(page1.items.length, 2);
    const page2 = (await call(compta, 'GET', `/api/payslips?limit=2&cursor=${page1.next_cursor}`)).json();
    assert.deepEqual(
      page2.items.map((p: { id: string }) => p.id),
      [jan],
    );
    assert.equal(page2.next_cursor, null);
    assert.deepEqual(
      (await call(agent, 'GET', '/api/payslips?period=2027-01')).json().items.map((p: { id: string }) => p.id),
      [jan],
    );
    assert.deepEqual(
      (await call(agent, 'GET', `/api/payslips?employee_id=${helene}`)).json().items.map((p: { id: string }) => p.id),
      [febHelene, jan],
    );
    assert.equal((await call(agent, 'GET', '/api/payslips?period=janvier')).json().error, 'invalid_period');
    assert.equal((await call(agent, 'GET', '/api/payslips?limit=0')).json().error, 'invalid_limit');
    const theirs = (await call(lumiereAgent, 'GET', '/api/payslips')).json().items;
    assert.equal(theirs.length, 1);
    assert.equal(theirs[0].net_to_pay, '1200.00');
  });

  it('should attach the PDF (staff), link it to every role, and hide it from other organizations', async (t) => {
    const { app, db, soleil, agent, compta, lumiereAgent, staff, call, helene, payslip } = await setup(t);
    const id = await payslip(soleil, helene, '2027-01', '1500.00');
    const none = await call(compta, 'GET', `/api/payslips/${id}/pdf-url`);
    assert.equal(none.statusCode, 404);
    assert.equal(none.json().error, 'no_pdf');

    const upload = (payload: Buffer | string, who = staff, type = 'application/pdf', target = id) =>
      app.inject({ method: 'PUT', url: `/api/staff/payslips/${target}/pdf`, headers: { cookie: who.cookie, 'content-type': type }, payload });
    const put = await upload(PDF);
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().has_pdf, true);
    assert.equal(put.json().id, id);
    await upload(PDF);
    assert.equal((await db.selectFrom('files').select('id').execute()).length, 1, 'a second upload replaces the first');

    const link = await call(compta, 'GET', `/api/payslips/${id}/pdf-url`);
    assert.equal(link.statusCode, 200);
    assert.match(link.json().url, /^https:\/\/paie\.example\.com\/files\/[0-9a-f-]{36}\?exp=\d+&sig=[A-Za-z0-9_-]+$/);
    assert.equal(new URL(link.json().url).searchParams.get('exp'), String(Date.parse(link.json().expires_at) / 1000));
    const file = await app.inject({ method: 'GET', url: link.json().url.replace('https://paie.example.com', '') });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.match(
      String(file.headers['content-disposition']),
      /^attachment; filename="bulletin-2027-01-Lefevre-Helene\.pdf"; filename\*=UTF-8''bulletin-2027-01-Lef%C3%A8vre-H%C3%A9l%C3%A8ne\.pdf$/,
    );
    assert.deepEqual(file.rawPayload, PDF);
    assert.equal((await call(agent, 'GET', `/api/payslips/${id}/pdf-url`)).statusCode, 200);

    const foreign = await call(lumiereAgent, 'GET', `/api/payslips/${id}/pdf-url`);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().error, 'not_found');
    assert.equal((await call(compta, 'GET', `/api/payslips/${UNKNOWN}/pdf-url`)).json().error, 'not_found');
    assert.equal((await call(compta, 'GET', '/api/payslips/nope/pdf-url')).json().error, 'not_found');

    assert.equal((await upload(Buffer.from('<html/>'))).json().error, 'invalid_pdf');
    assert.equal((await upload(Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]))).statusCode, 413);
    assert.equal((await upload(PDF, agent)).statusCode, 403);
    assert.equal((await upload(PDF, staff, 'application/pdf', UNKNOWN)).statusCode, 404);
    assert.equal((await db.selectFrom('files').select('id').execute()).length, 1, 'refusals keep no file');
  });
});

describe('GET /api/staff/payslips/available', () => {
  it('should list exactly the payslips docs/payslips-transfers.md defines, no more, no fewer', async (t) => {
    const { db, soleil, lumiere, autonome, agent, staff, call, helene, marc, zoe, leonie, autonomeEmployee, payslip, batch, available } = await setup(t);
    const payable = await payslip(soleil, helene, '2027-01', '1500.00');
    const payableLumiere = await payslip(lumiere, leonie, '2027-01', '1200.00');
    const payableFeb = await payslip(soleil, marc, '2027-02', '980.50');
    await payslip(soleil, zoe, '2027-01', '1100.00'); // no IBAN
    await payslip(soleil, marc, '2027-01', '0'); // nothing to pay
    const cancelled = await payslip(soleil, helene, '2026-12', '1400.00');
    await db.updateTable('payslips').set({ status: 'annule' }).where('id', '=', cancelled).execute();
    await payslip(autonome, autonomeEmployee, '2027-01', '900.00'); // the organization pays itself
    const badIban = (await call(agent, 'POST', '/api/salaries', { first_name: 'Iban', last_name: 'Faux' })).json().id;
    await db.updateTable('employees').set({ iban: 'FR7630006000011234567890180' }).where('id', '=', badIban).execute();
    await payslip(soleil, badIban, '2027-01', '700.00'); // an IBAN that fails its check digits
    const inBatch = await payslip(soleil, helene, '2027-03', '1550.00');
    const executed = await payslip(soleil, marc, '2027-03', '990.00');
    const remi = (await call(agent, 'POST', '/api/salaries', { first_name: 'Rémi', last_name: 'Petit', iban: 'FR1420041010050500013M02606' })).json().id;
    const released = await payslip(soleil, remi, '2027-03', '10.00');
    assert.equal((await batch([inBatch])).statusCode, 201);
    const done = (await batch([executed], inDays(0))).json().id;
    assert.equal((await call(staff, 'POST', `/api/staff/virements/${done}/executed`)).statusCode, 200);
    const undone = (await batch([released])).json().id;
    assert.equal((await call(staff, 'POST', `/api/staff/virements/${undone}/cancel`)).statusCode, 200);

    const items = await available();
    assert.deepEqual(
      items.map((p) => p.id),
      [payableLumiere, payable, payableFeb, released],
      'by organization name, then period, then name',
    );
    assert.deepEqual(items[1], {
      id: payable,
      org_id: soleil,
      org_name: 'Théâtre du Soleil',
      employee_id: helene,
      employee: { first_name: 'Hélène', last_name: 'Lefèvre' },
      iban_last4: '0189',
      period: '2027-01',
      net_to_pay: '1500.00',
    });
    assert.ok(!JSON.stringify(items).includes('FR7630006000011234567890189'), 'never a whole IBAN');
    assert.deepEqual(
      (await available(`?org_id=${soleil}`)).map((p) => p.id),
      [payable, payableFeb, released],
    );
    assert.deepEqual(
      (await available(`?org_id=${soleil}&period=2027-02`)).map((p) => p.id),
      [payableFeb],
    );
    assert.deepEqual(
      (await available('?period=2027-01')).map((p) => p.id),
      [payableLumiere, payable],
    );
    const paged = await call(staff, 'GET', '/api/staff/payslips/available?limit=3');
    assert.equal(paged.json().items.length, 3);
    const rest = await call(staff, 'GET', `/api/staff/payslips/available?limit=3&cursor=${paged.json().next_cursor}`);
    assert.deepEqual(
      rest.json().items.map((p: { id: string }) => p.id),
      [released],
    );

    // The organization stops delegating: none of its payslips is available any more.
    await db.updateTable('organizations').set({ virements_salaires: 'client' }).where('id', '=', soleil).execute();
    assert.deepEqual(
      (await available()).map((p) => p.id),
      [payableLumiere],
    );

    for (const [query, error] of [
      ['?period=2027-1', 'invalid_period'],
      ['?org_id=x', 'invalid_org_id'],
      ['?limit=201', 'invalid_limit'],
      ['?cursor=%%%', 'invalid_cursor'],
    ]) {
      const res = await call(staff, 'GET', `/api/staff/payslips/available${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error, error, query);
    }
    assert.equal((await call(agent, 'GET', '/api/staff/payslips/available')).statusCode, 403);
  });
});
