/** The file store in the database and signed URLs, PDF upload bodies. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { build } from '../helper.ts';
import { signFileUrl } from '../../src/files/signed-url.ts';

const PDF = Buffer.from('%PDF-1.7\n% accentué\n%%EOF\n');
const FILENAME = 'Contrat « été » "C-2027-000001".pdf';

/** The file link's signature (docs/modules.md), computed here without the code under test. */
function hmac(key: Buffer | string, id: string, exp: string): string {
  return crypto.createHmac('sha256', key).update(`${id}:${exp}`).digest('base64url');
}

async function signingKey(app: Awaited<ReturnType<typeof build>>['app']): Promise<Buffer> {
  const row = await app.db.selectFrom('app_secrets').select('value').where('name', '=', 'file_url_key').executeTakeFirstOrThrow();
  return Buffer.from(row.value);
}

describe('the file store (database driver)', () => {
  it("should store a file in the caller's transaction and give it back", async (t) => {
    const { app } = await build(t);
    const id = await app.db.transaction().execute((trx) => app.files.put(trx, { content: PDF, contentType: 'application/pdf', filename: FILENAME }));
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(await app.files.get(id), { content: PDF, contentType: 'application/pdf', filename: FILENAME });
    const row = await app.db.selectFrom('files').select(['size', 'org_id', 'content']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.size, PDF.length);
    assert.equal(row.org_id, null);
    assert.deepEqual(Buffer.from(row.content!), PDF);
    assert.equal(await app.files.get('not-a-uuid'), null);
    assert.equal(await app.files.get(crypto.randomUUID()), null);
  });

  it('should leave no file behind when the change rolls back', async (t) => {
    const { app } = await build(t);
    await assert.rejects(
      app.db.transaction().execute(async (trx) => {
        await app.files.put(trx, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' });
        throw new Error('the change fails after the file');
      }),
      /the change fails/,
    );
    const { count } = await app.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count), 0);
  });

  it("should delete in the caller's transaction, and keep the file when that rolls back", async (t) => {
    const { app } = await build(t);
    const id = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' });
    await assert.rejects(
      app.db.transaction().execute(async (trx) => {
        await app.files.delete(trx, id);
        throw new Error('rolled back');
      }),
    );
    assert.notEqual(await app.files.get(id), null);
    await app.db.transaction().execute((trx) => app.files.delete(trx, id));
    assert.equal(await app.files.get(id), null);
    assert.equal(await app.files.sweep(0), 0, 'nothing to sweep in the database');
  });
});

describe('GET /files/:id (signed URLs)', () => {
  it('should sign {PUBLIC_URL}/files/{id}?exp=&sig= for 5 minutes and serve the file without a session', async (t) => {
    const { app } = await build(t);
    const id = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: FILENAME });
    const before = Math.floor(Date.now() / 1000);
    const { url, expires_at } = app.files.signedUrl(id);
    const match = /^https:\/\/paie\.example\.com\/files\/([0-9a-f-]{36})\?exp=(\d+)&sig=([A-Za-z0-9_-]{43})$/.exec(url);
    assert.ok(match, url);
    const [, urlId, exp, sig] = match;
    assert.equal(urlId, id);
    assert.ok(Number(exp) - before >= 299 && Number(exp) - before <= 301, `exp ${exp} is 5 minutes ahead`);
    assert.equal(expires_at, new Date(Number(exp) * 1000).toISOString(), 'exp equals expires_at');
    assert.equal(sig, hmac(await signingKey(app), id, exp!));

    const response = await app.inject({ method: 'GET', url: url.slice('https://paie.example.com'.length) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.equal(
      response.headers['content-disposition'],
      `attachment; filename="Contrat _ ete _ \\"C-2027-000001\\".pdf"; filename*=UTF-8''Contrat%20%C2%AB%20%C3%A9t%C3%A9%20%C2%BB%20%22C-2027-000001%22.pdf`,
    );
    assert.equal(response.headers['cache-control'], 'private, no-store');
    assert.deepEqual(response.rawPayload, PDF);
  });

  it('should answer 403 invalid_signature for a changed id, exp or sig, or an expired link', async (t) => {
    const { app } = await build(t);
    const id = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' });
    const other = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'b.pdf' });
    const key = await signingKey(app);
    const path = new URL(app.files.signedUrl(id).url);
    const exp = path.searchParams.get('exp')!;
    const sig = path.searchParams.get('sig')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const expired = new URL(signFileUrl(key, 'https://x', id, Date.now() - 301_000).url);
    assert.equal(hmac(key, id, expired.searchParams.get('exp')!), expired.searchParams.get('sig'), 'the expired link is well signed');
    for (const url of [
      `/files/${other}?exp=${exp}&sig=${sig}`,
      `/files/${id}?exp=${Number(exp) + 1}&sig=${sig}`,
      `/files/${id}?exp=${exp}&sig=${flipped}`,
      `/files/${id}?exp=${exp}&sig=${sig}x`,
      `/files/${id}?exp=${exp}`,
      `/files/${id}?sig=${sig}`,
      `/files/${id}`,
      `/files/${id}?exp=${exp}&sig=${sig}&exp=1`,
      `/files/not-a-uuid?exp=${exp}&sig=${sig}`,
      `${expired.pathname}${expired.search}`,
    ]) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 403, url);
      assert.deepEqual(response.json(), { error: 'invalid_signature' }, url);
    }
  });

  it('should answer 404 not_found for a well-signed link to a deleted file', async (t) => {
    const { app } = await build(t);
    const id = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' });
    const { url } = app.files.signedUrl(id);
    await app.files.delete(app.db, id);
    const response = await app.inject({ method: 'GET', url: url.slice('https://paie.example.com'.length) });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().error, 'not_found');
  });

  it('should sign alike on every instance of one database, with the key generated once', async (t) => {
    const first = await build(t);
    const second = await build(t, { database: first.database });
    const id = await first.app.files.put(first.app.db, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' });
    const { url } = first.app.files.signedUrl(id);
    const response = await second.app.inject({ method: 'GET', url: url.slice('https://paie.example.com'.length) });
    assert.equal(response.statusCode, 200);
    const keys = await first.app.db.selectFrom('app_secrets').select('name').execute();
    assert.deepEqual(keys, [{ name: 'file_url_key' }]);
  });

  it('should sign with FILE_URL_SECRET when it is set', async (t) => {
    const secret = 'une clé de signature assez longue pour HMAC';
    const { app } = await build(t, { env: { FILE_URL_SECRET: secret } });
    const id = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' });
    const url = new URL(app.files.signedUrl(id).url);
    assert.equal(url.searchParams.get('sig'), hmac(Buffer.from(secret), id, url.searchParams.get('exp')!));
  });
});

describe('PDF upload bodies', () => {
  const withUploadRoutes = (t: Parameters<typeof build>[0]) =>
    build(t, {
      routes: (app) => {
        app.put<{ Body: Buffer }>('/upload-probe', { config: { public: true, pdfUpload: true } }, async (request) => ({ size: request.body.length }));
        app.put<{ Body: Buffer }>('/api/staff/upload-probe', { config: { gate: 'staff', pdfUpload: true } }, async (request) => ({
          size: request.body.length,
        }));
        app.post('/json-probe', { config: { public: true } }, async (request) => ({ body: request.body }));
      },
    });
  const put = (app: Awaited<ReturnType<typeof build>>['app'], url: string, body: Buffer | string, type = 'application/pdf') =>
    app.inject({ method: 'PUT', url, headers: { 'content-type': type }, payload: body });

  it('should take a PDF of up to 10 MiB as a Buffer', async (t) => {
    const { app } = await withUploadRoutes(t);
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 - PDF.length, 0x20)]);
    for (const body of [PDF, big]) {
      const response = await put(app, '/upload-probe', body);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { size: body.length });
    }
  });

  it('should answer 413 past 10 MiB and 415 invalid_pdf for a body that is not a PDF', async (t) => {
    const { app } = await withUploadRoutes(t);
    const tooBig = await put(app, '/upload-probe', Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]));
    assert.equal(tooBig.statusCode, 413);
    assert.deepEqual(tooBig.json(), { error: 'payload_too_large', message: 'Requête trop volumineuse (10 Mio au plus).' });
    for (const [body, type] of [
      ['hello', 'application/pdf'],
      ['', 'application/pdf'],
      ['%PDF', 'application/pdf'],
      ['{"a":1}', 'application/json'],
    ] as const) {
      const response = await put(app, '/upload-probe', body, type);
      assert.equal(response.statusCode, 415, `${type} ${body}`);
      assert.equal(response.json().error, 'invalid_pdf');
    }
  });

  it('should check the gate before the body: 401 without a session, whatever the body', async (t) => {
    const { app } = await withUploadRoutes(t);
    const response = await put(app, '/api/staff/upload-probe', 'not a pdf');
    assert.equal(response.statusCode, 401);
    assert.equal(response.body, 'Unauthorized');
  });

  it('should keep other routes to 64 KiB JSON: application/pdf there is 415 unsupported_media_type', async (t) => {
    const { app } = await withUploadRoutes(t);
    const response = await app.inject({ method: 'POST', url: '/json-probe', headers: { 'content-type': 'application/pdf' }, payload: PDF });
    assert.equal(response.statusCode, 415);
    assert.equal(response.json().error, 'unsupported_media_type');
    const big = await app.inject({
      method: 'POST',
      url: '/json-probe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: 'x'.repeat(70 * 1024) }),
    });
    assert.equal(big.statusCode, 413);
    assert.deepEqual(big.json(), { error: 'payload_too_large', message: 'Requête trop volumineuse (64 Kio au plus).' });
  });
});
