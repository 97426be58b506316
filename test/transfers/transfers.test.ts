import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { usingPostgres } from '../helper.ts';
import { assertValidXml, xmlTexts as texts } from '../support/documents.ts';
import { inDays, setup } from '../payslips/support.ts';
import { numberingYear } from '../../src/format/calendar.ts';

const YEAR = numberingYear(new Date());
const UNKNOWN = '6f1c2d3e-0000-4000-8000-000000000000';
const XSD = path.join(import.meta.dirname, '..', 'fixtures', 'pain.001.001.03.xsd');

/** Validates the XML against the pain.001.001.03 schema (xmllint-wasm); throws its report otherwise. */
const assertValidPain001 = (xml: string) => assertValidXml(xml, XSD);

describe('POST /api/staff/virements', () => {
  it('should make a batch of available payslips, take them, and refuse them to a second batch', async (t) => {
    const { db, soleil, staff, compta, call, helene, marc, payslip, batch, available } = await setup(t);
    const jan = await payslip(soleil, helene, '2027-01', '1642.40');
    const feb = await payslip(soleil, marc, '2027-02', '980.55');
    const date = inDays(5);
    const res = await batch([jan, feb], date);
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(
      { ...body, id: undefined, created_at: undefined },
      {
        id: undefined,
        org_id: soleil,
        org_name: 'Théâtre du Soleil',
        reference: `VIR-${YEAR}-000001`,
        execution_date: date,
        count: 2,
        total: '2622.95',
        status: 'genere',
        created_at: undefined,
        executed_at: null,
        cancelled_at: null,
        periods: ['2027-01', '2027-02'],
      },
    );
    assert.deepEqual(
      (await call(compta, 'GET', '/api/payslips')).json().items.map((p: { transfer_status: string }) => p.transfer_status),
      ['genere', 'genere'],
    );
    assert.deepEqual(await available(), []);

    const detail = (await call(staff, 'GET', `/api/staff/virements/${body.id}`)).json();
    assert.deepEqual(detail.items, [
      { payslip_id: jan, creditor_name: 'Hélène Lefèvre', iban_last4: '0189', period: '2027-01', amount: '1642.40' },
      { payslip_id: feb, creditor_name: 'Marc Dupont', iban_last4: '3000', period: '2027-02', amount: '980.55' },
    ]);

    const again = await batch([feb, UNKNOWN, 'pas-un-id', jan.toUpperCase()]);
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().error, 'payslip_unavailable');
    assert.deepEqual(again.json().payslip_ids, [feb, UNKNOWN, 'pas-un-id', jan.toUpperCase()]);
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, 1, 'nothing created');
    const events = await db.selectFrom('module_events').select(['action', 'details']).where('subject_type', '=', 'transfer').execute();
    assert.deepEqual(events, [{ action: 'transfer.created', details: { reference: `VIR-${YEAR}-000001`, count: 2, total: '2622.95', execution_date: date } }]);
    assert.ok(!JSON.stringify(events).includes('FR76'), 'no IBAN in the audit trail');
  });

  it('should refuse the whole batch when one payslip is not available, naming only the refused ones', async (t) => {
    const { db, soleil, lumiere, autonome, call, helene, zoe, leonie, autonomeEmployee, payslip, batch, available } = await setup(t);
    const good = await payslip(soleil, helene, '2027-01', '1500.00');
    const noIban = await payslip(soleil, zoe, '2027-01', '1100.00');
    const zero = await payslip(soleil, helene, '2027-02', '0.00');
    const annule = await payslip(soleil, helene, '2027-03', '1400.00');
    await db.updateTable('payslips').set({ status: 'annule' }).where('id', '=', annule).execute();
    const res = await batch([good, noIban, zero, annule, UNKNOWN, good]);
    assert.equal(res.statusCode, 409, res.body);
    assert.deepEqual(res.json().payslip_ids, [noIban, zero, annule, UNKNOWN]);
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, 0);
    assert.deepEqual(
      (await available()).map((p) => p.id),
      [good],
      'the good one is still available',
    );

    const selfPaid = await payslip(autonome, autonomeEmployee, '2027-01', '900.00');
    assert.deepEqual((await batch([selfPaid])).json().payslip_ids, [selfPaid], 'an organization that pays its salaries itself');
    const theirs = await payslip(lumiere, leonie, '2027-01', '1200.00');
    const mixed = await batch([good, theirs]);
    assert.equal(mixed.statusCode, 400);
    assert.equal(mixed.json().error, 'mixed_organizations');
    const onlyUnknown = await batch([UNKNOWN]);
    assert.equal(onlyUnknown.statusCode, 409);
    assert.deepEqual(onlyUnknown.json().payslip_ids, [UNKNOWN]);

    // Repeats count once: the payslip is paid once.
    const once = await batch([good, good.toUpperCase()]);
    assert.equal(once.statusCode, 201, once.body);
    assert.deepEqual([once.json().count, once.json().total], [1, '1500.00']);
    void call;
  });

  it('should answer the documented 400s, 403 and 413, and take bulk bodies up to 4 MiB', async (t) => {
    const { soleil, agent, staff, call, helene, payslip, batch } = await setup(t);
    const id = await payslip(soleil, helene, '2027-01', '1500.00');
    const cases: Array<[unknown, unknown, string]> = [
      [undefined, inDays(1), 'missing_payslip_ids'],
      [[], inDays(1), 'missing_payslip_ids'],
      [id, inDays(1), 'invalid_payslip_ids'],
      [[id, 42], inDays(1), 'invalid_payslip_ids'],
      [[id], '', 'missing_execution_date'],
      [[id], '2027-02-30', 'invalid_execution_date'],
      [[id], inDays(-1), 'invalid_execution_date'],
      [[id], inDays(400), 'invalid_execution_date'],
      [[id], 20270101, 'invalid_execution_date'],
    ];
    for (const [ids, date, error] of cases) {
      const res = await batch(ids, date);
      assert.equal(res.statusCode, 400, `${JSON.stringify([ids, date])} ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify([ids, date]));
    }
    assert.equal((await call(agent, 'POST', '/api/staff/virements', { payslip_ids: [id], execution_date: inDays(1) })).statusCode, 403);

    // 10,000 ids (about 390 KiB, over the 64 KiB of other routes) are read and refused by name.
    const many = Array.from({ length: 10_000 }, (_, i) => `6f1c2d3e-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const bulk = await batch(many);
    assert.equal(bulk.statusCode, 409, bulk.body.slice(0, 200));
    assert.equal(bulk.json().payslip_ids.length, 10_000);
    assert.equal((await batch([...many, UNKNOWN])).json().error, 'invalid_payslip_ids', 'at most 10,000 payslips');
    const tooBig = await call(staff, 'POST', '/api/staff/virements', { payslip_ids: ['x'.repeat(4 * 1024 * 1024)], execution_date: inDays(1) });
    assert.equal(tooBig.statusCode, 413);
    assert.equal(tooBig.json().error, 'payload_too_large');
  });

  it('should keep the IBAN as it was at commit', async (t) => {
    const { soleil, staff, agent, call, helene, payslip, batch } = await setup(t);
    const id = (await batch([await payslip(soleil, helene, '2027-01', '1500.00')])).json().id;
    assert.equal((await call(agent, 'PATCH', `/api/salaries/${helene}`, { iban: 'DE89 3704 0044 0532 0130 00', bic: null })).statusCode, 200);
    const xml = (await call(staff, 'GET', `/api/staff/virements/${id}/sepa.xml`)).body;
    assert.deepEqual(texts(xml, 'IBAN'), ['FR7630004000031234567890143', 'FR7630006000011234567890189']);
  });
});

describe('executed and cancel', () => {
  it('should lock an executed batch, and give a cancelled one’s payslips back', async (t) => {
    const { db, soleil, staff, compta, call, helene, marc, payslip, batch, available } = await setup(t);
    const jan = await payslip(soleil, helene, '2027-01', '1500.00');
    const feb = await payslip(soleil, marc, '2027-02', '980.50');
    const first = (await batch([jan, feb], inDays(2))).json();

    const cancel = await call(staff, 'POST', `/api/staff/virements/${first.id}/cancel`);
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal(cancel.json().status, 'annule');
    assert.ok(cancel.json().cancelled_at);
    assert.deepEqual((await available()).map((p) => p.id).sort(), [jan, feb].sort(), 'available again');
    assert.deepEqual(
      (await call(compta, 'GET', '/api/payslips')).json().items.map((p: { transfer_status: null }) => p.transfer_status),
      [null, null],
    );
    const again = await call(staff, 'POST', `/api/staff/virements/${first.id}/cancel`);
    assert.deepEqual([again.statusCode, again.json().error], [409, 'transfer_cancelled']);
    assert.deepEqual([(await call(staff, 'POST', `/api/staff/virements/${first.id}/executed`)).json().error], ['transfer_cancelled']);
    const cancelledFile = await call(staff, 'GET', `/api/staff/virements/${first.id}/sepa.xml`);
    assert.deepEqual([cancelledFile.statusCode, cancelledFile.json().error], [409, 'transfer_cancelled']);

    // Executed on its day: a batch is not marked executed before its execution date.
    const second = (await batch([jan, feb], inDays(0))).json();
    assert.equal(second.reference, `VIR-${YEAR}-000002`);
    const executed = await call(staff, 'POST', `/api/staff/virements/${second.id}/executed`);
    assert.equal(executed.statusCode, 200);
    assert.equal(executed.json().status, 'execute');
    assert.ok(executed.json().executed_at);
    assert.deepEqual(
      (await call(compta, 'GET', '/api/payslips')).json().items.map((p: { transfer_status: string }) => p.transfer_status),
      ['execute', 'execute'],
    );
    for (const action of ['cancel', 'executed']) {
      const res = await call(staff, 'POST', `/api/staff/virements/${second.id}/${action}`);
      assert.deepEqual([res.statusCode, res.json().error], [409, 'transfer_executed'], action);
    }
    assert.deepEqual(await available(), []);
    assert.deepEqual((await batch([jan])).json().payslip_ids, [jan]);
    for (const url of [`/api/staff/virements/${UNKNOWN}/cancel`, '/api/staff/virements/nope/executed']) {
      assert.equal((await call(staff, 'POST', url)).json().error, 'not_found');
    }

    const list = (await call(staff, 'GET', `/api/staff/virements?org_id=${soleil}`)).json();
    // Newest execution date first: the cancelled one was for later (in 2 days), the executed one for today.
    assert.deepEqual(
      list.items.map((b: { reference: string; status: string }) => [b.reference, b.status]),
      [
        [`VIR-${YEAR}-000001`, 'annule'],
        [`VIR-${YEAR}-000002`, 'execute'],
      ],
    );
    assert.deepEqual(
      (await call(staff, 'GET', '/api/staff/virements?status=annule')).json().items.map((b: { id: string }) => b.id),
      [first.id],
    );
    assert.equal((await call(staff, 'GET', '/api/staff/virements?status=paye')).json().error, 'invalid_status');
    const events = await db.selectFrom('module_events').select('action').where('subject_type', '=', 'transfer').orderBy('id').execute();
    assert.deepEqual(
      events.map((e) => e.action),
      ['transfer.created', 'transfer.cancelled', 'transfer.created', 'transfer.executed'],
    );
  });
});

describe('GET /api/staff/virements/{id}/sepa.xml', () => {
  it('should write a pain.001.001.03 file valid against its schema, with counts and sums to the cent', async (t) => {
    const { soleil, staff, call, helene, marc, payslip, batch } = await setup(t);
    // Amounts whose floating-point sum is not exact (0.1 + 0.2 …).
    const amounts = ['0.10', '0.20', '1642.40', '980.55', '0.07', '1234567.89', '0.01'];
    const ids = [];
    for (const [i, amount] of amounts.entries()) ids.push(await payslip(soleil, i % 2 ? marc : helene, `2027-${String(i + 1).padStart(2, '0')}`, amount));
    const date = inDays(4);
    const made = (await batch(ids, date)).json();
    assert.equal(made.total, '1237191.22');

    const res = await call(staff, 'GET', `/api/staff/virements/${made.id}/sepa.xml`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    assert.equal(res.headers['content-disposition'], `attachment; filename="VIR-${YEAR}-000001.xml"`);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const xml = res.body;
    await assertValidPain001(xml);
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain\.001\.001\.03"/);
    assert.deepEqual(texts(xml, 'MsgId'), [`VIR-${YEAR}-000001`]);
    assert.deepEqual(texts(xml, 'NbOfTxs'), ['7', '7']);
    assert.deepEqual(texts(xml, 'CtrlSum'), ['1237191.22', '1237191.22']);
    assert.deepEqual(texts(xml, 'InstdAmt'), amounts);
    assert.deepEqual(texts(xml, 'InstdAmt/@Ccy'), Array(7).fill('EUR'));
    assert.deepEqual(texts(xml, 'ReqdExctnDt'), [date]);
    assert.deepEqual(
      texts(xml, 'Ustrd'),
      amounts.map((_, i) => `Salaire 2027-${String(i + 1).padStart(2, '0')}`),
    );
    assert.deepEqual(
      texts(xml, 'EndToEndId'),
      ids.map((id) => id.replace(/-/g, '')),
    );
    // The debtor is the operator; the creditors the employees, names in the SEPA character set.
    assert.deepEqual(texts(xml, 'Dbtr/Nm'), ['Odentas Paie']);
    assert.deepEqual(texts(xml, 'DbtrAcct//IBAN'), ['FR7630004000031234567890143']);
    assert.deepEqual(texts(xml, 'DbtrAgt//BIC'), ['BNPAFRPP']);
    const creditors = texts(xml, 'Cdtr/Nm');
    assert.deepEqual(
      creditors,
      amounts.map((_, i) => (i % 2 ? 'Marc Dupont' : 'Helene Lefevre')),
    );
    assert.deepEqual(
      texts(xml, 'CdtrAcct//IBAN'),
      amounts.map((_, i) => (i % 2 ? 'DE89370400440532013000' : 'FR7630006000011234567890189')),
    );
    assert.deepEqual(texts(xml, 'CdtrAgt//BIC'), ['AGRIFRPP', 'AGRIFRPP', 'AGRIFRPP', 'AGRIFRPP'], 'Marc has no BIC: IBAN only');

    const twice = (await call(staff, 'GET', `/api/staff/virements/${made.id}/sepa.xml`)).body;
    assert.equal(twice, xml, 'every download is the same file');
  });

  it('should refuse a batch without the operator account (409 operator_account_missing, nothing made), 404 for an unknown batch', async (t) => {
    const { db, soleil, staff, agent, call, helene, payslip, batch, available } = await setup(t, {});
    const jan = await payslip(soleil, helene, '2027-01', '1500.00');
    const res = await batch([jan]);
    assert.deepEqual([res.statusCode, res.json().error], [409, 'operator_account_missing']);
    assert.match(res.json().message, /page Opérateur/);
    assert.deepEqual(await db.selectFrom('transfers').select('id').execute(), []);
    assert.deepEqual(await db.selectFrom('files').select('id').where('content_type', '=', 'application/xml').execute(), []);
    assert.deepEqual(
      (await available()).map((p) => p.id),
      [jan],
      'still to pay',
    );
    assert.equal((await call(staff, 'GET', `/api/staff/virements/${UNKNOWN}/sepa.xml`)).statusCode, 404);
    assert.equal((await call(agent, 'GET', `/api/staff/virements/${UNKNOWN}/sepa.xml`)).statusCode, 403);
  });
});

describe('GET /api/virements', () => {
  it('should show the money set its organization’s batches, cancelled ones included, and never an IBAN', async (t) => {
    const { soleil, lumiere, admin, agent, compta, lumiereCompta, staff, call, helene, marc, leonie, payslip, batch } = await setup(t);
    const first = (await batch([await payslip(soleil, helene, '2027-01', '1500.00')], inDays(1))).json();
    await call(staff, 'POST', `/api/staff/virements/${first.id}/cancel`);
    const second = (await batch([await payslip(soleil, helene, '2027-02', '1500.00'), await payslip(soleil, marc, '2027-02', '980.50')], inDays(2))).json();
    await batch([await payslip(lumiere, leonie, '2027-02', '1200.00')]);
    for (const who of [admin, compta]) {
      const res = await call(who, 'GET', '/api/virements');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        items: [
          { id: second.id, reference: second.reference, execution_date: inDays(2), periods: ['2027-02'], count: 2, total: '2480.50', status: 'genere' },
          { id: first.id, reference: first.reference, execution_date: inDays(1), periods: ['2027-01'], count: 1, total: '1500.00', status: 'annule' },
        ],
        next_cursor: null,
      });
      for (const secret of ['FR76', 'DE89', '0189', 'IBAN', 'iban']) assert.ok(!res.body.includes(secret), secret);
    }
    const page = (await call(compta, 'GET', '/api/virements?limit=1')).json();
    assert.deepEqual(
      page.items.map((b: { id: string }) => b.id),
      [second.id],
    );
    assert.deepEqual(
      (await call(compta, 'GET', `/api/virements?limit=1&cursor=${page.next_cursor}`)).json().items.map((b: { id: string }) => b.id),
      [first.id],
    );
    assert.equal((await call(agent, 'GET', '/api/virements')).statusCode, 403);
    assert.equal((await call(lumiereCompta, 'GET', '/api/virements')).json().items.length, 1);
  });
});

describe('two batches racing for one payslip (PostgreSQL)', () => {
  it('should let exactly one of 12 concurrent batches take it', {
    skip: usingPostgres ? false : 'PGlite has one session: no two transactions run at once',
  }, async (t) => {
    const { db, soleil, helene, marc, payslip, batch } = await setup(t);
    const contested = await payslip(soleil, helene, '2027-01', '1500.00');
    const others = [];
    for (let i = 0; i < 12; i++) others.push(await payslip(soleil, marc, `2026-${String((i % 12) + 1).padStart(2, '0')}`, '10.00'));
    // Each batch takes the contested payslip and one of its own, in either order.
    const answers = await Promise.all(others.map((own, i) => batch(i % 2 ? [contested, own] : [own, contested])));
    const created = answers.filter((a) => a.statusCode === 201);
    assert.equal(created.length, 1, answers.map((a) => `${a.statusCode} ${a.body.slice(0, 80)}`).join('\n'));
    for (const refused of answers.filter((a) => a.statusCode !== 201)) {
      assert.equal(refused.statusCode, 409);
      assert.deepEqual(refused.json().payslip_ids, [contested]);
    }
    const lines = await db.selectFrom('transfer_items').select(['payslip_id']).where('payslip_id', '=', contested).execute();
    assert.equal(lines.length, 1, 'one line pays it');
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, 1, 'the refused batches left nothing');
  });

  it('should never let the database hold a payslip in two live batches', { skip: usingPostgres ? false : 'PGlite: see above' }, async (t) => {
    const { db, soleil, helene, payslip, batch } = await setup(t);
    const id = await payslip(soleil, helene, '2027-01', '1500.00');
    const made = (await batch([id])).json();
    const copy = await db
      .insertInto('transfers')
      .values({ org_id: soleil, reference: 'VIR-1999-000001', execution_date: '2030-01-01', count: 1, total: '1500.00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await assert.rejects(
      db
        .insertInto('transfer_items')
        .values({
          transfer_id: copy.id,
          org_id: soleil,
          payslip_id: id,
          position: 0,
          creditor_name: 'X',
          iban: 'FR7630006000011234567890189',
          bic: null,
          amount: '1500.00',
          period: '2027-01',
        })
        .execute(),
      /transfer_items_one_live_batch_key/,
    );
    void made;
  });
});
