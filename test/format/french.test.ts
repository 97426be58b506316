import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDecimalFr, formatRateFr } from '../../src/format/french.ts';

describe('French decimals', () => {
  it('should drop only the zeros after a decimal point, as a reader writes a quantity or a rate', () => {
    assert.equal(formatDecimalFr('1.000'), '1');
    assert.equal(formatDecimalFr('7.500'), '7,5');
    assert.equal(formatDecimalFr('0.250'), '0,25');
    assert.equal(formatDecimalFr('10'), '10');
    assert.equal(formatDecimalFr('100.00'), '100');
    assert.equal(formatRateFr('5.50'), '5,5\u00a0%');
    assert.equal(formatRateFr('0.00'), '0\u00a0%');
  });
});
