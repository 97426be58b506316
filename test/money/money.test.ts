import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compareMoney,
  isStorableMoney,
  moneyFromDb,
  multiplyMoney,
  parseMoney,
  parseQuantity,
  parseRate,
  percentOfMoney,
  requireMoney,
  sumMoney,
  MONEY_MAX,
  type Money,
} from '../../src/money/money.ts';
import { dateTimeFormat, formatDateFr, formatEuros, todayInFrance } from '../../src/format/french.ts';
import { formatMailDate } from '../../src/mail/templates.ts';
import { formatPageDate } from '../../src/pages/labels.ts';
import { AppError } from '../../src/http/errors.ts';

const NBSP = '\u00a0';

/** An oracle independent of money.ts: integer cents (exact below 2^53) written as `"12.34"`. */
function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const storableCents = fc.integer({ min: 0, max: 999_999_999_999 });

describe('parseMoney', () => {
  it('should accept money inputs (docs/modules.md) and give the canonical two-decimal string', () => {
    assert.equal(parseMoney('12'), '12.00');
    assert.equal(parseMoney('12.5'), '12.50');
    assert.equal(parseMoney('12.50'), '12.50');
    assert.equal(parseMoney(12.5), '12.50');
    assert.equal(parseMoney(1e3), '1000.00');
    assert.equal(parseMoney(0), '0.00');
    assert.equal(parseMoney(-0), '0.00');
    assert.equal(parseMoney('007.10'), '7.10');
    assert.equal(parseMoney('9999999999.99'), MONEY_MAX);
    assert.equal(parseMoney(642.4), '642.40');
  });

  it('should refuse negatives, three decimals, text, exponents, spaces and other types', () => {
    for (const input of [
      -1,
      '-1',
      '-0.01',
      '1.234',
      12.345,
      'abc',
      '1e3',
      '',
      ' 12',
      '12 ',
      '12,50',
      '.5',
      '12.',
      '+12',
      '0x10',
      0.1 + 0.2,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      undefined,
      true,
      {},
      [12],
      '10000000000.00',
      1e10,
    ]) {
      assert.equal(parseMoney(input), null, `input ${JSON.stringify(input) ?? String(input)}`);
    }
  });

  it('should answer 400 invalid_amount through requireMoney', () => {
    assert.equal(requireMoney('3'), '3.00');
    assert.throws(
      () => requireMoney('-3'),
      (error: unknown) => error instanceof AppError && error.status === 400 && error.code === 'invalid_amount',
    );
  });

  it('should read back every amount it writes, as a string and as a JSON number (property)', () => {
    fc.assert(
      fc.property(storableCents, (cents) => {
        const text = centsText(cents);
        assert.equal(parseMoney(text), text);
        assert.equal(parseMoney(Number(text)), text);
        assert.equal(parseMoney(JSON.parse(JSON.stringify({ v: Number(text) })).v), text);
      }),
    );
  });

  it('should refuse any number with a third decimal (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 1, max: 9 }), (mills, last) => {
        assert.equal(parseMoney(`${centsText(mills)}${last}`), null);
      }),
    );
  });
});

describe('moneyFromDb', () => {
  it('should canonicalise numeric column values', () => {
    assert.equal(moneyFromDb('642.40'), '642.40');
    assert.equal(moneyFromDb('0'), '0.00');
    assert.equal(moneyFromDb('-5.5'), '-5.50');
    assert.equal(moneyFromDb(12), '12.00');
    assert.equal(moneyFromDb('1.500'), '1.50');
    assert.throws(() => moneyFromDb('1.505'));
    assert.throws(() => moneyFromDb('abc'));
  });
});

describe('sumMoney', () => {
  it('should add exactly, where floats do not', () => {
    assert.equal(sumMoney(['0.10', '0.20'] as Money[]), '0.30');
    assert.equal(sumMoney([]), '0.00');
    assert.equal(sumMoney(['9999999999.99', '0.01'] as Money[]), '10000000000.00');
  });

  it('should equal the sum of integer cents (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -999_999_999, max: 999_999_999 }), { maxLength: 50 }), (list) => {
        const total = list.reduce((a, b) => a + b, 0);
        assert.equal(sumMoney(list.map((c) => moneyFromDb(centsText(c)))), centsText(total));
      }),
    );
  });

  it('should tell what fits numeric(12,2)', () => {
    assert.equal(isStorableMoney(MONEY_MAX), true);
    assert.equal(isStorableMoney(sumMoney([MONEY_MAX, '0.01' as Money])), false);
    assert.equal(compareMoney('2.00' as Money, '10.00' as Money), -1);
    assert.equal(compareMoney('10.00' as Money, '10.00' as Money), 0);
  });
});

describe('multiplyMoney and percentOfMoney', () => {
  it('should round half-up to the cent', () => {
    assert.equal(multiplyMoney('0.05' as Money, '0.5'), '0.03');
    assert.equal(multiplyMoney('0.05' as Money, '0.3'), '0.02');
    assert.equal(multiplyMoney('150.00' as Money, '3'), '450.00');
    assert.equal(multiplyMoney('19.99' as Money, '7.25'), '144.93'); // 144.9275
    assert.equal(percentOfMoney('642.40' as Money, '20.00'), '128.48');
    assert.equal(percentOfMoney('1.25' as Money, '10'), '0.13'); // 0.125
    assert.equal(percentOfMoney('1.24' as Money, '5.5'), '0.07'); // 0.0682
    assert.equal(percentOfMoney('100.00' as Money, '0'), '0.00');
  });

  it('should equal repeated addition for whole quantities (property)', () => {
    fc.assert(
      fc.property(
        storableCents.map((c) => c % 100_000_000),
        fc.integer({ min: 1, max: 40 }),
        (cents, n) => {
          const unit = moneyFromDb(centsText(cents));
          assert.equal(multiplyMoney(unit, String(n)), sumMoney(Array.from({ length: n }, () => unit)));
        },
      ),
    );
  });
});

describe('parseQuantity and parseRate', () => {
  it('should accept positive quantities with decimals and give their canonical text', () => {
    assert.equal(parseQuantity('2'), '2');
    assert.equal(parseQuantity(7.5), '7.5');
    assert.equal(parseQuantity('07.250'), '7.25');
    assert.equal(parseQuantity('0.125'), '0.125');
    for (const input of [0, '0', '0.000', -1, '1.2345', 'x', '', null, '1000000000', true]) {
      assert.equal(parseQuantity(input), null, `input ${String(input)}`);
    }
  });

  it('should accept rates from 0 to 100 with two decimals at most', () => {
    assert.equal(parseRate('20.00'), '20.00');
    assert.equal(parseRate(0), '0.00');
    assert.equal(parseRate(5.5), '5.50');
    assert.equal(parseRate('100'), '100.00');
    for (const input of ['100.01', -1, '2.125', 'vingt', null]) assert.equal(parseRate(input), null);
  });
});

describe('French formats', () => {
  it('should write euros with no-break spaces', () => {
    assert.equal(formatEuros('1234.50' as Money), `1${NBSP}234,50${NBSP}€`);
    assert.equal(formatEuros('0.00' as Money), `0,00${NBSP}€`);
    assert.equal(formatEuros('999.99' as Money), `999,99${NBSP}€`);
    assert.equal(formatEuros('1234567.89' as Money), `1${NBSP}234${NBSP}567,89${NBSP}€`);
    assert.equal(formatEuros('-1000.00' as Money), `-1${NBSP}000,00${NBSP}€`);
  });

  it('should read back every amount it formats, in groups of three (property)', () => {
    fc.assert(
      fc.property(storableCents, (cents) => {
        const money = moneyFromDb(centsText(cents));
        const text = formatEuros(money);
        assert.match(text, /^\d{1,3}(\u00a0\d{3})*,\d{2}\u00a0€$/);
        assert.equal(
          parseMoney(
            text
              .replace(/\u00a0/g, '')
              .replace('€', '')
              .replace(',', '.'),
          ),
          money,
        );
      }),
    );
  });

  it('should write dates as DD/MM/YYYY', () => {
    assert.equal(formatDateFr('2027-03-12'), '12/03/2027');
    assert.throws(() => formatDateFr('12/03/2027'));
  });

  it("should date documents in the operator's calendar, Paris time, across a year's end", () => {
    assert.equal(todayInFrance(new Date('2026-12-31T22:59:59Z')), '2026-12-31');
    assert.equal(todayInFrance(new Date('2026-12-31T23:00:00Z')), '2027-01-01');
    assert.equal(todayInFrance(new Date('2027-07-01T21:59:59Z')), '2027-07-01');
    assert.equal(todayInFrance(new Date('2027-07-01T22:00:00Z')), '2027-07-02');
  });

  it('should make each date format once and give each time zone its own', () => {
    assert.equal(
      dateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' }),
      dateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' }),
    );
    assert.notEqual(
      dateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' }),
      dateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'UTC' }),
    );
    const date = new Date('2026-11-22T23:05:00Z');
    assert.equal(formatMailDate(date, 'Europe/Paris'), '23 novembre 2026 à 00:05');
    assert.equal(formatMailDate(date, 'UTC'), '22 novembre 2026 à 23:05');
    assert.equal(formatPageDate(date, 'Europe/Paris'), '23/11/2026 00:05');
    assert.equal(formatPageDate(date, 'America/New_York'), '22/11/2026 18:05');
  });
});
