/**
 * Documents made by jobs, never by a GET: an invoice's Factur-X after it is issued, and its
 * e-mail only once that exists; a validated bulletin, whoever validated it (the command line has
 * no worker: the server's renders it).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup, OPERATOR_ENV, submittedTechnicianContract } from '../payslips/support.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { definePayrollRun } from '../../src/payroll/runner.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { startRun, validateDrafts } from '../../src/payroll/payroll.service.ts';

type Ctx = Awaited<ReturnType<typeof setup>>;

const files = async (ctx: Ctx) => (await ctx.db.selectFrom('files').select('id').execute()).length;
const invoiceMails = async (ctx: Ctx) =>
  (await ctx.db.selectFrom('mail_outbox').select('recipient').where('kind', '=', 'invoice').execute()).map((m) => m.recipient);

async function issued(ctx: Ctx, payment_method = 'prelevement') {
  await ctx.db
    .updateTable('organizations')
    .set({ email_notifs: ['compta@soleil.example'] })
    .where('id', '=', ctx.soleil)
    .execute();
  const today = todayInFrance();
  const res = await ctx.call(ctx.staff, 'POST', '/api/staff/facturation/bulk-create', {
    invoice_type: 'paie_mensuelle',
    payment_method,
    period_label: 'novembre 2026',
    issue_date: today,
    due_date: today,
    invoices: [{ org_id: ctx.soleil, lines: [{ label: 'Bulletins', quantity: 3, unit_price: '15.50', vat_rate: '20.00' }] }],
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().created[0] as { id: string; number: string };
}

describe("an invoice's document", () => {
  it('should be made by its job after issue; the GETs only read, and its e-mail waits for it', async (t) => {
    const ctx = await setup(t, OPERATOR_ENV);
    const invoice = await issued(ctx);
    const before = await files(ctx);
    const pending = await ctx.call(ctx.compta, 'GET', `/api/factures/${invoice.id}/pdf-url`);
    assert.deepEqual([pending.statusCode, pending.json().error], [409, 'document_pending']);
    assert.equal(pending.json().message, 'Le document de la facture est en préparation : il sera disponible dans un instant.');
    assert.equal((await ctx.call(ctx.staff, 'GET', `/api/staff/facturation/${invoice.id}/factur-x.xml`)).json().error, 'document_pending');
    assert.equal(await files(ctx), before, 'no GET writes');

    // Notified before its document exists: it waits, nothing is sent, it is not "notified".
    const notify = await ctx.call(ctx.staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [invoice.id] });
    assert.equal(notify.statusCode, 200, notify.body);
    assert.deepEqual(notify.json(), { notified: [], waiting: [invoice.id], skipped: [] });
    assert.deepEqual(await invoiceMails(ctx), []);
    assert.equal((await ctx.db.selectFrom('invoices').select('notified').where('id', '=', invoice.id).executeTakeFirstOrThrow()).notified, false);

    assert.equal(await ctx.app.jobs.worker.runDue(), 1);
    assert.equal(await files(ctx), before + 2, 'the PDF and its XML');
    const link = await ctx.call(ctx.compta, 'GET', `/api/factures/${invoice.id}/pdf-url`);
    assert.equal(link.statusCode, 200, link.body);
    assert.equal((await ctx.call(ctx.staff, 'GET', `/api/staff/facturation/${invoice.id}/factur-x.xml`)).statusCode, 200);
    assert.deepEqual(await invoiceMails(ctx), ['compta@soleil.example']);
    const row = await ctx.db.selectFrom('invoices').select(['notified', 'notify_pending']).where('id', '=', invoice.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { notified: true, notify_pending: false });
    // Once it exists, a notification leaves at once.
    const again = await ctx.call(ctx.staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [invoice.id], force: true });
    assert.deepEqual(again.json(), { notified: [invoice.id], waiting: [], skipped: [] });
    assert.equal((await invoiceMails(ctx)).length, 2);
  });

  it('should fail its job with the reason when the operator identity is missing, and never announce it', async (t) => {
    const ctx = await setup(t, { ...OPERATOR_ENV, OPERATOR_SIRET: '' });
    const invoice = await issued(ctx);
    await ctx.call(ctx.staff, 'POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [invoice.id] });
    await ctx.app.jobs.worker.runDue();
    const failed = (await ctx.call(ctx.staff, 'GET', '/api/staff/jobs?status=failed')).json().items;
    assert.equal(failed.length, 1);
    assert.equal(failed[0].subject_id, invoice.id);
    assert.match(failed[0].last_error, /^L'identité de l'opérateur est incomplète \(.*\) : la facture électronique ne peut pas être émise\.$/);
    const link = await ctx.call(ctx.compta, 'GET', `/api/factures/${invoice.id}/pdf-url`);
    assert.deepEqual([link.statusCode, link.json().error], [409, 'document_failed']);
    assert.doesNotMatch(link.body, /operator|config|undefined|siret/);
    assert.deepEqual(await invoiceMails(ctx), []);
    assert.equal((await ctx.db.selectFrom('invoices').select('notified').where('id', '=', invoice.id).executeTakeFirstOrThrow()).notified, false);
    // Staff read it on their page, with a retry.
    const page = await ctx.call(ctx.staff, 'GET', '/staff/travaux', undefined, { accept: 'text/html' });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`data-retry="${failed[0].id}"`), page.body);
    assert.ok(page.body.includes('Théâtre du Soleil') && page.body.includes('Facture ou avoir (PDF Factur-X)'));
    assert.ok(
      page.body.includes('L&#39;identité de l&#39;opérateur est incomplète') || page.body.includes("L'identité de l'opérateur est incomplète"),
      'the reason',
    );
    assert.ok(page.body.includes('href="/staff/travaux"'), 'linked from the staff bar');
    assert.notEqual((await ctx.call(ctx.admin, 'GET', '/staff/travaux', undefined, { accept: 'text/html' })).statusCode, 200);
  });
});

describe("a validated payslip's bulletin", () => {
  it('should be rendered by the job its validation queued, also from the command line, without any GET', async (t) => {
    const ctx = await setup(t, OPERATOR_ENV);
    await submittedTechnicianContract(ctx);
    // As seed-demo does it, in a process with no worker: the context names none.
    const caller = { userId: ctx.staff.userId, email: ctx.staff.email };
    const { run_id } = await startRun({ db: ctx.db }, caller, { org_id: ctx.soleil, period: '2027-03' });
    // The run's job, run in this process as seed-demo runs it.
    const quiet = { info() {}, warn() {}, error() {} };
    const runs = new JobWorker({ db: ctx.db, log: quiet });
    definePayrollRun(runs, { ctx: { db: ctx.db }, log: quiet });
    assert.equal(await runs.runDue(), 1);
    const { published } = await validateDrafts({ db: ctx.db }, caller, { org_id: ctx.soleil, period: '2027-03' });
    assert.equal(published.length, 1);
    const jobs = await ctx.db.selectFrom('jobs').select(['kind', 'status', 'subject_id', 'org_id']).orderBy('id').execute();
    assert.deepEqual(jobs, [
      { kind: 'payroll.run', status: 'done', subject_id: run_id, org_id: ctx.soleil },
      { kind: 'payroll.bulletin', status: 'pending', subject_id: published[0], org_id: ctx.soleil },
    ]);
    const early = await ctx.call(ctx.admin, 'GET', `/api/payslips/${published[0]}/pdf-url`);
    assert.deepEqual([early.statusCode, early.json().error], [409, 'document_pending']);
    assert.equal(
      (await ctx.db.selectFrom('payslips').select('pdf_id').where('id', '=', published[0]!).executeTakeFirstOrThrow()).pdf_id,
      null,
      'the GET rendered nothing',
    );

    // The server's worker takes it up.
    assert.equal(await ctx.app.jobs.worker.runDue(), 1);
    const listed = (await ctx.call(ctx.compta, 'GET', '/api/payslips?period=2027-03')).json().items;
    assert.deepEqual(
      listed.map((p: { id: string; has_pdf: boolean }) => [p.id, p.has_pdf]),
      [[published[0], true]],
    );
    assert.equal((await ctx.call(ctx.admin, 'GET', `/api/payslips/${published[0]}/pdf-url`)).statusCode, 200);
  });
});
