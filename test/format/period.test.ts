import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parsePeriod } from '../../src/format/calendar.ts';

describe('parsePeriod', () => {
  it('should take a month of the years 1900 to 2999 and nothing else', () => {
    for (const ok of ['1900-01', '2026-11', '2027-12', '2999-12']) assert.equal(parsePeriod(ok), ok);
    for (const bad of ['0000-01', '9999-12', '1899-12', '3000-01', '2027-00', '2027-13', '2027-1', '2027-01-01', ' 2027-01', 202701, null, undefined]) {
      assert.equal(parsePeriod(bad), null, String(bad));
    }
  });
});
