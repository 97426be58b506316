/**
 * The operator's identity and bank account as settings: the environment variables are the
 * defaults, a value staff save wins, checked by the rules the variables are checked by, audited;
 * invoices and their e-mails read the settings in force.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { xmlTexts as texts } from '../support/documents.ts';
import { operatorSettings, operatorWarning } from '../../src/operator/operator.service.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

const ENV = { OPERATOR_NAME: 'Odentas Paie', OPERATOR_IBAN: 'FR7630004000031234567890143', OPERATOR_BIC: 'BNPAFRPP' };
/** No operator variable at all (the test helper's defaults emptied). */
const NO_OPERATOR = { OPERATOR_SIRET: '', OPERATOR_VAT_ID: '', OPERATOR_ADDRESS: '', OPERATOR_POSTCODE: '', OPERATOR_CITY: '' };

async function setup(t: Parameters<typeof build>[0], env: Record<string, string> = ENV) {
  const { app, database, config } = await build(t, { env });
  const db = database.db;
  const org = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const admin = await member(app, db, org, 'admin@soleil.example', 'ADMIN');
  const call = (who: { cookie: string } | null, method: 'GET' | 'PATCH', payload?: object) =>
    app.inject({ method, url: '/api/staff/operator', headers: who ? { cookie: who.cookie } : {}, ...(payload ? { payload } : {}) });
  return { app, db, config, org, staff, admin, call };
}

describe('/api/staff/operator', () => {
  it('should give the environment as defaults, save what staff change, and audit it', async (t) => {
    const { db, config, staff, call } = await setup(t);
    const first = await call(staff, 'GET');
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json(), {
      name: 'Odentas Paie',
      siren: '812345678',
      siret: '81234567800021',
      vat: 'FR40812345678',
      address: '12 rue de la Paix',
      postcode: '75002',
      city: 'Paris',
      iban: 'FR7630004000031234567890143',
      bic: 'BNPAFRPP',
      saved: [],
      missing: { invoices: [], sepa: [] },
      updated_at: null,
    });

    const res = await call(staff, 'PATCH', {
      name: ' Odentas Paie SAS ',
      siret: '843 127 630 00013',
      vat: 'fr38 843127630',
      iban: 'fr76 3000 6000 0112 3456 7890 189',
      bic: 'agrifrpp',
    });
    assert.equal(res.statusCode, 200, res.body);
    const saved = res.json();
    assert.deepEqual(
      { ...saved, updated_at: typeof saved.updated_at },
      {
        name: 'Odentas Paie SAS',
        siren: '843127630',
        siret: '84312763000013',
        vat: 'FR38843127630',
        address: '12 rue de la Paix',
        postcode: '75002',
        city: 'Paris',
        iban: 'FR7630006000011234567890189',
        bic: 'AGRIFRPP',
        saved: ['name', 'siret', 'vat', 'iban', 'bic'],
        missing: { invoices: [], sepa: [] },
        updated_at: 'string',
      },
    );
    assert.deepEqual((await call(staff, 'GET')).json(), saved);
    assert.equal((await operatorSettings(db, config)).iban, 'FR7630006000011234567890189', 'the one function reads the saved value');

    // null: back to the environment variable; "": saved as none (the variable no longer applies).
    const back = (await call(staff, 'PATCH', { iban: null, bic: null, city: '' })).json();
    assert.deepEqual([back.iban, back.bic, back.city, back.saved], ['FR7630004000031234567890143', 'BNPAFRPP', '', ['name', 'siret', 'vat', 'city']]);
    assert.deepEqual(back.missing, { invoices: ['city'], sepa: [] });
    const unchanged = await call(staff, 'PATCH', { name: 'Odentas Paie SAS' });
    assert.equal(unchanged.statusCode, 200);

    const events = await db
      .selectFrom('module_events')
      .select(['org_id', 'action', 'subject_type', 'actor_email', 'details'])
      .where('subject_type', '=', 'operator')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events,
      [
        {
          org_id: null,
          action: 'operator.updated',
          subject_type: 'operator',
          actor_email: 'staff@ops.example',
          details: { changed: ['name', 'siret', 'vat', 'iban', 'bic'] },
        },
        { org_id: null, action: 'operator.updated', subject_type: 'operator', actor_email: 'staff@ops.example', details: { changed: ['city', 'iban', 'bic'] } },
      ],
      'one event a change, no event for a save that changes nothing, never a value',
    );
  });

  it('should refuse a wrong value with the rules of the environment variables (400, nothing saved)', async (t) => {
    const { db, staff, call } = await setup(t);
    const cases: Array<[object, string, RegExp?]> = [
      [{ siren: '12345' }, 'invalid_siren', /SIREN \(9 chiffres\)/],
      [{ siret: '1234567890123' }, 'invalid_siret'],
      [{ siren: '843127630' }, 'invalid_siret', /doit commencer par le SIREN \(843127630\)/],
      [{ vat: 'F1' }, 'invalid_vat'],
      [{ postcode: '7500' }, 'invalid_postcode'],
      [{ iban: 'not an iban' }, 'invalid_iban'],
      [{ bic: 'AGRI' }, 'invalid_bic'],
      [{ name: '' }, 'missing_name'],
      [{ name: 42 }, 'invalid_name'],
      [{ address: 'x'.repeat(201) }, 'invalid_address'],
      [{ city: 'Paris\u0007' }, 'invalid_city'],
    ];
    for (const [body, code, message] of cases) {
      const res = await call(staff, 'PATCH', body);
      assert.deepEqual([res.statusCode, res.json().error], [400, code], JSON.stringify(body));
      assert.equal(typeof res.json().message, 'string');
      if (message) assert.match(res.json().message, message);
    }
    // The same rules refuse the same values in the environment.
    for (const env of [{ OPERATOR_SIREN: '12345' }, { OPERATOR_POSTCODE: '7500' }, { OPERATOR_IBAN: 'not an iban' }, { OPERATOR_ADDRESS: 'x'.repeat(201) }]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
    assert.deepEqual(await db.selectFrom('module_events').select('id').where('subject_type', '=', 'operator').execute(), []);
    assert.deepEqual((await call(staff, 'GET')).json().saved, []);
  });

  it('should refuse in a text what the text rule of every other field refuses: a bidirectional override, a control character', async (t) => {
    const { staff, call } = await setup(t);
    assert.equal((await call(staff, 'PATCH', { city: 'Paris \u202e 2' })).json().error, 'invalid_city');
    assert.equal((await call(staff, 'PATCH', { name: 'abc\u202edcba' })).json().error, 'invalid_name');
    assert.equal((await call(staff, 'PATCH', { address: '1 rue\u001f' })).json().error, 'invalid_address');
    const res = await call(staff, 'PATCH', { city: '  Saint-Étienne  ' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().city, 'Saint-Étienne');
  });

  it('should be staff only', async (t) => {
    const { admin, call } = await setup(t);
    assert.deepEqual([(await call(null, 'GET')).statusCode, (await call(null, 'PATCH', { name: 'X' })).statusCode], [401, 401]);
    assert.deepEqual([(await call(admin, 'GET')).statusCode, (await call(admin, 'PATCH', { name: 'X' })).statusCode], [403, 403]);
  });

  it('should name every missing setting and what it disables, until staff set them; invoices then use them', async (t) => {
    const { app, org, staff, call, config, db } = await setup(t, NO_OPERATOR);
    const warning = operatorWarning(await operatorSettings(db, config));
    assert.deepEqual(warning?.variables, [
      'OPERATOR_SIRET',
      'OPERATOR_VAT_ID',
      'OPERATOR_ADDRESS',
      'OPERATOR_POSTCODE',
      'OPERATOR_CITY',
      'OPERATOR_IBAN',
      'OPERATOR_BIC',
    ]);
    assert.equal(
      warning?.message,
      'operator settings missing, set them on /staff/operateur or with these variables: OPERATOR_SIRET, OPERATOR_VAT_ID, OPERATOR_ADDRESS, OPERATOR_POSTCODE, OPERATOR_CITY (invoice documents, Factur-X); OPERATOR_IBAN, OPERATOR_BIC (SEPA files: salary transfer batches, invoices paid by transfer)',
    );
    assert.deepEqual((await call(staff, 'GET')).json().missing, { invoices: ['siret', 'vat', 'address', 'postcode', 'city'], sepa: ['iban', 'bic'] });

    await db
      .updateTable('organizations')
      .set({ email_notifs: ['compta@soleil.example'] })
      .where('id', '=', org)
      .execute();
    const created = await app.inject({
      method: 'POST',
      url: '/api/staff/facturation/bulk-create',
      headers: { cookie: staff.cookie },
      payload: {
        invoice_type: 'paie_mensuelle',
        payment_method: 'virement',
        invoices: [{ org_id: org, lines: [{ label: 'Paie', quantity: 1, unit_price: '90.00', vat_rate: '20.00' }] }],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const invoice = created.json().created[0].id as string;
    // The document's job fails with the missing settings as its reason; the invoice says so.
    await app.jobs.worker.runDue();
    const refused = await app.inject({ method: 'GET', url: `/api/staff/facturation/${invoice}/pdf-url`, headers: { cookie: staff.cookie } });
    assert.deepEqual([refused.statusCode, refused.json().error], [409, 'document_failed']);
    const failed = await db.selectFrom('jobs').select(['id', 'status']).where('subject_id', '=', invoice).executeTakeFirstOrThrow();
    assert.equal(failed.status, 'failed');

    const res = await call(staff, 'PATCH', {
      name: 'Odentas Paie SAS',
      siret: '84312763000013',
      vat: 'FR38843127630',
      address: '5 rue Molière',
      postcode: '69001',
      city: 'Lyon',
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPP',
    });
    assert.deepEqual(res.json().missing, { invoices: [], sepa: [] });
    assert.equal(operatorWarning(await operatorSettings(db, config)), null);
    // Retried, the job makes the document with the settings now saved.
    assert.equal((await app.inject({ method: 'POST', url: `/api/staff/jobs/${failed.id}/retry`, headers: { cookie: staff.cookie } })).statusCode, 200);
    assert.equal(await app.jobs.worker.runDue(), 1);
    const xml = await app.inject({ method: 'GET', url: `/api/staff/facturation/${invoice}/factur-x.xml`, headers: { cookie: staff.cookie } });
    assert.equal(xml.statusCode, 200, xml.body);
    assert.deepEqual(texts(xml.body, 'SellerTradeParty/Name'), ['Odentas Paie SAS']);
    assert.deepEqual(texts(xml.body, 'SellerTradeParty//CityName'), ['Lyon']);
    assert.deepEqual(texts(xml.body, 'PayeePartyCreditorFinancialAccount/IBANID'), ['FR7630006000011234567890189']);

    // The e-mail gives the account in force.
    const notified = await app.inject({
      method: 'POST',
      url: '/api/staff/facturation/bulk-notify',
      headers: { cookie: staff.cookie },
      payload: { invoice_ids: [invoice] },
    });
    assert.equal(notified.statusCode, 200, notified.body);
    const mail = await db.selectFrom('mail_outbox').select(['text_body']).where('kind', '=', 'invoice').executeTakeFirstOrThrow();
    assert.match(mail.text_body, /Odentas Paie SAS/);
    assert.match(mail.text_body, /FR76 3000 6000 0112 3456 7890 189/);
  });
});
