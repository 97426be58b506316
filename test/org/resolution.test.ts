import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64Utf8, resolveActiveOrgId, staffOrgHints, type OrgLookups } from '../../src/org/resolution.ts';

const ORG = {
  cookieId: '11111111-1111-4111-8111-111111111111',
  byKey: '22222222-2222-4222-8222-222222222222',
  byCookieName: '33333333-3333-4333-8333-333333333333',
  headerId: '44444444-4444-4444-8444-444444444444',
  byHeaderName: '55555555-5555-4555-8555-555555555555',
  byHeaderNameB64: '66666666-6666-4666-8666-666666666666',
  mine: '77777777-7777-4777-8777-777777777777',
};

const lookups: OrgLookups = {
  myOrg: async (userId) => (userId === 'member-with-org' ? ORG.mine : null),
  orgIdByKey: async (key) => (key === 'KEY1' ? ORG.byKey : null),
  orgIdByName: async (name) =>
    ({ 'Théâtre du Soleil': ORG.byCookieName, 'Compagnie Lumière': ORG.byHeaderName, 'Opéra Bleu': ORG.byHeaderNameB64 })[name] ?? null,
};

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Every staff hint of docs/access.md, each naming a different organization, in precedence order. */
const HINTS = [
  { name: 'cookie active_org_id', cookies: { active_org_id: ORG.cookieId }, headers: {}, expected: ORG.cookieId },
  { name: 'cookie active_org_key', cookies: { active_org_key: 'KEY1' }, headers: {}, expected: ORG.byKey },
  { name: 'cookie active_org_name_b64', cookies: { active_org_name_b64: b64('Théâtre du Soleil') }, headers: {}, expected: ORG.byCookieName },
  { name: 'header x-active-org-id', cookies: {}, headers: { 'x-active-org-id': ORG.headerId }, expected: ORG.headerId },
  { name: 'header x-company-name', cookies: {}, headers: { 'x-company-name': 'Compagnie Lumière' }, expected: ORG.byHeaderName },
  { name: 'header x-company-name-b64', cookies: {}, headers: { 'x-company-name-b64': b64('Opéra Bleu') }, expected: ORG.byHeaderNameB64 },
] as const;

const staff = { userId: 'staff-1', isStaff: true };

describe('resolveActiveOrgId', () => {
  it('should resolve nothing without an authenticated user, whatever the hints', async () => {
    const all = Object.assign({}, ...HINTS.map((h) => h.cookies));
    const headers = Object.assign({}, ...HINTS.map((h) => h.headers));
    assert.equal(await resolveActiveOrgId({ caller: null, cookies: all, headers }, lookups), null);
  });

  it('should give a non-staff caller the organization of get_my_org and ignore every hint', async () => {
    const all = Object.assign({}, ...HINTS.map((h) => h.cookies));
    const headers = Object.assign({}, ...HINTS.map((h) => h.headers));
    const caller = { userId: 'member-with-org', isStaff: false };
    assert.equal(await resolveActiveOrgId({ caller, cookies: all, headers }, lookups), ORG.mine);
    const orphan = { userId: 'member-without-org', isStaff: false };
    assert.equal(await resolveActiveOrgId({ caller: orphan, cookies: all, headers }, lookups), null);
  });

  for (const hint of HINTS) {
    it(`should resolve a staff caller's organization from the ${hint.name} alone`, async () => {
      assert.equal(await resolveActiveOrgId({ caller: staff, cookies: hint.cookies, headers: hint.headers }, lookups), hint.expected);
    });
  }

  // Pairwise precedence: for every pair, the earlier hint wins.
  HINTS.forEach((earlier, i) => {
    HINTS.slice(i + 1).forEach((later) => {
      it(`should prefer the ${earlier.name} over the ${later.name}`, async () => {
        const cookies = { ...later.cookies, ...earlier.cookies };
        const headers = { ...later.headers, ...earlier.headers };
        assert.equal(await resolveActiveOrgId({ caller: staff, cookies, headers }, lookups), earlier.expected);
      });
    });
  });

  it('should fall through a hint that matches nothing to the next one', async () => {
    const cookies = { active_org_key: 'NO-SUCH-KEY', active_org_name_b64: b64('Inconnue') };
    const headers = { 'x-company-name': 'Compagnie Lumière' };
    assert.equal(await resolveActiveOrgId({ caller: staff, cookies, headers }, lookups), ORG.byHeaderName);
  });

  it('should resolve nothing for a staff caller without hints (global mode)', async () => {
    assert.equal(await resolveActiveOrgId({ caller: staff, cookies: {}, headers: {} }, lookups), null);
  });

  it('should pass over ids that are not UUIDs and invalid base64', async () => {
    const cookies = { active_org_id: "1' or '1'='1", active_org_name_b64: '%%%not base64%%%' };
    const headers = { 'x-active-org-id': 'not-a-uuid', 'x-company-name-b64': '####' };
    assert.equal(await resolveActiveOrgId({ caller: staff, cookies, headers }, lookups), null);
  });
});

describe('staffOrgHints', () => {
  it('should list the hints in the order of docs/access.md', () => {
    const cookies = Object.assign({}, ...HINTS.map((h) => h.cookies));
    const headers = Object.assign({}, ...HINTS.map((h) => h.headers));
    assert.deepEqual(
      staffOrgHints(cookies, headers).map((h) => h.source),
      ['cookie active_org_id', 'cookie active_org_key', 'cookie active_org_name_b64', 'header x-active-org-id', 'header x-company-name'],
    );
  });
});

describe('decodeBase64Utf8', () => {
  it('should decode UTF-8 names and refuse what is not base64 of UTF-8', () => {
    assert.equal(decodeBase64Utf8(b64('Société Générale')), 'Société Générale');
    assert.equal(decodeBase64Utf8('not base64!'), null);
    assert.equal(decodeBase64Utf8(Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')), null);
    assert.equal(decodeBase64Utf8(''), null);
    assert.equal(decodeBase64Utf8(null), null);
  });
});

describe('headerUtf8', () => {
  it('should read a UTF-8 company name sent unencoded in a header, and leave Latin-1 text alone', async () => {
    const { headerUtf8 } = await import('../../src/org/resolution.ts');
    assert.equal(headerUtf8(Buffer.from('Compagnie Lumière', 'utf8').toString('latin1')), 'Compagnie Lumière');
    assert.equal(headerUtf8('Caf\u00e9'), 'Caf\u00e9');
    assert.equal(headerUtf8('plain'), 'plain');
    assert.equal(headerUtf8(null), null);
  });
});
