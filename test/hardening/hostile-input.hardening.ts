/**
 * Hostile input: fuzzed bodies, cookies and headers (invalid base64, non-UUID ids, huge and
 * control-character values, header injection through first names, HTML in names). Never a
 * 500, never an unescaped value in an e-mail or a page, nothing stored that should not be.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { build } from '../helper.ts';
import { createOrg, member, outbox, signedIn } from '../support/fixtures.ts';
import { count } from './counts.ts';

const MARKUP = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', "'; drop table x; --"];
/**
 * `encodeURIComponent`, except that a lone surrogate (which it refuses) is written as the bytes
 * a hostile client would send for it (`%ED%A0%80`): invalid UTF-8 for the server to meet.
 */
function percentEncode(text: string): string {
  return text.replace(/\p{Cs}|[^\p{Cs}]+/gu, (part) => {
    const code = part.charCodeAt(0);
    if (part.length > 1 || code < 0xd800 || code > 0xdfff) return encodeURIComponent(part);
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
  });
}

const INJECTION = ['Ana\r\nBcc: victim@example.com', 'Ana\nSubject: pwned', 'Ana\u0000', 'A'.repeat(150)];

describe('hostile input', () => {
  it('should escape names in e-mails and pages, and refuse control characters', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, '<b>Org</b> & "Co"');
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN', { metadata: { first_name: '<i>Admin</i>' } });
    let i = 0;
    for (const name of MARKUP) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/access',
        headers: { cookie: admin.cookie },
        payload: { email: `m${i++}@example.com`, first_name: name },
      });
      assert.equal(res.statusCode, 200);
    }
    for (const name of INJECTION) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/access',
        headers: { cookie: admin.cookie },
        payload: { email: `x${i++}@example.com`, first_name: name },
      });
      assert.equal(res.statusCode, 400, JSON.stringify(name.slice(0, 20)));
      assert.equal(res.json().error, 'invalid_first_name');
    }
    count('fuzzed', MARKUP.length + INJECTION.length);
    // Refused input stored nothing.
    assert.equal((await db.selectFrom('auth.users').select('id').where('email', 'like', 'x%').execute()).length, 0);
    for (const mail of await outbox(db)) {
      for (const bad of [...MARKUP, '<b>Org</b>', '<i>Admin</i>']) assert.ok(!mail.html_body.includes(bad), `unescaped ${bad} in an e-mail`);
      assert.ok(mail.html_body.includes('&lt;b&gt;Org&lt;/b&gt; &amp; &quot;Co&quot;'));
      assert.ok(!/[\r\n]/.test(mail.subject) && !/[\r\n]/.test(mail.recipient));
    }
    const page = await app.inject({ method: 'GET', url: '/vos-acces', headers: { cookie: admin.cookie } });
    if (page.statusCode === 200) {
      for (const bad of [...MARKUP, '<b>Org</b>']) assert.ok(!page.body.includes(bad), `unescaped ${bad} in /vos-acces`);
    }
  });

  it('should never answer 5xx to fuzzed hints, ids and bodies, and keep the data intact', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const orgId = await createOrg(db, 'Org', 'KEY');
    const staff = await signedIn(app, db, 'staff@example.com', { staff: 'SUPER_STAFF' });
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
    // Latin-1, plus what must never reach the database or a comparison: NUL, CR, NEL, RLO, a lone surrogate.
    const unit = fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: 0x20, max: 0xff }) },
      { weight: 1, arbitrary: fc.constantFrom(0, 0x0d, 0x85, 0x202e, 0xd800) },
    );
    const text = fc.string({ unit: unit.map((c) => String.fromCharCode(c)), maxLength: 200 });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(staff.cookie, admin.cookie),
        text,
        text,
        text,
        fc.oneof(text, fc.uuid()),
        fc.record(
          {
            email: fc.oneof(fc.emailAddress(), text),
            role: fc.oneof(text, fc.constantFrom('ADMIN', 'AGENT')),
            first_name: text,
            org_id: fc.oneof(text, fc.uuid()),
          },
          { requiredKeys: [] },
        ),
        async (cookie, b64, name, key, id, body) => {
          runs++;
          const headers = {
            cookie: `${cookie}; active_org_name_b64=${percentEncode(b64)}; active_org_key=${percentEncode(key)}`,
            'x-company-name': name.trim(),
            'x-active-org-id': id,
          };
          for (const request of [
            { method: 'GET' as const, url: '/api/access' },
            { method: 'POST' as const, url: '/api/access', payload: body },
            { method: 'DELETE' as const, url: `/api/access/${percentEncode(id)}` },
            { method: 'GET' as const, url: `/api/access/events?before=${percentEncode(key)}` },
          ]) {
            const res = await app.inject({ ...request, headers });
            assert.ok(res.statusCode < 500, `${request.method} ${request.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        },
      ),
      { numRuns: 200 },
    );
    count('fuzzed', runs * 4);
    // The admin's own membership survived whatever was thrown (no self-revocation, no SUPER_ADMIN).
    const row = await db.selectFrom('organization_members').select(['role', 'revoked']).where('user_id', '=', admin.userId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { role: 'ADMIN', revoked: false });
    assert.equal((await db.selectFrom('organization_members').select('user_id').where('role', '=', 'SUPER_ADMIN').execute()).length, 0);
  });
});
