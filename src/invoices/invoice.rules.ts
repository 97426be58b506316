/**
 * The rules of invoices as pure functions: what a bulk creation must hold, the
 * amounts of a line and of an invoice, the default due date, the number. The service applies
 * them; tests call them directly.
 *
 * Amounts (README): a line's HT is `quantity × unit_price` rounded half-up to the cent; its
 * VAT is `HT × vat_rate / 100` rounded half-up to the cent; the invoice's totals are the exact
 * sums of its lines' HT and VAT, and TTC = HT + VAT. Every step runs on bigint cents
 * (src/money), so the totals printed are the sums of the lines printed.
 */
import type { InvoiceLine, InvoiceType, PaymentMethod } from '../db/schema.ts';
import type { Static } from '@sinclair/typebox';
import { formatSeriesNumber } from '../db/number-series.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { absent, isUuid } from '../http/input.ts';
import { addDays } from '../format/calendar.ts';
import {
  compareMoney,
  isStorableMoney,
  multiplyMoney,
  parseMoney,
  parseQuantity,
  parseRate,
  percentOfMoney,
  subtractMoney,
  sumMoney,
  type Money,
} from '../money/money.ts';
import { checkField } from '../schemas/fields.ts';
import { BulkCreateBody, BulkNotifyBody, CreditNoteBody, InvoiceId, InvoiceLineInput, InvoiceLines, InvoiceOrgId } from '../schemas/invoices.ts';
import { todayInFrance } from '../format/french.ts';
import { invoiceErrors } from './invoice.errors.ts';

// The limits of a body are its schema's (src/schemas/invoices.ts).
export { INVOICE_TYPES, LABEL_MAX, MAX_BULK, MAX_LINES, PAYMENT_METHODS, PERIOD_LABEL_MAX, CREDIT_REASON_MAX } from '../schemas/invoices.ts';
/** Without a due date, the legal default term (Code de commerce, L. 441-10): 30 days after issue. */
export const DEFAULT_TERM_DAYS = 30;

/** How many days after today (Europe/Paris) an invoice may be dated: a month's invoices prepared a few days ahead, not a typo of the year. */
export const MAX_ISSUE_DAYS_AHEAD = 5;

/** The number series of invoices in `number_series`. */
export const INVOICE_SERIES = 'invoice';

/** The number series of credit notes (avoirs), A-YYYY-NNNNNN. */
export const CREDIT_NOTE_SERIES = 'credit_note';

/** @example formatCreditNoteNumber(2027, 42) // 'A-2027-000042' */
export function formatCreditNoteNumber(year: number, sequence: number): string {
  return formatSeriesNumber('A', year, sequence);
}

export interface CheckedCreditNote extends InvoiceTotals {
  lines: InvoiceLine[];
  reason: string;
}

/**
 * The body of `POST /api/staff/facturation/{id}/avoir`, `{ lines?, reason }`: the
 * lines credited (default: every line of the invoice) and why, with their totals.
 */
export function checkCreditNote(input: Static<typeof CreditNoteBody>, invoiceLines: readonly InvoiceLine[]): CheckedCreditNote {
  const { properties } = CreditNoteBody;
  if (absent(input.reason) || (typeof input.reason === 'string' && input.reason.trim() === '')) throw fieldErrors.missing('reason', "Le motif de l'avoir");
  const reason = checkField(properties.reason, trimmed(input.reason));
  let lines: InvoiceLine[];
  if (absent(input.lines)) lines = invoiceLines.map((line) => ({ ...line }));
  else lines = checkField(properties.lines, input.lines).map((line, j) => located(`lines[${j}]`, () => checkLine(line)));
  // A credit note corrects the invoice's VAT at the invoice's rates, never at another one.
  const rates = htByRate(invoiceLines);
  lines.forEach((line, j) => {
    if (!rates.has(line.vat_rate)) throw invoiceErrors.at(`lines[${j}]`, invoiceErrors.rateNotOnInvoice(line.vat_rate, [...rates.keys()]));
  });
  const totals = invoiceTotals(lines);
  // Nothing credited: no number is spent on it.
  if (compareMoney(totals.total_ttc, '0.00' as Money) === 0) throw invoiceErrors.emptyCreditNote();
  return { lines, reason, ...totals };
}

/** The HT of `lines` per VAT rate (as the invoice prints it: the sum of its lines' HT). */
export function htByRate(lines: readonly InvoiceLine[]): Map<string, Money> {
  const byRate = new Map<string, Money>();
  for (const line of lines) byRate.set(line.vat_rate, sumMoney([byRate.get(line.vat_rate) ?? ('0.00' as Money), lineAmounts(line).ht]));
  return byRate;
}

/**
 * The credit notes of an invoice never credit more HT at a rate than the invoice has at that
 * rate (they cannot move an amount from one rate to another): 400 `credit_exceeds_rate`, with
 * what remains at that rate. `credited`: the lines of its credit notes already issued.
 */
export function checkCreditByRate(invoiceLines: readonly InvoiceLine[], credited: readonly InvoiceLine[], lines: readonly InvoiceLine[]): void {
  const invoiced = htByRate(invoiceLines);
  const before = htByRate(credited);
  for (const [rate, ht] of htByRate(lines)) {
    const already = before.get(rate) ?? ('0.00' as Money);
    const available = invoiced.get(rate) ?? ('0.00' as Money);
    if (compareMoney(sumMoney([already, ht]), available) > 0) throw invoiceErrors.creditExceedsRate(rate, subtractMoney(available, already));
  }
}

/** @example formatInvoiceNumber(2027, 42) // 'F-2027-000042' */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return formatSeriesNumber('F', year, sequence);
}

/** A text as the rules read it (trimmed); any other value as given, for its schema to refuse. */
const trimmed = (value: unknown): unknown => (typeof value === 'string' ? value.trim() : value);

export interface InvoiceHeader {
  invoice_type: InvoiceType;
  payment_method: PaymentMethod;
  period_label: string;
  issue_date: string;
  due_date: string;
}

/**
 * The fields every invoice of a bulk shares; `today` (Europe/Paris) is the default issue date,
 * and an issue date at most `MAX_ISSUE_DAYS_AHEAD` days after it (400 `invalid_issue_date`).
 * That it does not precede the last invoice issued is checked under the series lock
 * (`checkIssueDateAfterLast`).
 */
export function checkHeader(input: Static<typeof BulkCreateBody>, today: string = todayInFrance()): InvoiceHeader {
  const { properties } = BulkCreateBody;
  if (absent(input.invoice_type)) throw fieldErrors.missing('invoice_type', 'Le type de facture');
  const invoiceType = checkField(properties.invoice_type, input.invoice_type);
  if (absent(input.payment_method)) throw fieldErrors.missing('payment_method', 'Le mode de paiement');
  const paymentMethod = checkField(properties.payment_method, input.payment_method);
  const periodLabel = absent(input.period_label) ? '' : checkField(properties.period_label, trimmed(input.period_label));
  const issueDate = absent(input.issue_date) ? today : checkField(properties.issue_date, input.issue_date);
  const latest = addDays(today, MAX_ISSUE_DAYS_AHEAD);
  if (issueDate > latest) throw invoiceErrors.issueDateTooFar(MAX_ISSUE_DAYS_AHEAD, latest);
  const dueDate = absent(input.due_date) ? addDays(issueDate, DEFAULT_TERM_DAYS) : checkField(properties.due_date, input.due_date);
  if (dueDate < issueDate) throw invoiceErrors.dueBeforeIssue();
  return { invoice_type: invoiceType, payment_method: paymentMethod, period_label: periodLabel, issue_date: issueDate, due_date: dueDate };
}

/**
 * French invoicing rules: the invoices are numbered in chronological order, so a new one cannot
 * be dated before the last one issued (the latest issue date of the series, every year). 409
 * `issue_date_before_last` otherwise. The caller holds the series lock.
 */
export function checkIssueDateAfterLast(issueDate: string, last: { number: string; issue_date: string } | undefined): void {
  if (last && issueDate < last.issue_date) throw invoiceErrors.issueDateBeforeLast(last);
}

/** A line's amounts. */
export interface LineAmounts {
  ht: Money;
  vat: Money;
}

export function lineAmounts(line: InvoiceLine): LineAmounts {
  const ht = multiplyMoney(line.unit_price as Money, line.quantity);
  return { ht, vat: percentOfMoney(ht, line.vat_rate) };
}

export interface InvoiceTotals {
  total_ht: Money;
  total_vat: Money;
  total_ttc: Money;
}

export function invoiceTotals(lines: readonly InvoiceLine[]): InvoiceTotals {
  const amounts = lines.map(lineAmounts);
  const total_ht = sumMoney(amounts.map((a) => a.ht));
  const total_vat = sumMoney(amounts.map((a) => a.vat));
  return { total_ht, total_vat, total_ttc: sumMoney([total_ht, total_vat]) };
}

/** One line as given: checked, in canonical form (`"2"`, `"15.00"`, `"20.00"`). A line that is not an object has none of its fields. */
export function checkLine(raw: unknown): InvoiceLine {
  const { properties } = InvoiceLineInput;
  const line = (raw ?? {}) as Static<typeof InvoiceLineInput>;
  if (absent(line.label) || (typeof line.label === 'string' && line.label.trim() === '')) throw fieldErrors.missing('label', 'Le libellé');
  const label = checkField(properties.label, trimmed(line.label));
  if (absent(line.quantity)) throw fieldErrors.missing('quantity', 'La quantité');
  const quantity = parseQuantity(checkField(properties.quantity, line.quantity))!;
  if (absent(line.unit_price)) throw fieldErrors.missing('unit_price', 'Le prix unitaire');
  const unitPrice = parseMoney(checkField(properties.unit_price, line.unit_price))!;
  if (absent(line.vat_rate)) throw fieldErrors.missing('vat_rate', 'Le taux de TVA');
  const vatRate = parseRate(checkField(properties.vat_rate, line.vat_rate))!;
  return { label, quantity, unit_price: unitPrice, vat_rate: vatRate };
}

export interface CheckedInvoice extends InvoiceTotals {
  org_id: string;
  lines: InvoiceLine[];
}

/** The error of a field, located in the bulk. */
function located<T>(where: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw error instanceof AppError ? invoiceErrors.at(where, error) : error;
  }
}

/**
 * The invoices of a bulk creation, in request order, with their totals. An `org_id` that
 * cannot name an organization (not a UUID) is `org_not_found`, as an unknown one.
 */
export function checkInvoices(raw: Static<typeof BulkCreateBody>['invoices']): CheckedInvoice[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) throw fieldErrors.missing('invoices', 'La liste des factures');
  return checkField(BulkCreateBody.properties.invoices, raw).map((invoice, i) => {
    const where = `invoices[${i}]`;
    if (absent(invoice.org_id)) throw invoiceErrors.at(where, fieldErrors.missing('org_id', "L'organisation"));
    const orgId = checkField(InvoiceOrgId, invoice.org_id, () => invoiceErrors.orgNotFound(`${where}.org_id`));
    const rawLines = invoice.lines;
    if (rawLines === undefined || rawLines === null || (Array.isArray(rawLines) && rawLines.length === 0)) {
      throw invoiceErrors.at(where, fieldErrors.missing('lines', 'La liste des lignes'));
    }
    const lines = located(where, () => checkField(InvoiceLines, rawLines)).map((line, j) => located(`${where}.lines[${j}]`, () => checkLine(line)));
    const totals = invoiceTotals(lines);
    if (!isStorableMoney(totals.total_ttc)) throw invoiceErrors.totalTooLarge(where);
    return { org_id: orgId.toLowerCase(), lines, ...totals };
  });
}

/** `invoice_ids` of a bulk notification: distinct, in request order. */
export function checkInvoiceIds(raw: unknown): string[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) throw fieldErrors.missing('invoice_ids', 'La liste des factures');
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const value of checkField(BulkNotifyBody.properties.invoice_ids, raw)) {
    const given = checkField(InvoiceId, value);
    const id = isUuid(given) ? given.toLowerCase() : given;
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}

/** `force` of a bulk notification (default false). */
export function checkForce(raw: unknown): boolean {
  return raw !== undefined && raw !== null && checkField(BulkNotifyBody.properties.force, raw);
}

/** Why an invoice of a bulk notification is not sent. */
export type SkipReason = 'not_found' | 'no_recipient' | 'already_notified';

/** Whether an invoice is notified, or why not. */
export function notificationDecision(invoice: { notified: boolean; email_notifs: readonly string[] } | undefined, force: boolean): SkipReason | 'notify' {
  if (!invoice) return 'not_found';
  if (invoice.notified && !force) return 'already_notified';
  if (invoice.email_notifs.length === 0) return 'no_recipient';
  return 'notify';
}
