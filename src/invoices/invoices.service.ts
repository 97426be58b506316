/**
 * Invoices: bulk creation with continuous numbers, lists, the detail, the PDF, and
 * bulk notification through the outbox. Every change is one `applyChange`: its writes, its
 * audit events and its e-mails in one transaction.
 */
import { operatorSettings } from '../operator/operator.service.ts';
import { missingOperatorIdentity, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { FileStore } from '../files/file-store.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { lockSeries, reserveInSeries } from '../db/number-series.ts';
import { formatDateFr, formatEuros } from '../format/french.ts';
import { fieldErrors } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import type { OutgoingMail } from '../mail/outbox.ts';
import { invoiceEmail } from './invoice.mail.ts';
import { compareMoney, moneyFromDb, subtractMoney, sumMoney } from '../money/money.ts';
import { todayInFrance } from '../format/french.ts';
import { parsePeriod } from '../format/calendar.ts';
import { transferErrors } from '../transfers/transfer.errors.ts';
import { FACTUR_X_FILENAME, facturXInvoice, makeFacturX, type FacturXInput } from './invoice.facturx.ts';
import { generatingPdf, renderPdf } from '../pdf/render.ts';
import { JOB_KINDS } from '../jobs/kinds.ts';
import { latestJobOf } from '../jobs/jobs.repository.ts';
import type { OutgoingJob } from '../jobs/queue.ts';
import type { RunningJob } from '../jobs/worker.ts';
import { invoiceErrors } from './invoice.errors.ts';
import { invoiceDocument } from './invoice.pdf.ts';
import {
  checkCreditByRate,
  checkCreditNote,
  checkForce,
  checkHeader,
  CREDIT_NOTE_SERIES,
  formatCreditNoteNumber,
  checkInvoiceIds,
  checkIssueDateAfterLast,
  checkInvoices,
  formatInvoiceNumber,
  INVOICE_SERIES,
  INVOICE_TYPES,
  notificationDecision,
  type SkipReason,
} from './invoice.rules.ts';
import * as repo from './invoices.repository.ts';
import type { Static } from '@sinclair/typebox';
import type { BulkCreateBody, BulkNotifyBody, CreditNoteBody } from '../schemas/invoices.ts';

export interface InvoiceContext extends ChangeContext {
  config: Config;
  files: FileStore;
}

type ActorCaller = Pick<Caller, 'userId' | 'email'>;

// ---------------------------------------------------------------------------------------
// Answers.

function invoiceOf(
  row: Omit<
    repo.InvoiceRow,
    'structure_api' | 'siret' | 'email_notifs' | 'email_notifs_cc' | 'pdf_id' | 'xml_id' | 'address_line' | 'postcode' | 'city' | 'country'
  >,
) {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    credited_invoice: row.credited_invoice_id ? { id: row.credited_invoice_id, number: row.credited_number!, issue_date: row.credited_issue_date! } : null,
    credit_reason: row.credit_reason,
    org_id: row.org_id,
    org_name: row.org_name,
    invoice_type: row.invoice_type,
    payment_method: row.payment_method,
    period_label: row.period_label,
    issue_date: row.issue_date,
    due_date: row.due_date,
    lines: row.lines.map((l) => ({ label: l.label, quantity: l.quantity, unit_price: moneyFromDb(l.unit_price), vat_rate: l.vat_rate })),
    total_ht: moneyFromDb(row.total_ht),
    total_vat: moneyFromDb(row.total_vat),
    total_ttc: moneyFromDb(row.total_ttc),
    notified: row.notified,
    notified_at: row.notified_at,
    created_at: row.created_at,
  };
}

// ---------------------------------------------------------------------------------------
// Bulk creation.

/** The body of a bulk creation: each field checked by the rules, in their order. */
export type BulkCreateInput = Static<typeof BulkCreateBody>;

/**
 * The invoices of a bulk, created in the change's transaction: all or nothing. The numbers
 * are reserved as one range of the year's series (the series rows stay locked until commit,
 * so concurrent bulks follow each other), given in request order. Under that lock, the issue
 * date is checked against the last invoice issued (409 `issue_date_before_last`): the series is
 * chronological however bulks race.
 */
export async function insertInvoiceBulk(change: Change, caller: ActorCaller | null, input: BulkCreateInput): Promise<repo.CreatedInvoice[]> {
  const header = checkHeader(input);
  const invoices = checkInvoices(input.invoices);
  const year = Number(header.issue_date.slice(0, 4));
  // Every year of the series, then this year's row: the last invoice read below is the last one
  // committed, and no bulk can commit an earlier-dated one before this one does.
  await lockSeries(change.trx, INVOICE_SERIES);
  const first = await reserveInSeries(change.trx, INVOICE_SERIES, year, invoices.length);
  checkIssueDateAfterLast(header.issue_date, await repo.lastIssued(change.trx));
  const numbered = invoices.map((invoice, i) => ({ ...invoice, number: formatInvoiceNumber(year, first + i) }));
  const created = await repo.insertInvoices(change.trx, header, numbered, actorOf(caller));
  if (created.length !== numbered.length) {
    // An organization that does not exist: say which, and roll everything back (its numbers too).
    const existing = await repo.existingOrgIds(change.trx, [...new Set(invoices.map((i) => i.org_id))]);
    const index = invoices.findIndex((i) => !existing.has(i.org_id));
    throw invoiceErrors.orgNotFound(`invoices[${Math.max(index, 0)}].org_id`);
  }
  await change.jobs(created.map((c) => invoiceDocumentJob(c.id, c.org_id)));
  const byNumber = new Map(created.map((c) => [c.number, c]));
  return numbered.map((n) => {
    const row = byNumber.get(n.number)!;
    return { id: row.id, number: row.number, org_id: row.org_id, total_ttc: moneyFromDb(row.total_ttc) };
  });
}

/** `POST /api/staff/facturation/bulk-create`. */
export async function bulkCreate(ctx: InvoiceContext, caller: Caller, input: BulkCreateInput) {
  const created = await applyChange(ctx, (change) => insertInvoiceBulk(change, caller, input));
  return { created };
}

// ---------------------------------------------------------------------------------------
// Reading.

export interface InvoiceListQuery {
  limit?: string;
  cursor?: string;
  notified?: string;
  org_id?: string;
  invoice_type?: string;
  kind?: string;
  /** `YYYY-MM`: issued that month (the CSV exports). */
  period?: string;
}

/** `GET /api/factures` (the organization's) and `GET /api/staff/facturation` (orgId null: all, or `?org_id=`). */
export async function listInvoices(db: Database, orgId: string | null, query: InvoiceListQuery) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  const filters: repo.InvoiceFilters = { orgId };
  if (query.notified !== undefined && query.notified !== '') {
    if (query.notified !== 'true' && query.notified !== 'false') throw fieldErrors.invalid('notified', 'Le filtre notified (true ou false)');
    filters.notified = query.notified === 'true';
  }
  if (query.invoice_type) {
    if (!(INVOICE_TYPES as readonly string[]).includes(query.invoice_type)) throw fieldErrors.invalid('invoice_type', 'Le type de facture');
    filters.invoiceType = query.invoice_type as repo.InvoiceFilters['invoiceType'];
  }
  if (query.kind) {
    if (query.kind !== 'facture' && query.kind !== 'avoir') throw fieldErrors.invalid('kind', 'Le type de document (facture ou avoir)');
    filters.kind = query.kind;
  }
  if (query.period) {
    const period = parsePeriod(query.period);
    if (!period) throw fieldErrors.invalid('period', 'La période (AAAA-MM)');
    filters.issuedIn = period;
  }
  const rows = await repo.listInvoices(db, filters, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.number]);
  return { items: page.items.map(invoiceOf), next_cursor: page.next_cursor };
}

/** `GET /api/staff/facturation`: every organization, or the one `org_id` names. */
export function listStaffInvoices(db: Database, query: InvoiceListQuery) {
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  return listInvoices(db, query.org_id ? query.org_id.toLowerCase() : null, query);
}

async function findOrNotFound(db: Database, orgId: string | null, id: string) {
  const row = isUuid(id) ? await repo.findInvoice(db, orgId, id) : undefined;
  if (!row) throw invoiceErrors.notFound();
  return row;
}

/** `GET /api/staff/facturation/{id}`: the invoice with its organization's notification addresses. */
export async function readStaffInvoice(db: Database, id: string) {
  const row = await findOrNotFound(db, null, id);
  return {
    ...invoiceOf(row),
    organization: {
      id: row.org_id,
      name: row.org_name,
      structure_api: row.structure_api,
      email_notifs: row.email_notifs,
      email_notifs_cc: row.email_notifs_cc,
    },
  };
}

/** What the PDF and the Factur-X XML say of an invoice (the same content). */
export function documentInput(row: repo.InvoiceRow, config: Config): FacturXInput {
  return {
    ...invoiceOf(row),
    credited: row.credited_number ? { number: row.credited_number, issue_date: row.credited_issue_date! } : null,
    seller: config.operator,
    buyer: {
      name: row.org_name,
      structure_api: row.structure_api,
      siret: row.siret,
      address_line: row.address_line,
      postcode: row.postcode,
      city: row.city,
      country: row.country,
    },
  };
}

/** The job making an invoice's documents, queued in the transaction that issues it. */
export function invoiceDocumentJob(invoiceId: string, orgId: string): OutgoingJob {
  return { kind: JOB_KINDS.invoiceDocument, payload: { invoice_id: invoiceId }, orgId, subject: { type: 'invoice', id: invoiceId } };
}

/**
 * The invoice document job: the Factur-X PDF and its `factur-x.xml`, rendered
 * outside any transaction, then stored in the transaction that ends the job, with the e-mail of
 * a notification that waited for them: an invoice is announced only once its document exists.
 * An issued invoice never changes, and the documents first stored are the ones kept. The
 * operator's identity incomplete or no IBAN for a transfer (BR-61) fails the job
 * with that reason rather than make an invalid e-invoice; staff retry it once it is set. An
 * invoice whose PDF was stored before Factur-X keeps it: only its XML is added.
 */
export async function runInvoiceDocumentJob(ctx: InvoiceContext, job: RunningJob): Promise<void> {
  const id = String(job.payload.invoice_id);
  const row = isUuid(id) ? await repo.findInvoice(ctx.db, null, id) : undefined;
  if (!row) return;
  const operator = await operatorSettings(ctx.db, ctx.config);
  let made: { pdf: Buffer; xml: Buffer } | null = null;
  if (!row.pdf_id || !row.xml_id) {
    const missing = missingOperatorIdentity(operator);
    if (missing.length > 0) throw invoiceErrors.operatorIdentityMissing(missing);
    if (row.payment_method === 'virement' && !operator.iban) throw transferErrors.operatorAccountMissing();
    const input = documentInput(row, { ...ctx.config, operator });
    made = await generatingPdf(async () => makeFacturX(await renderPdf(invoiceDocument(input)), facturXInvoice(input)));
  }
  const word = row.kind === 'avoir' ? 'Avoir' : 'Facture';
  await applyChange(ctx, async (change) => {
    const current = await repo.lockInvoiceDocuments(change.trx, row.id);
    // Stored meanwhile (another worker after a lease ran out): those are kept.
    if (made && !(current?.pdf_id && current.xml_id)) {
      await repo.setDocuments(change.trx, row.id, {
        pdf_id:
          current?.pdf_id ??
          (await ctx.files.put(change.trx, { content: made.pdf, contentType: 'application/pdf', filename: `${word}-${row.number}.pdf`, orgId: row.org_id })),
        xml_id: await ctx.files.put(change.trx, { content: made.xml, contentType: 'application/xml', filename: FACTUR_X_FILENAME, orgId: row.org_id }),
      });
    }
    const [waiting] = await repo.lockForNotification(change.trx, [row.id]);
    if (waiting?.notify_pending) {
      if (waiting.email_notifs.length > 0) {
        await change.mail(invoiceMail({ ...ctx.config, operator }, waiting));
        await repo.markNotified(change.trx, [row.id], {}, false);
      } else {
        await repo.clearNotifyPending(change.trx, row.id);
      }
    }
    await job.done(change.trx);
  });
}

/** The documents of an invoice once its job made them; 409 `document_pending` (or `document_failed`) before. */
async function storedDocuments(ctx: InvoiceContext, row: repo.InvoiceRow): Promise<{ pdf_id: string; xml_id: string }> {
  if (row.pdf_id && row.xml_id) return { pdf_id: row.pdf_id, xml_id: row.xml_id };
  const job = await latestJobOf(ctx.db, JOB_KINDS.invoiceDocument, row.id);
  throw job?.status === 'failed' ? invoiceErrors.documentFailed() : invoiceErrors.documentPending();
}

/**
 * `GET /api/staff/facturation/{id}/pdf-url`, `GET /api/factures/{id}/pdf-url`: a 5-minute link
 * to the invoice's Factur-X PDF. It only reads: the document is made by its job.
 */
export async function invoicePdfUrl(ctx: InvoiceContext, orgId: string | null, id: string) {
  const row = await findOrNotFound(ctx.db, orgId, id);
  const { pdf_id } = await storedDocuments(ctx, row);
  return ctx.files.signedUrl(pdf_id);
}

/**
 * `GET /api/staff/facturation/{id}/factur-x.xml`, `GET /api/factures/{id}/factur-x.xml`:
 * the XML alone, byte for byte the one inside the PDF.
 */
export async function invoiceFacturXml(ctx: InvoiceContext, orgId: string | null, id: string): Promise<{ filename: string; xml: Buffer }> {
  const row = await findOrNotFound(ctx.db, orgId, id);
  const { xml_id } = await storedDocuments(ctx, row);
  const file = await ctx.files.get(xml_id);
  if (!file) throw new Error(`the factur-x.xml of ${row.number} is missing from the file store`);
  return { filename: `${row.number}-factur-x.xml`, xml: file.content };
}

// ---------------------------------------------------------------------------------------
// Credit notes.

/**
 * `POST /api/staff/facturation/{id}/avoir` `{ lines?, reason }`: a credit note of the invoice,
 * numbered A-YYYY-NNNNNN in its own continuous series. The invoice is locked first (its credit
 * notes follow each other, and never credit more than its total: 409 `credit_exceeds_invoice`),
 * then the series. Dated today, or the invoice's date, or the last credit note's, whichever is
 * latest: the series stays chronological.
 */
export async function createCreditNote(ctx: InvoiceContext, caller: Caller, id: string, body: Static<typeof CreditNoteBody>) {
  return applyChange(ctx, async (change) => {
    const invoice = isUuid(id) ? await repo.lockForCredit(change.trx, id.toLowerCase()) : undefined;
    if (!invoice) throw invoiceErrors.notFound();
    if (invoice.kind !== 'facture') throw invoiceErrors.notAnInvoice();
    const note = checkCreditNote(body, invoice.lines);
    const total = moneyFromDb(invoice.total_ttc);
    const credited = invoice.credited_ttc;
    if (compareMoney(sumMoney([credited, note.total_ttc]), total) > 0) {
      throw invoiceErrors.creditExceedsInvoice(invoice.number, subtractMoney(total, credited));
    }
    checkCreditByRate(invoice.lines, invoice.credited_lines, note.lines);
    await lockSeries(change.trx, CREDIT_NOTE_SERIES);
    const last = await repo.lastIssued(change.trx, 'avoir');
    const issueDate = [todayInFrance(), invoice.issue_date, last?.issue_date ?? ''].sort().at(-1)!;
    const year = Number(issueDate.slice(0, 4));
    const number = formatCreditNoteNumber(year, await reserveInSeries(change.trx, CREDIT_NOTE_SERIES, year));
    const created = await repo.insertCreditNote(
      change.trx,
      {
        number,
        org_id: invoice.org_id,
        invoice_type: invoice.invoice_type,
        payment_method: invoice.payment_method,
        period_label: invoice.period_label,
        issue_date: issueDate,
        due_date: issueDate,
        lines: note.lines,
        total_ht: note.total_ht,
        total_vat: note.total_vat,
        total_ttc: note.total_ttc,
        credited_invoice_id: invoice.id,
        credit_reason: note.reason,
      },
      actorOf(caller),
    );
    await change.jobs([invoiceDocumentJob(created.id, created.org_id)]);
    return { id: created.id, number: created.number, org_id: created.org_id, total_ttc: moneyFromDb(created.total_ttc), credited_invoice_id: invoice.id };
  });
}

// ---------------------------------------------------------------------------------------
// Bulk notification.

export interface NotifyResult {
  notified: string[];
  /** Their documents are still being made: their job sends the e-mail once they exist. */
  waiting: string[];
  skipped: Array<{ id: string; reason: SkipReason }>;
}

/** The e-mail of one invoice: To every `email_notifs`, Cc every `email_notifs_cc`. */
export function invoiceMail(config: Config, invoice: repo.NotifiableInvoice): OutgoingMail {
  return {
    kind: 'invoice',
    to: invoice.email_notifs,
    cc: invoice.email_notifs_cc,
    ...invoiceEmail({
      number: invoice.number,
      kind: invoice.kind,
      orgName: invoice.org_name,
      invoiceType: invoice.invoice_type,
      paymentMethod: invoice.payment_method,
      periodLabel: invoice.period_label,
      issueDate: formatDateFr(invoice.issue_date),
      dueDate: formatDateFr(invoice.due_date),
      totalHt: formatEuros(moneyFromDb(invoice.total_ht)),
      totalVat: formatEuros(moneyFromDb(invoice.total_vat)),
      totalTtc: formatEuros(moneyFromDb(invoice.total_ttc)),
      operatorName: config.operator.name,
      operatorIban: config.operator.iban,
      operatorBic: config.operator.bic,
      invoicesUrl: `${config.publicUrl}/factures`,
      supportEmail: config.supportEmail,
    }),
  };
}

/**
 * Notifies invoices in the change's transaction: each sendable one gets its e-mail in the
 * outbox and `notified`/`notified_at`, in the same transaction; one whose documents are not made
 * yet waits for them (its job sends the e-mail, `waiting`); the others are skipped with their
 * reason. The invoices are locked first, so two notifications of one invoice at once
 * send it once (the second sees it notified).
 */
export async function notifyInvoiceBulk(change: Change, config: Config, caller: ActorCaller | null, rawIds: unknown, force: boolean): Promise<NotifyResult> {
  const ids = checkInvoiceIds(rawIds);
  const found = new Map((await repo.lockForNotification(change.trx, ids.filter(isUuid))).map((row) => [row.id, row]));
  const notified: string[] = [];
  const waiting: string[] = [];
  const skipped: NotifyResult['skipped'] = [];
  const mails: OutgoingMail[] = [];
  // The operator's name and account the e-mails give: the settings in force.
  const withOperator = { ...config, operator: await operatorSettings(change.trx, config) };
  for (const id of ids) {
    const invoice = found.get(id);
    const decision = notificationDecision(invoice, force);
    if (decision !== 'notify') {
      skipped.push({ id, reason: decision });
      continue;
    }
    if (!invoice!.has_documents) {
      waiting.push(id);
      continue;
    }
    notified.push(id);
    mails.push(invoiceMail(withOperator, invoice!));
  }
  await change.mails(mails);
  await repo.markNotified(change.trx, notified, actorOf(caller), force);
  await repo.markNotifyPending(change.trx, waiting, actorOf(caller));
  return { notified, waiting, skipped };
}

/** `POST /api/staff/facturation/bulk-notify`. */
export function bulkNotify(ctx: InvoiceContext, caller: Caller, body: Static<typeof BulkNotifyBody>): Promise<NotifyResult> {
  const force = checkForce(body.force);
  return applyChange(ctx, (change) => notifyInvoiceBulk(change, ctx.config, caller, body.invoice_ids, force));
}
