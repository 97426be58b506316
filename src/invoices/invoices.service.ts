/**
 * Invoices (MODULES 6): bulk creation with continuous numbers, lists, the detail, the PDF, and
 * bulk notification through the outbox. Every change is one `applyChange`: its writes, its
 * audit events and its e-mails in one transaction.
 */
import type { Config } from '../config.ts';
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
import { moneyFromDb } from '../money/money.ts';
import { renderPdf } from '../pdf/render.ts';
import { invoiceErrors } from './invoice.errors.ts';
import { invoiceDocument } from './invoice.pdf.ts';
import {
  checkHeader,
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

export interface InvoiceContext extends ChangeContext {
  config: Config;
  files: FileStore;
}

type ActorCaller = Pick<Caller, 'userId' | 'email'>;

// ---------------------------------------------------------------------------------------
// Answers.

function invoiceOf(row: Omit<repo.InvoiceRow, 'structure_api' | 'siret' | 'email_notifs' | 'email_notifs_cc' | 'pdf_id'>) {
  return {
    id: row.id,
    number: row.number,
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

export interface BulkCreateInput {
  invoice_type?: unknown;
  payment_method?: unknown;
  period_label?: unknown;
  issue_date?: unknown;
  due_date?: unknown;
  invoices?: unknown;
}

/**
 * The invoices of a bulk, created in the change's transaction: all or nothing. The numbers
 * are reserved as one range of the year's series (the series rows stay locked until commit,
 * so concurrent bulks follow each other), given in request order. Under that lock, the issue
 * date is checked against the last invoice issued (409 `issue_date_before_last`): the series is
 * chronological however bulks race.
 */
export async function insertInvoiceBulk(change: Change, caller: ActorCaller | null, input: BulkCreateInput): Promise<repo.CreatedInvoice[]> {
  const header = checkHeader(input as Record<string, unknown>);
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
    organization: { id: row.org_id, name: row.org_name, structure_api: row.structure_api, email_notifs: row.email_notifs, email_notifs_cc: row.email_notifs_cc },
  };
}

/**
 * `GET /api/staff/facturation/{id}/pdf-url`, `GET /api/factures/{id}/pdf-url`: a 5-minute link
 * to the invoice PDF. It is rendered on first request (outside any transaction) and stored: an
 * issued invoice never changes, and the document first issued is the one kept, whatever later
 * becomes of the operator's settings.
 */
export async function invoicePdfUrl(ctx: InvoiceContext, orgId: string | null, id: string) {
  const row = await findOrNotFound(ctx.db, orgId, id);
  if (row.pdf_id) return ctx.files.signedUrl(row.pdf_id);
  const pdf = await renderPdf(
    invoiceDocument({
      ...invoiceOf(row),
      seller: ctx.config.operator,
      buyer: { name: row.org_name, structure_api: row.structure_api, siret: row.siret },
    }),
  );
  const fileId = await applyChange(ctx, async (change) => {
    const current = await repo.lockInvoicePdf(change.trx, row.id);
    // Another request stored it meanwhile: keep that one.
    if (current?.pdf_id) return current.pdf_id;
    const stored = await ctx.files.put(change.trx, { content: pdf, contentType: 'application/pdf', filename: `Facture-${row.number}.pdf`, orgId: row.org_id });
    await repo.setPdf(change.trx, row.id, stored);
    return stored;
  });
  return ctx.files.signedUrl(fileId);
}

// ---------------------------------------------------------------------------------------
// Bulk notification.

export interface NotifyResult {
  notified: string[];
  skipped: Array<{ id: string; reason: SkipReason }>;
}

/** The e-mail of one invoice (SPEC 6, MODULES 6): To every `email_notifs`, Cc every `email_notifs_cc`. */
export function invoiceMail(config: Config, invoice: repo.NotifiableInvoice): OutgoingMail {
  return {
    kind: 'invoice',
    to: invoice.email_notifs,
    cc: invoice.email_notifs_cc,
    ...invoiceEmail({
      number: invoice.number,
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
 * outbox and `notified`/`notified_at`, in the same transaction; the others are skipped with
 * their reason. The invoices are locked first, so two notifications of one invoice at once
 * send it once (the second sees it notified).
 */
export async function notifyInvoiceBulk(change: Change, config: Config, caller: ActorCaller | null, rawIds: unknown, force: boolean): Promise<NotifyResult> {
  const ids = checkInvoiceIds(rawIds);
  const found = new Map((await repo.lockForNotification(change.trx, ids.filter(isUuid))).map((row) => [row.id, row]));
  const notified: string[] = [];
  const skipped: NotifyResult['skipped'] = [];
  const mails: OutgoingMail[] = [];
  for (const id of ids) {
    const invoice = found.get(id);
    const decision = notificationDecision(invoice, force);
    if (decision !== 'notify') {
      skipped.push({ id, reason: decision });
      continue;
    }
    notified.push(id);
    mails.push(invoiceMail(config, invoice!));
  }
  await change.mails(mails);
  await repo.markNotified(change.trx, notified, actorOf(caller), force);
  return { notified, skipped };
}

/** `POST /api/staff/facturation/bulk-notify`. */
export function bulkNotify(ctx: InvoiceContext, caller: Caller, body: { invoice_ids?: unknown; force?: unknown }): Promise<NotifyResult> {
  if (body.force !== undefined && body.force !== null && typeof body.force !== 'boolean') throw fieldErrors.invalid('force', 'Le champ force (true ou false)');
  return applyChange(ctx, (change) => notifyInvoiceBulk(change, ctx.config, caller, body.invoice_ids, body.force === true));
}
