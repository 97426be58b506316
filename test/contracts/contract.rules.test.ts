import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { numberingYear, parseIsoDate } from '../../src/format/calendar.ts';
import {
  checkContractFields,
  checkDates,
  foldForSearch,
  formatContractNumber,
  grossTotal,
  searchTerms,
  searchTextOf,
  statusAfterCancel,
  statusAfterSigning,
  statusAfterSubmit,
  statusAfterUnsigning,
  assertDatesEditable,
  assertEditable,
} from '../../src/contracts/contract.rules.ts';
import { code } from '../support/rules.ts';
import type { Money } from '../../src/money/money.ts';

const CDDU = { kind: 'CDDU', show_title: 'Le Songe', start_date: '2027-03-01', end_date: '2027-03-31' };

describe('contract numbers', () => {
  it('should write C-YYYY-NNNNNN', () => {
    assert.equal(formatContractNumber(2027, 1), 'C-2027-000001');
    assert.equal(formatContractNumber(2027, 999_999), 'C-2027-999999');
    assert.throws(() => formatContractNumber(2027, 1_000_000));
    assert.throws(() => formatContractNumber(2027, 0));
  });
  it('should count the year in Paris time', () => {
    assert.equal(numberingYear(new Date('2026-12-31T22:59:59Z')), 2026);
    assert.equal(numberingYear(new Date('2026-12-31T23:00:00Z')), 2027, 'midnight in Paris (UTC+1)');
  });
});

describe('search folding', () => {
  it('should ignore case, accents and ligatures', () => {
    assert.equal(foldForSearch('  Théâtre  de l’ŒUVRE '), "theatre de l'oeuvre");
    assert.equal(foldForSearch('Ça GÉNÈRE Æther'), 'ca genere aether');
  });
  it('should fold the employee name, the number and the show into one text', () => {
    assert.equal(
      searchTextOf({ contract_number: 'C-2027-000042', show_title: 'Les Misérables', employee: { first_name: 'Hélène', last_name: 'Lefèvre' } }),
      'helene lefevre c-2027-000042 les miserables',
    );
  });
  it('should split a query into distinct folded words', () => {
    assert.deepEqual(searchTerms('  LEFÈVRE  misérables lefevre '), ['lefevre', 'miserables']);
    assert.deepEqual(searchTerms(undefined), []);
  });
});

describe('parseIsoDate', () => {
  it('should accept real calendar dates only', () => {
    assert.equal(parseIsoDate('2028-02-29'), '2028-02-29');
    for (const bad of ['2027-02-29', '2027-13-01', '2027-3-01', '01/03/2027', '2027-03-01T00:00:00Z', '', 20270301, null]) {
      assert.equal(parseIsoDate(bad), null, String(bad));
    }
  });
});

describe('checkContractFields', () => {
  it('should accept each kind with its own fields', () => {
    assert.deepEqual(checkContractFields({ ...CDDU, job_title: ' Comédienne ', idcc: '3090' }), {
      kind: 'CDDU',
      job_title: 'Comédienne',
      show_title: 'Le Songe',
      idcc: '3090',
      start_date: '2027-03-01',
      end_date: '2027-03-31',
      monthly_gross: null,
    });
    assert.equal(checkContractFields({ kind: 'CDD', start_date: '2027-01-01', end_date: '2027-06-30', monthly_gross: '2100.5' }).monthly_gross, '2100.50');
    assert.equal(checkContractFields({ kind: 'CDI', start_date: '2027-01-01', end_date: null, monthly_gross: 2500 }).end_date, null);
  });
  it('should enforce the rules by kind with the codes of docs/modules.md', () => {
    assert.equal(
      code(() => checkContractFields({ ...CDDU, kind: undefined })),
      '400 missing_kind',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, kind: 'CDDI' })),
      '400 invalid_kind',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, show_title: '  ' })),
      '400 missing_show_title',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, end_date: undefined })),
      '400 missing_end_date',
    );
    assert.equal(
      code(() => checkContractFields({ kind: 'CDD', start_date: '2027-01-01' })),
      '400 missing_end_date',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, end_date: '2027-02-28' })),
      '400 invalid_end_date',
    );
    assert.equal(
      code(() => checkContractFields({ kind: 'CDI', start_date: '2027-01-01', end_date: '2027-12-31' })),
      '400 invalid_end_date',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, start_date: undefined })),
      '400 missing_start_date',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, start_date: '2027-02-30' })),
      '400 invalid_date',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, idcc: '309' })),
      '400 invalid_idcc',
    );
    assert.equal(
      code(() => checkContractFields({ kind: 'CDI', start_date: '2027-01-01', monthly_gross: '-1' })),
      '400 invalid_amount',
    );
    assert.equal(
      code(() => checkContractFields({ kind: 'CDI', start_date: '2027-01-01', monthly_gross: '12.345' })),
      '400 invalid_amount',
    );
    assert.equal(
      code(() => checkContractFields({ ...CDDU, monthly_gross: '1000' })),
      '400 invalid_monthly_gross',
    );
  });
  it('should accept an end date equal to the start date', () => {
    assert.equal(checkContractFields({ ...CDDU, end_date: '2027-03-01' }).end_date, '2027-03-01');
  });
});

describe('checkDates and grossTotal', () => {
  const period = { start_date: '2027-03-01', end_date: '2027-03-31' };
  it('should keep valid dates, amounts and quantities canonical', () => {
    const dates = checkDates(
      [
        { date: '2027-03-01', nature: 'repetition', quantity: 1, amount: '180' },
        { date: '2027-03-31', nature: 'representation', quantity: '2', amount: 231.2 },
        { date: '2027-03-15', nature: 'heures', quantity: '7.5', amount: '0.1' },
      ],
      period,
    );
    assert.deepEqual(dates, [
      { date: '2027-03-01', nature: 'repetition', quantity: '1', amount: '180.00' },
      { date: '2027-03-31', nature: 'representation', quantity: '2', amount: '231.20' },
      { date: '2027-03-15', nature: 'heures', quantity: '7.5', amount: '0.10' },
    ]);
    assert.equal(grossTotal(dates, null), '411.30');
  });
  it('should fall back to the monthly gross without dates', () => {
    assert.equal(grossTotal([], '2100.00' as Money), '2100.00');
    assert.equal(grossTotal([], null), null);
  });
  it('should refuse a date outside the period, and wrong lines, with the codes of docs/modules.md', () => {
    const line = { date: '2027-03-10', nature: 'service', quantity: 1, amount: '100' };
    assert.equal(
      code(() => checkDates([{ ...line, date: '2027-02-28' }], period)),
      '400 invalid_date',
    );
    assert.equal(
      code(() => checkDates([{ ...line, date: '2027-04-01' }], period)),
      '400 invalid_date',
    );
    assert.equal(
      code(() => checkDates([{ ...line, date: '2027-03-32' }], period)),
      '400 invalid_date',
    );
    assert.equal(
      code(() => checkDates([{ ...line, nature: 'concert' }], period)),
      '400 invalid_nature',
    );
    assert.equal(
      code(() => checkDates([{ ...line, quantity: 0 }], period)),
      '400 invalid_quantity',
    );
    assert.equal(
      code(() => checkDates([{ ...line, amount: '-5' }], period)),
      '400 invalid_amount',
    );
    assert.equal(
      code(() => checkDates([{ ...line, amount: undefined }], period)),
      '400 missing_amount',
    );
    assert.equal(
      code(() => checkDates('2027-03-10', period)),
      '400 invalid_dates',
    );
    assert.equal(
      code(() => checkDates([line], { start_date: '2027-03-01', end_date: null })),
      'no error',
      'a CDI has no end',
    );
  });
  it('should refuse a total past numeric(12,2)', () => {
    const big = { date: '2027-03-10', nature: 'service', quantity: 1, amount: '9999999999.99' };
    assert.equal(
      code(() => grossTotal(checkDates([big, big], period), null)),
      '400 invalid_amount',
    );
  });
});

describe('status transitions', () => {
  it('should follow brouillon → a_signer → signe, annule from any but signe', () => {
    assert.equal(statusAfterSubmit('brouillon'), 'a_signer');
    for (const status of ['a_signer', 'signe', 'annule'] as const)
      assert.equal(
        code(() => statusAfterSubmit(status)),
        '409 contract_locked',
      );
    assert.equal(statusAfterCancel('brouillon'), 'annule');
    assert.equal(statusAfterCancel('a_signer'), 'annule');
    assert.equal(
      code(() => statusAfterCancel('signe')),
      '409 contract_signed',
    );
    assert.equal(
      code(() => statusAfterCancel('annule')),
      '409 contract_cancelled',
    );
    assert.equal(statusAfterSigning('a_signer'), 'signe');
    assert.equal(
      code(() => statusAfterSigning('annule')),
      '409 contract_cancelled',
    );
    assert.equal(statusAfterUnsigning('signe'), 'a_signer');
  });
  it('should let the client edit a draft only, and staff edit dates unless cancelled', () => {
    assert.equal(
      code(() => assertEditable('brouillon')),
      'no error',
    );
    assert.equal(
      code(() => assertEditable('a_signer')),
      '409 contract_locked',
    );
    assert.equal(
      code(() => assertDatesEditable('signe')),
      'no error',
    );
    assert.equal(
      code(() => assertDatesEditable('annule')),
      '409 contract_cancelled',
    );
  });
});
