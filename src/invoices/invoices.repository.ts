/**
 * SQL of invoices. Bulk changes are set-based: a bulk creation is one
 * `insert … select` from the request's rows (sent as one JSON parameter) with its audit
 * events in the same statement; a bulk notification locks and reads its invoices in one
 * statement and marks them, with their audit events, in another.
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { InvoiceKind, InvoiceLine, InvoiceType, PaymentMethod } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import { moneyFromDb, sumMoney, type Money } from '../money/money.ts';
import type { CheckedInvoice, InvoiceHeader } from './invoice.rules.ts';

/** UUIDs (already checked) as one `uuid[]` parameter: one text, whatever the driver. */
function uuidArray(ids: readonly string[]) {
  return sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;
}

export interface CreatedInvoice {
  id: string;
  number: string;
  org_id: string;
  total_ttc: string;
}

/**
 * Inserts the invoices (numbers given, in request order) and their `invoice.created` events.
 * Invoices of an organization that does not exist are not inserted: the caller compares
 * counts and rolls back.
 */
export async function insertInvoices(
  db: Database,
  header: InvoiceHeader,
  invoices: ReadonlyArray<CheckedInvoice & { number: string }>,
  actor: { actor_user_id?: string | null; actor_email?: string | null },
): Promise<CreatedInvoice[]> {
  const rows = JSON.stringify(
    invoices.map((i) => ({ number: i.number, org_id: i.org_id, lines: i.lines, total_ht: i.total_ht, total_vat: i.total_vat, total_ttc: i.total_ttc })),
  );
  const { rows: created } = await sql<CreatedInvoice>`
    with created as (
      insert into public.invoices
        (number, org_id, invoice_type, payment_method, period_label, issue_date, due_date, lines, total_ht, total_vat, total_ttc)
      select r.number, r.org_id, ${header.invoice_type}, ${header.payment_method}, ${header.period_label},
             ${header.issue_date}::date, ${header.due_date}::date, r.lines, r.total_ht, r.total_vat, r.total_ttc
        from jsonb_to_recordset(${rows}::jsonb)
               as r(number text, org_id uuid, lines jsonb, total_ht numeric, total_vat numeric, total_ttc numeric)
        join public.organizations o on o.id = r.org_id
      returning id, number, org_id, total_ttc
    ), events as (
      insert into public.module_events (org_id, action, subject_type, subject_id, actor_user_id, actor_email, details)
      select org_id, 'invoice.created', 'invoice', id::text, ${actor.actor_user_id ?? null}::uuid, ${actor.actor_email ?? null}, jsonb_build_object('number', number)
        from created
    )
    select id, number, org_id, total_ttc::text as total_ttc from created`.execute(db);
  return created;
}

/**
 * The invoice with the latest issue date (the highest number among those of that date), every
 * year: what a new invoice may not be dated before. One probe of `invoices_issue_date_idx`
 * (invoices) or `invoices_credit_notes_issue_date_idx` (credit notes). The order names the
 * table's column: a bare `issue_date` would be the selected text of the same name, which no
 * index holds, and every invoice ever issued would be read and sorted (100 ms at 185,000).
 */
export function lastIssuedQuery(kind: InvoiceKind) {
  return sql<{ number: string; issue_date: string }>`
    select i.number, i.issue_date::text as issue_date from public.invoices i
     where i.kind = ${kind} order by i.issue_date desc, i.number desc limit 1`;
}

export async function lastIssued(db: Database, kind: InvoiceKind = 'facture'): Promise<{ number: string; issue_date: string } | undefined> {
  const { rows } = await lastIssuedQuery(kind).execute(db);
  return rows[0];
}

/** Which of these organizations exist. */
export async function existingOrgIds(db: Database, orgIds: readonly string[]): Promise<Set<string>> {
  const { rows } = await sql<{ id: string }>`select id from public.organizations where id = any(${uuidArray(orgIds)})`.execute(db);
  return new Set(rows.map((r) => r.id));
}

const INVOICE_COLUMNS = [
  'i.id',
  'i.number',
  'i.org_id',
  'i.invoice_type',
  'i.payment_method',
  'i.period_label',
  'i.issue_date',
  'i.due_date',
  'i.lines',
  'i.total_ht',
  'i.total_vat',
  'i.total_ttc',
  'i.notified',
  'i.notified_at',
  'i.created_at',
  'i.kind',
  'i.credited_invoice_id',
  'i.credit_reason',
] as const;

function selectInvoices(db: Database) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('organizations as o', 'o.id', 'i.org_id')
    .leftJoin('invoices as c', 'c.id', 'i.credited_invoice_id')
    .select([...INVOICE_COLUMNS, 'o.name as org_name', 'c.number as credited_number', 'c.issue_date as credited_issue_date']);
}

export type InvoiceRow = Awaited<ReturnType<typeof findInvoice>> & object;

/** The invoice, or undefined (unknown, or not of `orgId` when given). */
export function findInvoice(db: Database, orgId: string | null, id: string) {
  let query = selectInvoices(db)
    .select([
      'o.structure_api',
      'o.siret',
      'o.email_notifs',
      'o.email_notifs_cc',
      'o.address_line',
      'o.postcode',
      'o.city',
      'o.country',
      'i.pdf_id',
      'i.xml_id',
    ])
    .where('i.id', '=', id);
  if (orgId !== null) query = query.where('i.org_id', '=', orgId);
  return query.executeTakeFirst();
}

/** Newest first: the highest number (F-YYYY-… sorts by year, then by sequence). */
export const INVOICE_ORDER = [{ ref: 'i.number', direction: 'desc', kind: 'text' }] as const satisfies KeysetOrder;

export interface InvoiceFilters {
  orgId: string | null;
  notified?: boolean;
  invoiceType?: InvoiceType;
  kind?: InvoiceKind;
  /** `YYYY-MM`: the invoices issued in that month (the CSV export's period). */
  issuedIn?: string;
}

export function listInvoices(db: Database, filters: InvoiceFilters, cursor: CursorValue[] | null, limit: number) {
  let query = selectInvoices(db);
  if (filters.orgId !== null) query = query.where('i.org_id', '=', filters.orgId);
  if (filters.notified !== undefined) query = query.where('i.notified', '=', filters.notified);
  if (filters.invoiceType) query = query.where('i.invoice_type', '=', filters.invoiceType);
  if (filters.kind) query = query.where('i.kind', '=', filters.kind);
  if (filters.issuedIn) {
    const first = `${filters.issuedIn}-01`;
    query = query.where('i.issue_date', '>=', sql<string>`${first}::date`).where('i.issue_date', '<', sql<string>`${first}::date + interval '1 month'`);
  }
  return keyset(query, INVOICE_ORDER, cursor, limit).execute();
}

/** The stored Factur-X PDF and its XML, each set once (an issued invoice never changes). */
export async function setDocuments(db: Database, id: string, files: { pdf_id: string; xml_id: string }): Promise<void> {
  await db.updateTable('invoices').set(files).where('id', '=', id).execute();
}

export function lockInvoiceDocuments(db: Database, id: string) {
  return db.selectFrom('invoices').select(['id', 'pdf_id', 'xml_id']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * The invoice to credit, locked until commit (two credit notes of one invoice
 * follow each other), with the TTC its credit notes already credit.
 */
export async function lockForCredit(db: Database, id: string) {
  const { rows } = await sql<{
    id: string;
    number: string;
    org_id: string;
    kind: InvoiceKind;
    invoice_type: InvoiceType;
    payment_method: PaymentMethod;
    period_label: string;
    issue_date: string;
    lines: InvoiceLine[];
    total_ttc: string;
  }>`
    select i.id, i.number, i.org_id, i.kind, i.invoice_type, i.payment_method, i.period_label, i.issue_date::text as issue_date, i.lines,
           i.total_ttc::text as total_ttc
      from public.invoices i
     where i.id = ${id}::uuid
       for update of i`.execute(db);
  const invoice = rows[0];
  if (!invoice) return undefined;
  // A statement of its own, after the lock: under READ COMMITTED it sees the credit notes
  // committed while this one waited (a subquery of the locking statement would not).
  const { rows: notes } = await sql<{ total_ttc: string; lines: InvoiceLine[] }>`
    select total_ttc::text as total_ttc, lines from public.invoices where credited_invoice_id = ${id}::uuid`.execute(db);
  const credited_ttc = notes.reduce((sum, note) => sumMoney([sum, moneyFromDb(note.total_ttc)]), '0.00' as Money);
  return { ...invoice, credited_ttc, credited_lines: notes.flatMap((note) => note.lines) };
}

/** Inserts a credit note and its `invoice.credited` event (one statement). */
export async function insertCreditNote(
  db: Database,
  note: {
    number: string;
    org_id: string;
    invoice_type: InvoiceType;
    payment_method: PaymentMethod;
    period_label: string;
    issue_date: string;
    due_date: string;
    lines: InvoiceLine[];
    total_ht: string;
    total_vat: string;
    total_ttc: string;
    credited_invoice_id: string;
    credit_reason: string;
  },
  actor: { actor_user_id?: string | null; actor_email?: string | null },
): Promise<CreatedInvoice> {
  const { rows } = await sql<CreatedInvoice>`
    with created as (
      insert into public.invoices
        (number, kind, org_id, invoice_type, payment_method, period_label, issue_date, due_date, lines, total_ht, total_vat, total_ttc, credited_invoice_id, credit_reason)
      values (${note.number}, 'avoir', ${note.org_id}::uuid, ${note.invoice_type}, ${note.payment_method}, ${note.period_label}, ${note.issue_date}::date,
              ${note.due_date}::date, ${JSON.stringify(note.lines)}::jsonb, ${note.total_ht}::numeric, ${note.total_vat}::numeric, ${note.total_ttc}::numeric,
              ${note.credited_invoice_id}::uuid, ${note.credit_reason})
      returning id, number, org_id, total_ttc, credited_invoice_id
    ), events as (
      insert into public.module_events (org_id, action, subject_type, subject_id, actor_user_id, actor_email, details)
      select org_id, 'invoice.credited', 'invoice', credited_invoice_id::text, ${actor.actor_user_id ?? null}::uuid, ${actor.actor_email ?? null},
             jsonb_build_object('number', number, 'credit_note_id', id)
        from created
    )
    select id, number, org_id, total_ttc::text as total_ttc from created`.execute(db);
  return rows[0]!;
}

export interface NotifiableInvoice {
  id: string;
  number: string;
  kind: InvoiceKind;
  org_id: string;
  invoice_type: InvoiceType;
  payment_method: PaymentMethod;
  period_label: string;
  issue_date: string;
  due_date: string;
  total_ht: string;
  total_vat: string;
  total_ttc: string;
  notified: boolean;
  /** Its Factur-X PDF and XML are stored: it may be announced. */
  has_documents: boolean;
  notify_pending: boolean;
  org_name: string;
  email_notifs: string[];
  email_notifs_cc: string[];
}

/** The invoices of a notification with their organization's addresses, locked until commit. */
export async function lockForNotification(db: Database, ids: readonly string[]): Promise<NotifiableInvoice[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<NotifiableInvoice>`
    select i.id, i.number, i.kind, i.org_id, i.invoice_type, i.payment_method, i.period_label, i.issue_date, i.due_date,
           i.total_ht::text as total_ht, i.total_vat::text as total_vat, i.total_ttc::text as total_ttc, i.notified,
           (i.pdf_id is not null and i.xml_id is not null) as has_documents, i.notify_pending,
           o.name as org_name, o.email_notifs, o.email_notifs_cc
      from public.invoices i
      join public.organizations o on o.id = i.org_id
     where i.id = any(${uuidArray(ids)})
     order by i.number
       for update of i`.execute(db);
  return rows;
}

/** Marks invoices notified now, with one `invoice.notified` event each (one statement). */
export async function markNotified(
  db: Database,
  ids: readonly string[],
  actor: { actor_user_id?: string | null; actor_email?: string | null },
  force: boolean,
): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    with marked as (
      update public.invoices set notified = true, notified_at = now(), notify_pending = false
       where id = any(${uuidArray(ids)})
      returning id, org_id, number
    )
    insert into public.module_events (org_id, action, subject_type, subject_id, actor_user_id, actor_email, details)
    select org_id, 'invoice.notified', 'invoice', id::text, ${actor.actor_user_id ?? null}::uuid, ${actor.actor_email ?? null}, jsonb_build_object('number', number, 'force', ${force}::boolean)
      from marked`.execute(db);
}

/**
 * Invoices whose notification waits for their documents: their job sends it. One
 * `invoice.notification_waiting` event each, naming who asked.
 */
export async function markNotifyPending(
  db: Database,
  ids: readonly string[],
  actor: { actor_user_id?: string | null; actor_email?: string | null },
): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    with marked as (
      update public.invoices set notify_pending = true
       where id = any(${uuidArray(ids)})
      returning id, org_id, number
    )
    insert into public.module_events (org_id, action, subject_type, subject_id, actor_user_id, actor_email, details)
    select org_id, 'invoice.notification_waiting', 'invoice', id::text, ${actor.actor_user_id ?? null}::uuid, ${actor.actor_email ?? null}, jsonb_build_object('number', number)
      from marked`.execute(db);
}

export async function clearNotifyPending(db: Database, id: string): Promise<void> {
  await db.updateTable('invoices').set({ notify_pending: false }).where('id', '=', id).execute();
}

export type { InvoiceLine };
