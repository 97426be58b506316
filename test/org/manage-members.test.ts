import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { can } from '../../src/org/permissions.ts';

describe("can(…, 'manageMembers')", () => {
  const member = { isStaff: false };
  const cases = [
    { name: 'no authenticated user', caller: null, membership: undefined, expected: 'unauthorized' },
    { name: 'a staff caller without membership', caller: { isStaff: true }, membership: undefined, expected: 'allowed' },
    { name: 'a failed membership lookup', caller: member, membership: 'lookup_failed', expected: 'forbidden' },
    { name: 'no membership', caller: member, membership: undefined, expected: 'forbidden' },
    { name: 'a revoked ADMIN', caller: member, membership: { role: 'ADMIN', revoked: true }, expected: 'forbidden' },
    { name: 'an AGENT', caller: member, membership: { role: 'AGENT', revoked: false }, expected: 'forbidden' },
    { name: 'a COMPTA', caller: member, membership: { role: 'COMPTA', revoked: false }, expected: 'forbidden' },
    { name: 'an ADMIN', caller: member, membership: { role: 'ADMIN', revoked: false }, expected: 'allowed' },
    { name: 'a SUPER_ADMIN', caller: member, membership: { role: 'SUPER_ADMIN', revoked: false }, expected: 'allowed' },
  ] as const;
  for (const c of cases) {
    it(`should answer ${c.expected} for ${c.name}`, () => {
      assert.equal(can(c.caller, c.membership, 'manageMembers'), c.expected);
    });
  }
});
