/** Errors raised by Fastify itself answer like every other error: `{ error, message }` in French. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member } from '../support/fixtures.ts';

describe('errors of the framework', () => {
  it('should answer a path id over its length limit, a malformed URL and an unsupported media type with a code and a French message', async (t) => {
    const { app, database } = await build(t);
    const orgId = await createOrg(database.db, 'Org');
    const admin = await member(app, database.db, orgId, 'admin@example.com', 'ADMIN');
    const cases = [
      {
        request: { method: 'DELETE' as const, url: `/api/access/${'a'.repeat(200)}` },
        status: 414,
        error: 'uri_too_long',
        message: "L'adresse demandée est trop longue.",
      },
      { request: { method: 'GET' as const, url: '/api/access/%E0%A4%A' }, status: 400, error: 'bad_url', message: "L'adresse demandée est mal formée." },
      {
        request: { method: 'POST' as const, url: '/api/access', payload: '<a/>', headers: { 'content-type': 'application/xml' } },
        status: 415,
        error: 'unsupported_media_type',
        message: 'Le corps doit être du JSON.',
      },
    ];
    for (const { request, status, error, message } of cases) {
      const res = await app.inject({ ...request, headers: { cookie: admin.cookie, ...(request.headers ?? {}) } });
      assert.equal(res.statusCode, status, request.url);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.json(), { error, message }, request.url);
    }
  });
});
