/** The country codes of an organization's address are the EN 16931 list the e-invoice library checks against. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { invoiceSchema } from '@e-invoice-eu/core';
import { COUNTRY_CODES, isCountryCode } from '../../src/format/countries.ts';

describe('country codes', () => {
  it("should be the two-letter codes of @e-invoice-eu/core's ISO3166 code list", () => {
    const library = (invoiceSchema.$defs as unknown as { codeLists: { ISO3166: { enum: string[] } } }).codeLists.ISO3166.enum;
    assert.deepEqual([...COUNTRY_CODES].sort(), library.filter((code) => /^[A-Z]{2}$/.test(code)).sort());
    assert.equal(COUNTRY_CODES.size, 250);
  });

  it('should know FR, BE, CH and XI, and not XX, ZZ, EU or lower case', () => {
    assert.deepEqual(['FR', 'BE', 'CH', 'XI', 'XX', 'ZZ', 'EU', 'fr'].map(isCountryCode), [true, true, true, true, false, false, false, false]);
  });
});
