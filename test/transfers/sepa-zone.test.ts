/**
 * A SEPA file a bank would refuse. Only IBANs of the SEPA zone are transfer-ready
 * (at input, in the available list, at batch creation, SQL and TypeScript alike), and a payee's
 * name is transliterated to the SEPA character set, never written as "-".
 */
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../payslips/support.ts';
import { assertValidXml, xmlTexts } from '../support/documents.ts';
import { isSepaWritable, sepaText } from '../../src/format/sepa.ts';

const XSD = path.join(import.meta.dirname, '..', 'fixtures', 'pain.001.001.03.xsd');

/** Valid IBANs (ibantools) of countries outside the SEPA zone. */
const NON_SEPA = {
  BR: 'BR1800360305000010009795493C1',
  SA: 'SA0380000000608010167519',
  TR: 'TR330006100519786457841326',
  MU: 'MU17BOMM0101101030300200000MUR',
};

describe('sepaText', () => {
  it('should transliterate every script to the SEPA character set, and drop pictographs', () => {
    assert.equal(sepaText('Ñúñez-Łódź'), 'Nunez-Lodz');
    assert.equal(sepaText('Дворжак 山田 太郎'), 'Dvorzhak ShanTian TaiLang');
    assert.equal(sepaText('عربي 😀'), 'rby');
    assert.equal(sepaText('Hélène Lefèvre'), 'Helene Lefevre');
    assert.equal(sepaText('Ærø Straße'), 'Aero Strasse');
    assert.equal(isSepaWritable('😀'), false);
    assert.equal(isSepaWritable('👍🏽 🇫🇷'), false);
    assert.equal(isSepaWritable('••• ~~~'), false);
    assert.equal(isSepaWritable('李'), true);
  });
});

describe('IBANs outside the SEPA zone', () => {
  it('should refuse them where the IBAN is typed, with a French message that says why', async (t) => {
    const { call, agent, helene } = await setup(t);
    for (const [country, iban] of Object.entries(NON_SEPA)) {
      const created = await call(agent, 'POST', '/api/salaries', { first_name: 'Ana', last_name: 'Souza', iban });
      assert.equal(created.statusCode, 400, `${country}: ${created.body}`);
      assert.equal(created.json().error, 'invalid_iban');
      assert.match(created.json().message, /zone SEPA/);
      const edited = await call(agent, 'PATCH', `/api/salaries/${helene}`, { iban });
      assert.equal(edited.statusCode, 400, `${country}: ${edited.body}`);
      assert.equal(edited.json().error, 'invalid_iban');
    }
    // SEPA countries outside the European Union are accepted.
    for (const iban of ['GB29NWBK60161331926819', 'CH9300762011623852957', 'MC5811222000010123456789030']) {
      const res = await call(agent, 'POST', '/api/salaries', { first_name: 'Ana', last_name: 'Souza', iban });
      assert.equal(res.statusCode, 201, res.body);
    }
  });

  it('should neither list nor batch a payslip whose employee has one already stored', async (t) => {
    const { db, soleil, helene, marc, payslip, batch, available } = await setup(t);
    const ok = await payslip(soleil, helene, '2026-10', '1500.00');
    const brazil = await payslip(soleil, marc, '2026-10', '900.00');
    await db.updateTable('employees').set({ iban: NON_SEPA.BR }).where('id', '=', marc).execute();
    assert.deepEqual(
      (await available()).map((p) => p.id),
      [ok],
    );
    const res = await batch([ok, brazil]);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error, 'payslip_unavailable');
    assert.deepEqual(res.json().payslip_ids, [brazil]);
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, 0);
  });
});

describe('Creditor names', () => {
  it('should write names of any script transliterated in a valid SEPA file', async (t) => {
    const { soleil, agent, staff, call, employee, payslip, batch } = await setup(t);
    const dvorak = await employee(agent, 'Дворжак', '山田 太郎', 'FR7630006000011234567890189');
    const nunez = await employee(agent, 'Ñúñez-Łódź', 'عربي', 'DE89370400440532013000');
    const res = await batch([await payslip(soleil, dvorak, '2026-10', '100.00'), await payslip(soleil, nunez, '2026-10', '200.00')]);
    assert.equal(res.statusCode, 201, res.body);
    const file = await call(staff, 'GET', `/api/staff/virements/${res.json().id}/sepa.xml`);
    assert.equal(file.statusCode, 200, file.body);
    await assertValidXml(file.body, XSD);
    const names = xmlTexts(file.body, 'Nm');
    assert.deepEqual(names.slice(-2), ['Dvorzhak ShanTian TaiLang', 'Nunez-Lodz rby']);
  });

  it('should refuse at input a name that leaves nothing once transliterated', async (t) => {
    const { call, agent, helene } = await setup(t);
    for (const [body, code] of [
      [{ first_name: '😀', last_name: 'Dupont' }, 'invalid_first_name'],
      [{ first_name: 'Marc', last_name: '••• 🇫🇷' }, 'invalid_last_name'],
    ] as const) {
      const res = await call(agent, 'POST', '/api/salaries', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, code);
    }
    const edit = await call(agent, 'PATCH', `/api/salaries/${helene}`, { last_name: '🙂' });
    assert.equal(edit.json().error, 'invalid_last_name');
  });

  it('should refuse a batch whose stored payee name leaves nothing, naming the payslip and the employee', async (t) => {
    const { db, soleil, helene, marc, payslip, batch } = await setup(t);
    const ok = await payslip(soleil, helene, '2026-10', '1500.00');
    const emoji = await payslip(soleil, marc, '2026-10', '900.00');
    await db.updateTable('employees').set({ first_name: '😀', last_name: '•••' }).where('id', '=', marc).execute();
    const res = await batch([ok, emoji]);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error, 'creditor_name_unwritable');
    assert.deepEqual(res.json().payslip_ids, [emoji]);
    assert.deepEqual(res.json().employee_ids, [marc]);
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, 0);
  });
});
