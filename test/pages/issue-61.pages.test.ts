/**
 * What a newcomer's month found on the pages, checked on the server side (the browser side is
 * in test/e2e/issue-61.e2e.test.ts): a staff page that starts on the organization staff work
 * on, and the like.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../payslips/support.ts';

/** The option selected in the select `id`, or undefined. */
const selectedOption = (body: string, id: string) =>
  new RegExp(`<select id="${id}"[^>]*>[\\s\\S]*?<option value="([^"]*)" selected>`).exec(body)?.[1];

describe('GET /staff/paie, nothing asked yet', () => {
  it('should come with the organization staff chose with the switcher, and none without one', async (t) => {
    const { call, staff, lumiere } = await setup(t);
    const before = await call(staff, 'GET', '/staff/paie');
    assert.equal(before.statusCode, 200);
    assert.equal(selectedOption(before.body, 'paie-org'), '');
    const chosen = await call(staff, 'PUT', '/api/staff/active-org', { org_id: lumiere });
    assert.ok(chosen.statusCode < 300, chosen.body);
    const after = await call(staff, 'GET', '/staff/paie');
    assert.equal(after.statusCode, 200);
    assert.equal(selectedOption(after.body, 'paie-org'), lumiere);
  });
});
