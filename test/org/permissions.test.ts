import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ASSIGNABLE_ROLES, can, MEMBER_ROLES, rolesOf, type Gate } from '../../src/org/permissions.ts';

const member = { isStaff: false };
const staff = { isStaff: true };
const active = (role: string) => ({ role, revoked: false });

describe('can()', () => {
  it('should let each role through the sets of docs/modules.md and docs/access.md, and no other', () => {
    // docs/modules.md's table, and docs/access.md for the access API.
    const expected: Record<string, Record<string, boolean>> = {
      manageMembers: { SUPER_ADMIN: true, ADMIN: true, AGENT: false, COMPTA: false },
      contract: { SUPER_ADMIN: true, ADMIN: true, AGENT: true, COMPTA: false },
      money: { SUPER_ADMIN: true, ADMIN: true, AGENT: false, COMPTA: true },
      read: { SUPER_ADMIN: true, ADMIN: true, AGENT: true, COMPTA: true },
      staff: { SUPER_ADMIN: false, ADMIN: false, AGENT: false, COMPTA: false },
    };
    for (const [gate, roles] of Object.entries(expected)) {
      for (const [role, allowed] of Object.entries(roles)) {
        assert.equal(can(member, active(role), gate as Gate), allowed ? 'allowed' : 'forbidden', `${role} on ${gate}`);
      }
    }
  });

  it('should answer unauthorized without a caller, whatever the gate', () => {
    for (const gate of ['manageMembers', 'contract', 'money', 'read', 'staff', 'signedIn'] as const) {
      assert.equal(can(null, active('SUPER_ADMIN'), gate), 'unauthorized');
    }
  });

  it('should let staff through every gate without a membership', () => {
    for (const gate of ['manageMembers', 'contract', 'money', 'read', 'staff', 'signedIn'] as const) {
      assert.equal(can(staff, undefined, gate), 'allowed');
    }
  });

  it('should forbid a revoked membership, a missing one and a failed look-up', () => {
    for (const gate of ['manageMembers', 'contract', 'money', 'read'] as const) {
      assert.equal(can(member, { role: 'ADMIN', revoked: true }, gate), 'forbidden');
      assert.equal(can(member, undefined, gate), 'forbidden');
      assert.equal(can(member, 'lookup_failed', gate), 'forbidden');
    }
  });

  it('should forbid a role it does not know', () => {
    assert.equal(can(member, active('OWNER'), 'read'), 'forbidden');
    assert.equal(can(member, active('admin'), 'manageMembers'), 'forbidden');
  });

  it('should let any signed-in caller through signedIn', () => {
    assert.equal(can(member, undefined, 'signedIn'), 'allowed');
  });
});

describe('role lists', () => {
  it('should list the four roles, offer every one but SUPER_ADMIN, and give each gate its set', () => {
    assert.deepEqual([...MEMBER_ROLES], ['SUPER_ADMIN', 'ADMIN', 'AGENT', 'COMPTA']);
    assert.deepEqual(ASSIGNABLE_ROLES, ['ADMIN', 'AGENT', 'COMPTA']);
    assert.deepEqual(rolesOf('money'), ['SUPER_ADMIN', 'ADMIN', 'COMPTA']);
    assert.deepEqual(rolesOf('staff'), []);
  });
});
