/**
 * seed-demo with no operator variable at all: it saves a complete, valid fictional operator, so
 * that the demo has an executed batch with its SEPA file and invoices whose documents can be made.
 */
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_OPERATOR, runCommand } from '../../src/cli/commands.ts';
import { build, sessionCookieOf } from '../helper.ts';
import { assertValidXml, xmlTexts as texts } from '../support/documents.ts';
import { todayInFrance } from '../../src/format/french.ts';

const XSD = path.join(import.meta.dirname, '..', 'fixtures', 'pain.001.001.03.xsd');
const NO_OPERATOR = { OPERATOR_SIRET: '', OPERATOR_VAT_ID: '', OPERATOR_ADDRESS: '', OPERATOR_POSTCODE: '', OPERATOR_CITY: '' };

/** The SIREN's and the SIRET's Luhn keys. */
function luhn(digits: string): boolean {
  const sum = [...digits].reverse().reduce((total, c, i) => {
    const d = Number(c) * (i % 2 ? 2 : 1);
    return total + (d > 9 ? d - 9 : d);
  }, 0);
  return sum % 10 === 0;
}

describe('seed-demo: the operator', () => {
  it('should save a valid operator, so that the demo has an executed batch with its SEPA file and invoice documents', async (t) => {
    const { app, database, config } = await build(t, { env: NO_OPERATOR });
    const { db } = database;
    const first = (await runCommand({ db, config }, 'seed-demo', {})) as Record<string, any>;
    assert.deepEqual(first.operator.saved.sort(), ['address', 'bic', 'city', 'iban', 'name', 'postcode', 'siren', 'siret', 'vat']);
    assert.ok(luhn(DEMO_OPERATOR.siren) && luhn(DEMO_OPERATOR.siret) && DEMO_OPERATOR.siret.startsWith(DEMO_OPERATOR.siren));
    assert.equal(DEMO_OPERATOR.vat, `FR${String((12 + 3 * (Number(DEMO_OPERATOR.siren) % 97)) % 97).padStart(2, '0')}${DEMO_OPERATOR.siren}`);

    const signIn = await app.inject({
      method: 'POST',
      url: '/auth/session',
      payload: { token: decodeURIComponent(/#token=([^&]+)/.exec(first.staff.login_url)![1]!) },
    });
    const staff = { cookie: sessionCookieOf(signIn) };
    const get = (url: string) => app.inject({ method: 'GET', url, headers: staff });
    const operator = (await get('/api/staff/operator')).json();
    assert.deepEqual(operator.missing, { invoices: [], sepa: [] });
    assert.equal(operator.iban, DEMO_OPERATOR.iban);

    // Hélène's December: a batch executed the day of the seed, with the file the bank was given.
    const batches = await db.selectFrom('transfers').select(['id', 'status', 'total', 'execution_date', 'sepa_file_id']).orderBy('reference').execute();
    assert.deepEqual(
      batches.map((b) => [b.status, b.total, b.execution_date, Boolean(b.sepa_file_id)]),
      [
        ['execute', '1002.14', todayInFrance(), true],
        ['genere', '111.15', batches[1]!.execution_date, true],
      ],
    );
    const sepa = await get(`/api/staff/virements/${batches[0]!.id}/sepa.xml`);
    assert.equal(sepa.statusCode, 200, sepa.body);
    await assertValidXml(sepa.body, XSD);
    assert.deepEqual(
      [texts(sepa.body, 'Dbtr/Nm'), texts(sepa.body, 'DbtrAcct//IBAN'), texts(sepa.body, 'InstdAmt')],
      [['Odentas Paie (demo)'], [DEMO_OPERATOR.iban], ['1002.14']],
    );

    // Every invoice of the demo gets its Factur-X document from the job worker, the demo operator as seller.
    while ((await app.jobs.worker.runDue()) > 0);
    assert.deepEqual(await db.selectFrom('jobs').select(['kind', 'status']).distinct().orderBy('kind').execute(), [
      { kind: 'invoice.document', status: 'done' },
      { kind: 'payroll.bulletin', status: 'done' },
      { kind: 'payroll.run', status: 'done' },
    ]);
    const invoice = await db.selectFrom('invoices').select('id').orderBy('number').executeTakeFirstOrThrow();
    assert.equal((await get(`/api/staff/facturation/${invoice.id}/pdf-url`)).statusCode, 200);
    const xml = await get(`/api/staff/facturation/${invoice.id}/factur-x.xml`);
    assert.deepEqual(
      [texts(xml.body, 'SellerTradeParty/Name'), texts(xml.body, 'SellerTradeParty/SpecifiedLegalOrganization/ID')],
      [[DEMO_OPERATOR.name], [DEMO_OPERATOR.siren]],
    );

    // A re-run keeps what is saved.
    const second = (await runCommand({ db, config }, 'seed-demo', {})) as Record<string, any>;
    assert.deepEqual(second.operator, { saved: [] });
  });
});
