/**
 * Money and numbering, hardened. SEPA files a bank would refuse. IBANs of many countries outside
 * the SEPA zone are refused where they are typed and, stored before the check, never listed nor
 * batched; names of many scripts are transliterated into a file valid against the ISO 20022
 * schema, or refused (at input, and at batch creation for stored ones). Invoices out of order:
 * Issue dates before the last invoice or far ahead are refused, and bulks racing with different
 * dates keep the series chronological and gapless (PostgreSQL: on PGlite nothing races).
 */
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isSEPACountry, isValidIBAN } from 'ibantools';
import { build, usingPostgres } from '../helper.ts';
import { createOrg, signedIn } from '../support/fixtures.ts';
import { assertValidXml, xmlTexts } from '../support/documents.ts';
import { setup as payroll } from '../payslips/support.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { addMonths, payrollPeriodWindow } from '../../src/format/calendar.ts';
import { isSepaWritable } from '../../src/format/sepa.ts';
import { addDays } from '../../src/format/calendar.ts';
import { count } from './counts.ts';

const XSD = path.join(import.meta.dirname, '..', 'fixtures', 'pain.001.001.03.xsd');

/**
 * Valid IBANs (ibantools) of countries outside the SEPA zone as ibantools knows it. Albania,
 * Moldova, Montenegro, North Macedonia and Serbia are left out: they joined the SEPA schemes in
 * 2024-2025, and a later ibantools may count them in.
 */
const NON_SEPA = [
  'BR1800360305000010009795493C1',
  'SA0380000000608010167519',
  'TR330006100519786457841326',
  'MU17BOMM0101101030300200000MUR',
  'AE070331234567890123456',
  'AZ21NABZ00000000137010001944',
  'BH67BMAG00001299123456',
  'CR05015202001026284066',
  'DO28BAGR00000001212453611324',
  'GE29NB0000000101904917',
  'IL620108000000099999999',
  'JO94CBJO0010000000000131000302',
  'KW81CBKU0000000000001234560101',
  'KZ86125KZT5004100100',
  'LB62099900000001001901229114',
  'PK36SCBL0000001123456702',
  'PS92PALS000000000400123456702',
  'QA58DOHB00001234567890ABCDEFG',
  'TN5910006035183598478831',
  'UA213223130000026007233566001',
  'EG380019000500000000263180002',
  'BA391290079401028494',
  'XK051212012345678906',
  'FO6264600001631634',
  'GL8964710001000206',
  'VG96VPVG0000012345678901',
  'TL380080012345678910157',
  'SC18SSCB11010000000000001497USD',
  'LC55HEMM000100010012001200023015',
  'IQ98NBIQ850123456789012',
  'BY13NBRB3600900000002Z00AB00',
  'SV62CENR00000000000000700025',
  'GT82TRAJ01020000001210029690',
];

/** IBANs of the SEPA zone, inside and outside the European Union. */
const SEPA = [
  'FR7630006000011234567890189',
  'DE89370400440532013000',
  'GB29NWBK60161331926819',
  'CH9300762011623852957',
  'MC5811222000010123456789030',
  'SM86U0322509800000000270100',
  'NO9386011117947',
  'IS140159260076545510730339',
];

/** Names of many scripts, each one a bank file can write once transliterated. */
const WRITABLE = [
  ['Ñúñez-Łódź', 'Gómez'],
  ['Дворжак', '山田 太郎'],
  ['Ωμέγα', 'Παπαδόπουλος'],
  ['李', '小龍'],
  ['محمد', 'عربي'],
  ['דוד', 'כהן'],
  ['Nguyễn', 'Văn Ánh'],
  ['Şükrü', 'Çağlar'],
  ['Þórður', 'Guðmundsdóttir'],
  ['Ærø', 'Straße'],
  ["O'Brien", 'Mc-Ñeil (II)'],
  ['Zoë', 'Brontë'],
  ['Ивана', 'Јовановић'],
  ['Ⅻ', 'Ⓐnna'],
  ['Ｆｕｌｌ', 'Ｗｉｄｔｈ'],
  ['İlkay', 'Gündoğan'],
] as const;

/**
 * Names a bank file could write (transliterated) but no font of the contracts and bulletins
 * draws: refused at input, their message naming the scripts accepted.
 */
const UNDRAWABLE = ['हिन्दी', 'สมชาย', '민준', 'გიორგი', 'Արամ', 'ᏣᎳᎩ', 'Ἀλέξανδρος', 'Ǆemal', 'عربي 😀', 'Brontë 👩‍🎤'];

/** Names that leave nothing a bank file can write: refused. */
const UNWRITABLE = ['😀', '👍🏽 🇫🇷', '••• ~~~', '---', '🙂🙃', '‍', '☺️', '*#', '“”', '…', '@@', '!!! ???'];

const SEPA_CHARACTERS = /^[A-Za-z0-9/\-?:().,'+ ]+$/;

/** The `n`-th month the payroll accepts ('YYYY-MM'): one payslip per employee and period. */
const period = (n: number) => addMonths(payrollPeriodWindow().first, n);

describe('money hardening: SEPA zone', () => {
  it('should refuse IBANs outside the SEPA zone at input, accept those inside, and never list nor batch stored ones', async (t) => {
    for (const iban of NON_SEPA) assert.ok(isValidIBAN(iban) && !isSEPACountry(iban.slice(0, 2)), iban);
    const { db, agent, soleil, helene, marc, call, payslip, batch, available } = await payroll(t);
    for (const iban of NON_SEPA) {
      for (const spaced of [iban, iban.toLowerCase().replace(/(.{4})/g, '$1 ')]) {
        const created = await call(agent, 'POST', '/api/salaries', { first_name: 'Ana', last_name: 'Souza', iban: spaced });
        assert.equal(created.statusCode, 400, `${spaced}: ${created.body}`);
        assert.equal(created.json().error, 'invalid_iban');
        assert.match(created.json().message, /zone SEPA/);
        const edited = await call(agent, 'PATCH', `/api/salaries/${helene}`, { iban: spaced });
        assert.equal(edited.json().error, 'invalid_iban', spaced);
        count('cases', 2);
      }
    }
    for (const iban of SEPA) {
      const res = await call(agent, 'POST', '/api/salaries', { first_name: 'Ana', last_name: 'Souza', iban });
      assert.equal(res.statusCode, 201, `${iban}: ${res.body}`);
      count('cases');
    }

    // Stored before the check: written straight into the table, one country after another.
    const good = await payslip(soleil, helene, '2026-09', '1500.00');
    for (const [i, iban] of NON_SEPA.entries()) {
      await db.updateTable('employees').set({ iban }).where('id', '=', marc).execute();
      const stored = await payslip(soleil, marc, period(i), `${100 + i}.00`);
      assert.deepEqual(
        (await available()).map((p) => p.id),
        [good],
        iban,
      );
      const res = await batch([good, stored]);
      assert.equal(res.statusCode, 409, `${iban}: ${res.body}`);
      assert.equal(res.json().error, 'payslip_unavailable');
      assert.deepEqual(res.json().payslip_ids, [stored], iban);
      count('cases', 2);
    }
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, 0, 'no batch made');
  });
});

describe('money hardening: creditor names', () => {
  it('should transliterate names of many scripts into a valid SEPA file, and refuse those that leave nothing or that the PDFs cannot draw', async (t) => {
    const { db, agent, soleil, marc, staff, call, employee, payslip, batch } = await payroll(t);
    const payslips: string[] = [];
    for (const [i, [first, last]] of WRITABLE.entries()) {
      const id = await employee(agent, first, last, SEPA[i % SEPA.length]);
      payslips.push(await payslip(soleil, id, '2026-10', `${10 + i}.25`));
      count('cases');
    }
    const made = await batch(payslips);
    assert.equal(made.statusCode, 201, made.body);
    const file = await call(staff, 'GET', `/api/staff/virements/${made.json().id}/sepa.xml`);
    assert.equal(file.statusCode, 200, file.body);
    await assertValidXml(file.body, XSD);
    const names = xmlTexts(file.body, 'Nm').slice(-WRITABLE.length);
    assert.equal(names.length, WRITABLE.length);
    for (const name of names) {
      assert.match(name, SEPA_CHARACTERS);
      assert.match(name, /[A-Za-z0-9]/, `"${name}" keeps a letter or digit`);
      assert.ok(name.length <= 70);
    }
    assert.equal(names[0], 'Nunez-Lodz Gomez');
    assert.equal(names[1], 'Dvorzhak ShanTian TaiLang');
    count('cases');

    for (const bad of UNWRITABLE) {
      assert.equal(isSepaWritable(bad), false, bad);
      for (const body of [
        { first_name: bad, last_name: 'Dupont' },
        { first_name: 'Marc', last_name: bad },
      ]) {
        const res = await call(agent, 'POST', '/api/salaries', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.match(res.json().error, /^(invalid|missing)_(first|last)_name$/);
        count('cases');
      }
    }

    for (const undrawable of UNDRAWABLE) {
      assert.equal(isSepaWritable(undrawable), true, undrawable);
      for (const [body, code] of [
        [{ first_name: undrawable, last_name: 'Dupont' }, 'invalid_first_name'],
        [{ first_name: 'Marc', last_name: undrawable }, 'invalid_last_name'],
      ] as const) {
        const res = await call(agent, 'POST', '/api/salaries', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.equal(res.json().error, code);
        assert.match(res.json().message, /écritures acceptées : latin, grec, cyrillique, chinois, japonais \(kanji et kana\), arabe, hébreu/);
        count('cases');
      }
    }

    // Stored before the check: the batch names the payslip and the employee, and makes nothing.
    const before = (await db.selectFrom('transfers').select('id').execute()).length;
    for (const [i, bad] of UNWRITABLE.entries()) {
      await db.updateTable('employees').set({ first_name: bad, last_name: bad }).where('id', '=', marc).execute();
      const stored = await payslip(soleil, marc, period(i), '99.99');
      const res = await batch([stored]);
      assert.equal(res.statusCode, 409, `${bad}: ${res.body}`);
      assert.equal(res.json().error, 'creditor_name_unwritable');
      assert.deepEqual(res.json().payslip_ids, [stored]);
      assert.deepEqual(res.json().employee_ids, [marc]);
      count('cases');
    }
    assert.equal((await db.selectFrom('transfers').select('id').execute()).length, before);
  });
});

describe('money hardening: invoice dates', () => {
  async function invoicing(t: Parameters<typeof build>[0]) {
    const { app, database } = await build(t);
    const other = usingPostgres ? (await build(t, { database })).app : app;
    const db = database.db;
    const orgs = await Promise.all(['Alpha', 'Beta', 'Gamma'].map((name, i) => createOrg(db, name, `ORG${i}`)));
    const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
    const line = { label: 'Traitement de la paie', quantity: 1, unit_price: '25.00', vat_rate: '20.00' };
    const create = (issue_date: string, size = 1, on = app) =>
      on.inject({
        method: 'POST',
        url: '/api/staff/facturation/bulk-create',
        headers: { cookie: staff.cookie },
        payload: {
          invoice_type: 'paie_mensuelle',
          payment_method: 'prelevement',
          issue_date,
          invoices: Array.from({ length: size }, (_, i) => ({ org_id: orgs[i % orgs.length], lines: [line] })),
        },
      });
    /** Every invoice by number: numbers 1..n in each year, issue dates never decreasing. */
    const assertChronological = async () => {
      const rows = await db.selectFrom('invoices').select(['number', 'issue_date']).orderBy('number').execute();
      const next = new Map<string, number>();
      rows.forEach((row, i) => {
        const year = row.number.slice(2, 6);
        const expected = (next.get(year) ?? 0) + 1;
        next.set(year, expected);
        assert.equal(row.number, `F-${year}-${String(expected).padStart(6, '0')}`, 'no gap');
        if (i > 0)
          assert.ok(row.issue_date >= rows[i - 1]!.issue_date, `${row.number} (${row.issue_date}) after ${rows[i - 1]!.number} (${rows[i - 1]!.issue_date})`);
      });
      return rows;
    };
    return { db, other, create, assertChronological };
  }

  it('should refuse issue dates before the last invoice and far ahead, and keep the series in order', async (t) => {
    const { create, assertChronological } = await invoicing(t);
    const today = todayInFrance();
    assert.equal((await create('2025-12-31')).statusCode, 201);
    assert.equal((await create('2026-06-15', 3)).statusCode, 201);
    for (const before of ['2026-06-14', '2026-01-01', '2025-12-31', '2025-01-01', '2000-01-01', '1999-12-31']) {
      const res = await create(before);
      assert.equal(res.statusCode, 409, `${before}: ${res.body}`);
      assert.equal(res.json().error, 'issue_date_before_last');
      count('cases');
    }
    for (const far of [addDays(today, 6), addDays(today, 30), addDays(today, 366), '2027-12-31', '2099-01-01', '9999-12-31']) {
      const res = await create(far);
      assert.equal(res.statusCode, 400, `${far}: ${res.body}`);
      assert.equal(res.json().error, 'invalid_issue_date');
      count('cases');
    }
    for (const ok of ['2026-06-15', today, addDays(today, 1), addDays(today, 5)]) {
      const res = await create(ok, 2);
      assert.equal(res.statusCode, 201, `${ok}: ${res.body}`);
      count('cases');
    }
    // Once a date ahead is issued, today is before it.
    assert.equal((await create(today)).json().error, 'issue_date_before_last');
    count('cases');
    await assertChronological();
  });

  it('should keep the series chronological and gapless when bulks with dates race (PostgreSQL)', {
    skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL): PGlite runs one session, nothing races',
  }, async (t) => {
    const { other, create, assertChronological } = await invoicing(t);
    const today = todayInFrance();
    let created = 0;
    for (let round = 0; round < 3; round++) {
      // Dates spread over the last month, today and a few days ahead, sent in a shuffled order.
      const dates = Array.from({ length: 16 }, (_, i) => addDays(today, ((i * 11 + round * 5) % 36) - 30));
      const answers = await Promise.all(dates.map((date, i) => create(date, 5 + ((i * 7) % 40), i % 2 ? other : undefined)));
      count('cases', answers.length);
      for (const [i, res] of answers.entries()) {
        assert.ok(
          res.statusCode === 201 || (res.statusCode === 409 && res.json().error === 'issue_date_before_last'),
          `${dates[i]}: ${res.statusCode} ${res.body}`,
        );
        if (res.statusCode === 201) created += res.json().created.length;
      }
      const rows = await assertChronological();
      assert.equal(rows.length, created);
    }
    assert.ok(created > 0);
  });
});
