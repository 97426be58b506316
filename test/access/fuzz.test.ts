/**
 * Property: whatever the body, cookies and headers, the access API answers a 2xx or 4xx in
 * the documented shape (JSON `{ error, message? }`, or plain `Unauthorized`/`Forbidden`),
 * never a 500, a stack trace or a database message.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';

/** Header-safe text: visible Latin-1, no CR/LF. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 80 }).filter((s) => s.trim() === s);
const b64ish = fc.oneof(
  headerText,
  fc.string().map((s) => Buffer.from(s).toString('base64')),
);
const uuidish = fc.oneof(fc.uuid(), headerText, fc.constant(''));

const cookieBag = fc.record(
  {
    active_org_id: uuidish,
    active_org_key: headerText,
    active_org_name_b64: b64ish,
    session: headerText,
  },
  { requiredKeys: [] },
);
const headerBag = fc.record(
  {
    'x-active-org-id': uuidish,
    'x-company-name': headerText,
    'x-company-name-b64': b64ish,
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.record(
    {
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.constant(''), fc.integer() as fc.Arbitrary<unknown>, fc.constant(null)),
      role: fc.oneof(fc.constantFrom('ADMIN', 'agent', 'COMPTA', 'SUPER_ADMIN', 'owner', ''), fc.string(), fc.constant(null)),
      first_name: fc.oneof(fc.string(), fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constant('<script>alert(1)</script>')),
      org_id: uuidish,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
  fc.string(),
);
const route = fc.constantFrom(
  { method: 'GET', url: '/api/access' },
  { method: 'POST', url: '/api/access' },
  { method: 'POST', url: '/api/access/nouveau' },
  { method: 'GET', url: '/api/access/events?limit=5' },
  { method: 'DELETE', url: '/api/access/{id}' },
  { method: 'POST', url: '/api/access/{id}/resend' },
  { method: 'PUT', url: '/api/staff/active-org' },
  { method: 'GET', url: '/api/staff/orgs?q={text}' },
) as fc.Arbitrary<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string }>;

function cookieHeader(session: string | null, bag: Record<string, string>): string {
  const parts = Object.entries(bag).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  if (session) parts.unshift(session);
  return parts.join('; ');
}

describe('the access API under arbitrary input', () => {
  it('should never answer 5xx, and always in the documented error shape', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Fuzz Org', 'FUZZ');
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'SUPER_STAFF' });
    const agent = await member(app, db, orgId, 'agent@example.com', 'AGENT');
    const who = fc.constantFrom(null, admin.cookie, staff.cookie, agent.cookie);

    await fc.assert(
      fc.asyncProperty(route, who, cookieBag, headerBag, body, uuidish, headerText, async (r, session, cookies, headers, payload, id, text) => {
        const { session: rawSession, ...hints } = cookies;
        const cookie = cookieHeader(session ?? (rawSession ? `session=${encodeURIComponent(rawSession)}` : null), hints);
        const res = await app.inject({
          method: r.method,
          url: r.url.replace('{id}', encodeURIComponent(id || 'x')).replace('{text}', encodeURIComponent(text)),
          headers: {
            ...headers,
            ...(cookie ? { cookie } : {}),
            ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
          },
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: JSON.stringify(payload) }),
        });
        assert.ok(res.statusCode < 500, `${r.method} ${r.url} gave ${res.statusCode}: ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400) {
          if (res.body === 'Unauthorized' || res.body === 'Forbidden') return;
          const error = res.json();
          assert.equal(typeof error.error, 'string');
          assert.deepEqual(
            Object.keys(error).filter((k) => k !== 'error' && k !== 'message'),
            [],
          );
          assert.doesNotMatch(res.body, /relation|column|syntax|violates|constraint|stack|at .*\.ts/i);
        }
      }),
      { numRuns: 300 },
    );
  });
});
