import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkEmployeeFields, parseIban } from '../../src/employees/employee.rules.ts';
import { ibanLast4 } from '../../src/money/iban.ts';
import { code } from '../support/rules.ts';

describe('parseIban', () => {
  it('should keep a valid IBAN in electronic form', () => {
    assert.equal(parseIban(' fr76 3000 6000 0112 3456 7890 189 '), 'FR7630006000011234567890189');
    assert.equal(parseIban('DE89370400440532013000'), 'DE89370400440532013000');
  });
  it('should refuse a wrong check digit, a wrong length, an unknown country or a non-string', () => {
    for (const bad of ['FR7630006000011234567890188', 'FR76300060000112345678901', 'XX7630006000011234567890189', '', 42, null]) {
      assert.equal(parseIban(bad), null, String(bad));
    }
  });
  it('should show the last four characters only', () => {
    assert.equal(ibanLast4('FR7630006000011234567890189'), '0189');
    assert.equal(ibanLast4(null), null);
  });
});

describe('checkEmployeeFields', () => {
  it('should normalize a creation', () => {
    assert.deepEqual(
      checkEmployeeFields({
        first_name: '  Élise ',
        last_name: 'Durand  Martin',
        email: ' Elise@Example.COM ',
        category: 'artiste',
        iban: 'fr76 3000 6000 0112 3456 7890 189',
        bic: 'bnpa frpp',
      }),
      {
        first_name: 'Élise',
        last_name: 'Durand Martin',
        email: 'elise@example.com',
        category: 'artiste',
        iban: 'FR7630006000011234567890189',
        bic: 'BNPAFRPP',
        cadre: false,
        pas_rate: null,
        dfs: null,
        address_line: null,
        postcode: null,
        city: null,
        classification: null,
      },
    );
  });
  it('should answer the codes of docs/modules.md for missing and wrong fields', () => {
    assert.equal(
      code(() => checkEmployeeFields({ last_name: 'Durand' })),
      '400 missing_first_name',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'Élise', last_name: '  ' })),
      '400 missing_last_name',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'É', last_name: 'D', iban: 'FR7630006000011234567890188' })),
      '400 invalid_iban',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'É', last_name: 'D', bic: 'BNP' })),
      '400 invalid_bic',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'É', last_name: 'D', category: 'cadre' })),
      '400 invalid_category',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'É', last_name: 'D', email: 'pas-une-adresse' })),
      '400 invalid_email',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: '<b>', last_name: 'D' })),
      '400 invalid_first_name',
    );
    // The one input check of names: bidi overrides, C1 controls and lone surrogates are refused too.
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'Élise', last_name: 'Dura\u202End' })),
      '400 invalid_last_name',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'Él\u0085ise', last_name: 'D' })),
      '400 invalid_first_name',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'Élise\ud800', last_name: 'D' })),
      '400 invalid_first_name',
    );
    assert.equal(
      code(() => checkEmployeeFields({ first_name: 'x'.repeat(101), last_name: 'D' })),
      '400 invalid_first_name',
    );
  });
  it('should keep what an edit leaves out, and clear what it sets to null', () => {
    const current = checkEmployeeFields({
      first_name: 'Élise',
      last_name: 'Durand',
      email: 'e@example.com',
      category: 'technicien',
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
    });
    assert.deepEqual(checkEmployeeFields({ last_name: 'Martin', iban: null }, current), { ...current, last_name: 'Martin', iban: null });
    assert.deepEqual(checkEmployeeFields({}, current), current);
    assert.equal(
      code(() => checkEmployeeFields({ first_name: '' }, current)),
      '400 missing_first_name',
    );
  });
});

describe('checkEmployeeFields: an artist\u2019s flat professional deduction', () => {
  const artist = { first_name: 'Élise', last_name: 'Durand', category: 'artiste' };
  it('should keep the deduction the artist agreed to, by the model\u2019s profession, and clear it with null', () => {
    assert.equal(checkEmployeeFields(artist).dfs, null);
    assert.equal(checkEmployeeFields({ ...artist, dfs: 'artiste_musicien' }).dfs, 'artiste_musicien');
    const current = checkEmployeeFields({ ...artist, dfs: 'artiste_dramatique' });
    assert.equal(checkEmployeeFields({ last_name: 'Martin' }, current).dfs, 'artiste_dramatique');
    assert.equal(checkEmployeeFields({ dfs: null }, current).dfs, null);
  });
  it('should refuse another value, and a deduction for someone who is no artist (invalid_dfs)', () => {
    assert.equal(
      code(() => checkEmployeeFields({ ...artist, dfs: 'journaliste' })),
      '400 invalid_dfs',
    );
    assert.equal(
      code(() => checkEmployeeFields({ ...artist, category: 'technicien', dfs: 'artiste_musicien' })),
      '400 invalid_dfs',
    );
    const current = checkEmployeeFields({ ...artist, dfs: 'artiste_musicien' });
    // Becoming a technician with the deduction kept is refused too: the deduction must be cleared.
    assert.equal(
      code(() => checkEmployeeFields({ category: 'technicien' }, current)),
      '400 invalid_dfs',
    );
  });
});

describe('checkEmployeeFields: cadre and pas_rate', () => {
  const name = { first_name: 'Élise', last_name: 'Durand' };
  it("should default to cadre false and pas_rate null, and read a rate as vat_rate (two decimals, 0 to the neutral grid's highest, 43)", () => {
    assert.deepEqual([checkEmployeeFields(name).cadre, checkEmployeeFields(name).pas_rate], [false, null]);
    assert.equal(checkEmployeeFields({ ...name, cadre: true }).cadre, true);
    for (const [pas_rate, stored] of [
      ['7.5', '7.50'],
      [12.25, '12.25'],
      [0, '0.00'],
      ['43', '43.00'],
      ['', null],
      [null, null],
    ] as const) {
      assert.equal(checkEmployeeFields({ ...name, pas_rate }).pas_rate, stored, JSON.stringify(pas_rate));
    }
  });
  it('should keep them when an edit leaves them out, and clear pas_rate with null', () => {
    const current = checkEmployeeFields({ ...name, cadre: true, pas_rate: '7.5' });
    assert.deepEqual(checkEmployeeFields({ last_name: 'Martin' }, current), { ...current, last_name: 'Martin' });
    assert.deepEqual(checkEmployeeFields({ pas_rate: null }, current), { ...current, pas_rate: null });
    assert.deepEqual(checkEmployeeFields({ cadre: false }, current), { ...current, cadre: false });
  });
  it('should refuse wrong values with invalid_cadre / invalid_pas_rate', () => {
    for (const cadre of ['oui', 'true', 1, 0, null, {}]) {
      assert.equal(
        code(() => checkEmployeeFields({ ...name, cadre })),
        '400 invalid_cadre',
        JSON.stringify(cadre),
      );
    }
    for (const pas_rate of ['43.01', '97', '100', '100.01', 101, -1, '7.555', 7.555, '7,5', 'abc', true, [7]]) {
      assert.equal(
        code(() => checkEmployeeFields({ ...name, pas_rate })),
        '400 invalid_pas_rate',
        JSON.stringify(pas_rate),
      );
    }
  });
});

describe('checkEmployeeFields: address, classification, and names the PDFs can print', () => {
  const name = { first_name: 'Zoé', last_name: 'Lefèvre' };
  it('should keep the address and classification trimmed, the postcode in upper case, null when blank', () => {
    const fields = checkEmployeeFields({
      ...name,
      address_line: ' 4  rue des Lilas ',
      postcode: ' 75011',
      city: 'Paris ',
      classification: 'Artiste interprète – groupe 2',
    });
    assert.deepEqual(
      [fields.address_line, fields.postcode, fields.city, fields.classification],
      ['4 rue des Lilas', '75011', 'Paris', 'Artiste interprète – groupe 2'],
    );
    assert.equal(checkEmployeeFields({ ...name, postcode: 'sw1a 1aa' }).postcode, 'SW1A 1AA');
    assert.deepEqual(checkEmployeeFields({ classification: '' }, fields), { ...fields, classification: null });
  });
  it('should refuse a wrong address part or classification with invalid_<field>', () => {
    for (const [input, expected] of [
      [{ address_line: 'x'.repeat(201) }, '400 invalid_address_line'],
      [{ address_line: 'rue\u0000' }, '400 invalid_address_line'],
      [{ postcode: '7' }, '400 invalid_postcode'],
      [{ postcode: '75011!' }, '400 invalid_postcode'],
      [{ city: 42 }, '400 invalid_city'],
      [{ classification: 'x'.repeat(121) }, '400 invalid_classification'],
      [{ classification: '<b>groupe 2</b>' }, '400 invalid_classification'],
    ] as const) {
      assert.equal(
        code(() => checkEmployeeFields({ ...name, ...input })),
        expected,
        JSON.stringify(input),
      );
    }
    assert.equal(checkEmployeeFields({ ...name, classification: 'x'.repeat(120) }).classification?.length, 120);
  });
  it('should accept names in Latin, Greek, Cyrillic, Chinese, Japanese, Arabic and Hebrew', () => {
    for (const [first, last] of [
      ['太郎', '山田'],
      ['عبد الله', 'بن سلمان'],
      ['Ірина', 'Шевченко'],
      ['Νίκος', 'Παπαδόπουλος'],
      ['דוד', 'כהן'],
      ['あきら', 'スズキ'],
      ['Łukasz', 'Dvořák'],
    ]) {
      assert.deepEqual([checkEmployeeFields({ first_name: first, last_name: last }).last_name], [last]);
    }
  });
  it('should refuse with invalid_<field> a name with a character no PDF font draws (Korean, Thai, Devanagari, emoji)', () => {
    for (const [input, expected] of [
      [{ first_name: '민수', last_name: 'Kim' }, '400 invalid_first_name'],
      [{ first_name: 'Somchai', last_name: 'สมชาย' }, '400 invalid_last_name'],
      [{ first_name: 'राज', last_name: 'Patel' }, '400 invalid_first_name'],
      [{ first_name: 'Zoé', last_name: 'Lefèvre 😀' }, '400 invalid_last_name'],
    ] as const) {
      assert.equal(
        code(() => checkEmployeeFields(input)),
        expected,
        JSON.stringify(input),
      );
    }
  });
});
