/** The calendar module the pages' scripts share with the server (`format/calendar-shared.js`), run in Node. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nextDayFr } from '../../src/format/calendar-shared.js';

describe('nextDayFr', () => {
  it("should give the calendar's next day, across a month's, a year's and February's end", () => {
    assert.equal(nextDayFr('02/03/2027'), '03/03/2027');
    assert.equal(nextDayFr('31/01/2027'), '01/02/2027');
    assert.equal(nextDayFr('31/12/2026'), '01/01/2027');
    assert.equal(nextDayFr('28/02/2027'), '01/03/2027');
    assert.equal(nextDayFr('28/02/2028'), '29/02/2028');
    assert.equal(nextDayFr('1/3/2027'), '02/03/2027');
  });

  it('should answer null for what is not a day', () => {
    for (const typed of ['', '31/02/2027', '2027-03-01', 'demain', '00/01/2027']) assert.equal(nextDayFr(typed), null, typed);
  });
});
