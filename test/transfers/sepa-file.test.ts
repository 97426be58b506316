/**
 * A batch's SEPA file is made with the batch and stored; a batch is marked executed only with
 * it: no salary is recorded as paid without the bank file that paid it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { xmlTexts as texts } from '../support/documents.ts';
import { setup } from '../payslips/support.ts';
import { todayInFrance } from '../../src/format/french.ts';

const ENV_IBAN = 'FR7630004000031234567890143';
const NEW_IBAN = 'FR7630006000011234567890189';

describe('the SEPA file of a batch', () => {
  it('should be stored with the batch, and stay the file downloaded whatever the operator settings become', async (t) => {
    const { db, soleil, staff, call, helene, marc, payslip, batch } = await setup(t);
    const made = (await batch([await payslip(soleil, helene, '2027-01', '1500.00')])).json();
    const row = await db.selectFrom('transfers').select(['sepa_file_id']).where('id', '=', made.id).executeTakeFirstOrThrow();
    assert.ok(row.sepa_file_id, 'a file with the batch');
    const file = await db
      .selectFrom('files')
      .select(['filename', 'content_type', 'content', 'org_id'])
      .where('id', '=', row.sepa_file_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([file.filename, file.content_type, file.org_id], [`${made.reference}.xml`, 'application/xml', soleil]);
    const downloaded = await call(staff, 'GET', `/api/staff/virements/${made.id}/sepa.xml`);
    assert.equal(downloaded.statusCode, 200);
    assert.equal(downloaded.body, Buffer.from(file.content!).toString('utf8'), 'the download is the stored file');
    assert.deepEqual(texts(downloaded.body, 'DbtrAcct//IBAN'), [ENV_IBAN]);

    // The operator's account changes: the batch keeps its file, the next one debits the new account.
    const patch = await call(staff, 'PATCH', '/api/staff/operator', { iban: NEW_IBAN, bic: 'AGRIFRPP' });
    assert.equal(patch.statusCode, 200, patch.body);
    assert.equal((await call(staff, 'GET', `/api/staff/virements/${made.id}/sepa.xml`)).body, downloaded.body);
    const next = (await batch([await payslip(soleil, marc, '2027-01', '900.00')])).json();
    const nextXml = (await call(staff, 'GET', `/api/staff/virements/${next.id}/sepa.xml`)).body;
    assert.deepEqual([texts(nextXml, 'DbtrAcct//IBAN'), texts(nextXml, 'DbtrAgt//BIC')], [[NEW_IBAN], ['AGRIFRPP']]);
  });

  it('should refuse to mark executed a batch whose file cannot be made, and pay nothing', async (t) => {
    const { db, soleil, staff, compta, call, helene, marc, payslip, batch } = await setup(t);
    const today = todayInFrance();
    const first = (await batch([await payslip(soleil, helene, '2027-01', '1500.00')], today)).json();
    const second = (await batch([await payslip(soleil, marc, '2027-01', '900.00')], today)).json();
    // Batches made before their file was stored with them (as the database held them then).
    await db.updateTable('transfers').set({ sepa_file_id: null }).execute();
    await db.deleteFrom('files').where('content_type', '=', 'application/xml').execute();

    // No operator account any more (saved as none): the file cannot be made.
    assert.equal((await call(staff, 'PATCH', '/api/staff/operator', { iban: '' })).statusCode, 200);
    const refused = await call(staff, 'POST', `/api/staff/virements/${first.id}/executed`);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().error, 'transfer_file_missing');
    assert.equal(refused.json().reason, 'operator_account_missing');
    assert.match(refused.json().message, /^Ce lot n'a pas de fichier SEPA : il ne peut pas être marqué exécuté\. Le compte de l'opérateur/);

    // Back to the environment's account; a line above what SEPA carries (made before the cap): no file either.
    assert.equal((await call(staff, 'PATCH', '/api/staff/operator', { iban: null })).statusCode, 200);
    const [line] = await db.selectFrom('transfer_items').select('payslip_id').where('transfer_id', '=', second.id).execute();
    await db.updateTable('transfer_items').set({ amount: '1000000000.00' }).where('transfer_id', '=', second.id).execute();
    await db.updateTable('transfers').set({ total: '1000000000.00' }).where('id', '=', second.id).execute();
    const tooLarge = await call(staff, 'POST', `/api/staff/virements/${second.id}/executed`);
    assert.deepEqual(
      [tooLarge.statusCode, tooLarge.json().error, tooLarge.json().reason, tooLarge.json().payslip_ids],
      [409, 'transfer_file_missing', 'transfer_amount_too_large', [line!.payslip_id]],
    );

    // Nothing was recorded as paid.
    const statuses = await db.selectFrom('transfers').select(['status', 'sepa_file_id']).execute();
    assert.deepEqual(statuses, [
      { status: 'genere', sepa_file_id: null },
      { status: 'genere', sepa_file_id: null },
    ]);
    assert.deepEqual(
      (await call(compta, 'GET', '/api/payslips')).json().items.map((p: { transfer_status: string }) => p.transfer_status),
      ['genere', 'genere'],
    );
    const events = await db.selectFrom('module_events').select('action').where('subject_type', '=', 'transfer').orderBy('id').execute();
    assert.deepEqual(
      events.map((e) => e.action),
      ['transfer.created', 'transfer.created'],
    );

    // The database refuses it too, whatever the code does.
    await assert.rejects(sql`update public.transfers set status = 'execute' where id = ${second.id}`.execute(db), /transfers_executed_with_file/);

    // With the account, the earlier batch gets its file when it is marked executed, and keeps it.
    const executed = await call(staff, 'POST', `/api/staff/virements/${first.id}/executed`);
    assert.equal(executed.statusCode, 200, executed.body);
    assert.equal(executed.json().status, 'execute');
    const stored = await db
      .selectFrom('transfers')
      .innerJoin('files', 'files.id', 'transfers.sepa_file_id')
      .select('files.content')
      .where('transfers.id', '=', first.id)
      .executeTakeFirstOrThrow();
    const xml = (await call(staff, 'GET', `/api/staff/virements/${first.id}/sepa.xml`)).body;
    assert.equal(xml, Buffer.from(stored.content!).toString('utf8'));
    assert.deepEqual(texts(xml, 'DbtrAcct//IBAN'), [ENV_IBAN]);
  });
});
