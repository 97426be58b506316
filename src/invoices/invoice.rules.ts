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
import { formatSeriesNumber } from '../db/number-series.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { absent, hasUnsafeCharacters, isUuid } from '../http/input.ts';
import { addDays, parseIsoDate } from '../format/calendar.ts';
import { compareMoney, isStorableMoney, multiplyMoney, parseQuantity, parseRate, percentOfMoney, requireMoney, subtractMoney, sumMoney, type Money } from '../money/money.ts';
import { todayInFrance } from '../format/french.ts';
import { invoiceErrors } from './invoice.errors.ts';

export const INVOICE_TYPES = ['paie_mensuelle', 'frais_ouverture', 'prestation'] as const satisfies readonly InvoiceType[];
export const PAYMENT_METHODS = ['prelevement', 'virement'] as const satisfies readonly PaymentMethod[];

/** MODULES 6: 1 to 5,000 invoices per bulk creation (and per bulk notification). */
export const MAX_BULK = 5000;
/** Lines per invoice. */
export const MAX_LINES = 100;
export const LABEL_MAX = 300;
export const PERIOD_LABEL_MAX = 100;
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

export const CREDIT_REASON_MAX = 300;

export interface CheckedCreditNote extends InvoiceTotals {
  lines: InvoiceLine[];
  reason: string;
}

/**
 * The body of `POST /api/staff/facturation/{id}/avoir`, `{ lines?, reason }`: the
 * lines credited (default: every line of the invoice) and why, with their totals.
 */
export function checkCreditNote(input: Record<string, unknown>, invoiceLines: readonly InvoiceLine[]): CheckedCreditNote {
  if (absent(input.reason) || (typeof input.reason === 'string' && input.reason.trim() === '')) throw fieldErrors.missing('reason', "Le motif de l'avoir");
  if (typeof input.reason !== 'string') throw fieldErrors.invalid('reason', "Le motif de l'avoir");
  const reason = input.reason.trim();
  if (reason.length > CREDIT_REASON_MAX || hasUnsafeCharacters(reason)) throw fieldErrors.invalid('reason', `Le motif de l'avoir (${CREDIT_REASON_MAX} caractères au plus)`);
  let lines: InvoiceLine[];
  if (absent(input.lines)) lines = invoiceLines.map((line) => ({ ...line }));
  else {
    if (!Array.isArray(input.lines) || input.lines.length === 0 || input.lines.length > MAX_LINES) {
      throw fieldErrors.invalid('lines', `La liste des lignes (de 1 à ${MAX_LINES})`);
    }
    lines = input.lines.map((line, j) => located(`lines[${j}]`, () => checkLine(line)));
  }
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

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

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
export function checkHeader(input: Record<string, unknown>, today: string = todayInFrance()): InvoiceHeader {
  if (absent(input.invoice_type)) throw fieldErrors.missing('invoice_type', 'Le type de facture');
  if (!isOneOf(INVOICE_TYPES, input.invoice_type)) throw fieldErrors.invalid('invoice_type', 'Le type de facture (paie_mensuelle, frais_ouverture ou prestation)');
  if (absent(input.payment_method)) throw fieldErrors.missing('payment_method', 'Le mode de paiement');
  if (!isOneOf(PAYMENT_METHODS, input.payment_method)) throw fieldErrors.invalid('payment_method', 'Le mode de paiement (prelevement ou virement)');
  let periodLabel = '';
  if (!absent(input.period_label)) {
    if (typeof input.period_label !== 'string') throw fieldErrors.invalid('period_label', 'Le libellé de période');
    periodLabel = input.period_label.trim();
    if (periodLabel.length > PERIOD_LABEL_MAX || hasUnsafeCharacters(periodLabel)) throw fieldErrors.invalid('period_label', 'Le libellé de période');
  }
  const issueDate = absent(input.issue_date) ? today : parseIsoDate(input.issue_date);
  if (!issueDate) throw invoiceErrors.invalidDate();
  const latest = addDays(today, MAX_ISSUE_DAYS_AHEAD);
  if (issueDate > latest) throw invoiceErrors.issueDateTooFar(MAX_ISSUE_DAYS_AHEAD, latest);
  const dueDate = absent(input.due_date) ? addDays(issueDate, DEFAULT_TERM_DAYS) : parseIsoDate(input.due_date);
  if (!dueDate) throw invoiceErrors.invalidDate();
  if (dueDate < issueDate) throw invoiceErrors.dueBeforeIssue();
  return { invoice_type: input.invoice_type, payment_method: input.payment_method, period_label: periodLabel, issue_date: issueDate, due_date: dueDate };
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

/** One line as given: checked, in canonical form (`"2"`, `"15.00"`, `"20.00"`). */
export function checkLine(raw: unknown): InvoiceLine {
  const line = (raw ?? {}) as Record<string, unknown>;
  if (absent(line.label) || (typeof line.label === 'string' && line.label.trim() === '')) throw fieldErrors.missing('label', 'Le libellé');
  if (typeof line.label !== 'string') throw fieldErrors.invalid('label', 'Le libellé');
  const label = line.label.trim();
  if (label.length > LABEL_MAX || hasUnsafeCharacters(label)) throw fieldErrors.invalid('label', 'Le libellé');
  if (absent(line.quantity)) throw fieldErrors.missing('quantity', 'La quantité');
  const quantity = parseQuantity(line.quantity);
  if (quantity === null) throw fieldErrors.invalid('quantity', 'La quantité (un nombre positif, trois décimales au plus)');
  if (absent(line.unit_price)) throw fieldErrors.missing('unit_price', 'Le prix unitaire');
  const unitPrice = requireMoney(line.unit_price);
  if (absent(line.vat_rate)) throw fieldErrors.missing('vat_rate', 'Le taux de TVA');
  const vatRate = parseRate(line.vat_rate);
  if (vatRate === null) throw fieldErrors.invalid('vat_rate', 'Le taux de TVA (de 0 à 100, deux décimales au plus)');
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
export function checkInvoices(raw: unknown): CheckedInvoice[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) throw fieldErrors.missing('invoices', 'La liste des factures');
  if (!Array.isArray(raw) || raw.length > MAX_BULK) throw invoiceErrors.tooMany(MAX_BULK);
  return raw.map((item, i) => {
    const where = `invoices[${i}]`;
    const invoice = (item ?? {}) as Record<string, unknown>;
    if (absent(invoice.org_id)) throw invoiceErrors.at(where, fieldErrors.missing('org_id', "L'organisation"));
    if (!isUuid(invoice.org_id)) throw invoiceErrors.orgNotFound(`${where}.org_id`);
    const rawLines = invoice.lines;
    if (rawLines === undefined || rawLines === null || (Array.isArray(rawLines) && rawLines.length === 0)) {
      throw invoiceErrors.at(where, fieldErrors.missing('lines', 'La liste des lignes'));
    }
    if (!Array.isArray(rawLines) || rawLines.length > MAX_LINES) throw invoiceErrors.at(where, fieldErrors.invalid('lines', `La liste des lignes (${MAX_LINES} au plus)`));
    const lines = rawLines.map((line, j) => located(`${where}.lines[${j}]`, () => checkLine(line)));
    const totals = invoiceTotals(lines);
    if (!isStorableMoney(totals.total_ttc)) throw invoiceErrors.totalTooLarge(where);
    return { org_id: invoice.org_id.toLowerCase(), lines, ...totals };
  });
}

/** `invoice_ids` of a bulk notification: distinct, in request order. */
export function checkInvoiceIds(raw: unknown): string[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) throw fieldErrors.missing('invoice_ids', 'La liste des factures');
  if (!Array.isArray(raw) || raw.length > MAX_BULK) throw invoiceErrors.tooManyIds(MAX_BULK);
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const value of raw) {
    if (typeof value !== 'string') throw fieldErrors.invalid('invoice_ids', 'La liste des factures');
    const id = isUuid(value) ? value.toLowerCase() : value;
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
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
