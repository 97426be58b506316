import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addMonths, parsePeriod, payrollPeriodWindow, requirePayrollPeriod } from '../../src/format/calendar.ts';
import type { AppError } from '../../src/http/errors.ts';

describe('parsePeriod', () => {
  it('should take a month of the years 1900 to 2999 and nothing else', () => {
    for (const ok of ['1900-01', '2026-11', '2027-12', '2999-12']) assert.equal(parsePeriod(ok), ok);
    for (const bad of ['0000-01', '9999-12', '1899-12', '3000-01', '2027-00', '2027-13', '2027-1', '2027-01-01', ' 2027-01', 202701, null, undefined]) {
      assert.equal(parsePeriod(bad), null, String(bad));
    }
  });
});

describe('requirePayrollPeriod', () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
      return 'no error';
    } catch (error) {
      const e = error as AppError;
      return `${e.status} ${e.code}`;
    }
  };
  // 31 December 2026 at 23:30 UTC is already 1 January 2027 in Paris: the window follows France.
  const now = new Date('2026-12-31T23:30:00Z');
  it("should accept 36 months before the operator's current month to 12 after, and say the range otherwise", () => {
    assert.deepEqual(payrollPeriodWindow(now), { first: '2024-01', last: '2028-01' });
    for (const ok of ['2024-01', '2027-01', '2028-01']) assert.equal(requirePayrollPeriod(ok, now), ok);
    for (const bad of ['2023-12', '2028-02', '1900-01', '2999-12'])
      assert.equal(
        code(() => requirePayrollPeriod(bad, now)),
        '400 invalid_period',
        bad,
      );
    assert.throws(() => requirePayrollPeriod('2023-12', now), {
      message: 'La période décembre 2023 est hors de celles acceptées : de janvier 2024 à janvier 2028 (trois ans en arrière, un an en avance).',
    });
    assert.equal(
      code(() => requirePayrollPeriod('2027-13', now)),
      '400 invalid_period',
    );
    assert.equal(
      code(() => requirePayrollPeriod('', now)),
      '400 missing_period',
    );
    assert.equal(addMonths('2027-01', -1), '2026-12');
    assert.equal(addMonths('2026-12', 13), '2028-01');
  });
});
