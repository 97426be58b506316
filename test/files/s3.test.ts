/** The S3 driver of the file store, against an S3-compatible server on loopback. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { startS3, type TestS3 } from '../support/s3.ts';
import { cddu, createOrg, member } from '../support/fixtures.ts';

const PDF = Buffer.from('%PDF-1.7\n% contrat signé\n%%EOF\n');

describe('the file store on S3 (STORAGE_URL=s3://…)', () => {
  let s3: TestS3;
  before(async () => {
    s3 = await startS3();
  });
  after(() => s3.close());

  const buildOnS3 = (t: Parameters<typeof build>[0], prefix = '') =>
    build(t, { env: { STORAGE_URL: `s3://${s3.bucket}${prefix}`, AWS_ENDPOINT_URL: s3.endpoint } });

  it('should keep the row in the database and the bytes in an object named after the id', async (t) => {
    const { app } = await buildOnS3(t, '/test-objects');
    const id = await app.db.transaction().execute((trx) => app.files.put(trx, { content: PDF, contentType: 'application/pdf', filename: 'Contrat signé.pdf' }));
    assert.ok((await s3.keys()).includes(`test-objects/${id}`));
    const row = await app.db.selectFrom('files').select(['content', 'size']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { content: null, size: PDF.length });
    assert.deepEqual(await app.files.get(id), { content: PDF, contentType: 'application/pdf', filename: 'Contrat signé.pdf' });

    const { url } = app.files.signedUrl(id);
    const response = await app.inject({ method: 'GET', url: url.slice('https://paie.example.com'.length) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.deepEqual(response.rawPayload, PDF);
  });

  it('should leave no object behind a rolled-back change or a deletion, once swept', async (t) => {
    const { app } = await buildOnS3(t);
    const kept = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'kept.pdf' });
    let rolledBack = '';
    await assert.rejects(
      app.db.transaction().execute(async (trx) => {
        rolledBack = await app.files.put(trx, { content: PDF, contentType: 'application/pdf', filename: 'lost.pdf' });
        throw new Error('the change fails after the upload');
      }),
    );
    const deleted = await app.files.put(app.db, { content: PDF, contentType: 'application/pdf', filename: 'deleted.pdf' });
    await app.db.transaction().execute((trx) => app.files.delete(trx, deleted));
    assert.equal(await app.files.get(rolledBack), null, 'no row, no file');
    assert.deepEqual((await s3.keys()).filter((key) => [kept, rolledBack, deleted].some((id) => key === `files/${id}`)).length, 3);

    // Within the grace period (an hour by default) nothing is taken: a row may be uncommitted.
    assert.equal(await app.files.sweep(), 0);
    assert.equal(await app.files.sweep(0), 2);
    const keys = await s3.keys();
    assert.ok(keys.includes(`files/${kept}`));
    assert.ok(!keys.includes(`files/${rolledBack}`));
    assert.ok(!keys.includes(`files/${deleted}`));
    assert.deepEqual((await app.files.get(kept))?.content, PDF);
  });

  it("should store a generated contract's PDF as an object, replacing the previous one's row", async (t) => {
    const { app, database } = await buildOnS3(t);
    const orgId = await createOrg(database.db, 'Théâtre du Soleil', 'TDS001');
    const agent = await member(app, database.db, orgId, 'agent@soleil.example', 'AGENT');
    const call = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { cookie: agent.cookie }, payload });
    const employee = (await call('/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre' })).json().id as string;
    const contract = (await call('/api/contrats', cddu(employee))).json().id as string;
    const first = await call('/api/generate-contract-pdf', { contract_id: contract });
    const second = await call('/api/generate-contract-pdf', { contract_id: contract });
    assert.equal(second.statusCode, 200, second.body);
    const ids = [first, second].map((answer) => new URL(answer.json().url).pathname.split('/').at(-1)!);
    const rows = await database.db.selectFrom('files').select(['id', 'content', 'org_id']).execute();
    assert.deepEqual(rows, [{ id: ids[1], content: null, org_id: orgId }], 'one row, the bytes elsewhere');
    assert.ok((await s3.keys()).includes(`files/${ids[1]}`));
    const pdf = await app.inject({ method: 'GET', url: second.json().url.slice('https://paie.example.com'.length) });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const events = await database.db.selectFrom('module_events').select('subject_id').where('action', '=', 'contract.pdf_generated').execute();
    assert.deepEqual(events, [{ subject_id: contract }, { subject_id: contract }]);
  });

  it('should roll the change back when the upload fails', async (t) => {
    const { app } = await build(t, { env: { STORAGE_URL: 's3://no-such-bucket', AWS_ENDPOINT_URL: s3.endpoint } });
    await assert.rejects(app.db.transaction().execute((trx) => app.files.put(trx, { content: PDF, contentType: 'application/pdf', filename: 'a.pdf' })));
    const rows = await app.db.selectFrom('files').select('id').execute();
    assert.deepEqual(rows, []);
  });
});
