/**
 * The invoices' CSV export (`format/csv.ts`): invoices and credit notes, one row each,
 * newest number first, read through `listInvoices` (the list's filters and refusals). Amounts
 * are signed: a credit note's are negative, so the column's sum is what is owed.
 */
import type { Database } from '../db/database.ts';
import { csvFilename, type CsvColumn, type CsvExport } from '../format/csv.ts';
import { MAX_LIMIT } from '../http/list.ts';
import { invoiceTypeLabel, PAYMENT_METHOD_LABELS, signedAmount } from './invoice.labels.ts';
import { labelOf } from '../format/labels.ts';
import { listInvoices, listStaffInvoices, type InvoiceListQuery } from './invoices.service.ts';

type Invoice = Awaited<ReturnType<typeof listInvoices>>['items'][number];

const signed = signedAmount;

export const INVOICE_CSV_COLUMNS: ReadonlyArray<CsvColumn<Invoice>> = [
  { header: 'Numéro', text: (i) => i.number },
  { header: 'Document', text: (i) => (i.kind === 'avoir' ? 'Avoir' : 'Facture') },
  { header: 'Facture créditée', text: (i) => i.credited_invoice?.number },
  { header: 'Organisation', text: (i) => i.org_name },
  { header: 'Type', text: (i) => invoiceTypeLabel(i.invoice_type) },
  { header: 'Période', text: (i) => i.period_label },
  { header: "Date d'émission", date: (i) => i.issue_date },
  { header: 'Échéance', date: (i) => i.due_date },
  { header: 'Règlement', text: (i) => labelOf(PAYMENT_METHOD_LABELS, i.payment_method) },
  { header: 'Total HT', amount: (i) => signed(i, i.total_ht) },
  { header: 'TVA', amount: (i) => signed(i, i.total_vat) },
  { header: 'Total TTC', amount: (i) => signed(i, i.total_ttc) },
  { header: "Motif de l'avoir", text: (i) => i.credit_reason },
  { header: 'Notifiée', text: (i) => (i.notified ? 'Oui' : 'Non') },
];

type ExportQuery = Omit<InvoiceListQuery, 'limit' | 'cursor'>;

/** `GET /api/factures.csv`: the organization's. */
export function invoicesCsv(db: Database, orgId: string, query: ExportQuery): CsvExport<Invoice> {
  return {
    filename: csvFilename('factures', query.period),
    columns: INVOICE_CSV_COLUMNS,
    read: (cursor) => listInvoices(db, orgId, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}

/** `GET /api/staff/facturation.csv`: every organization's, or `org_id`'s. */
export function staffInvoicesCsv(db: Database, query: ExportQuery): CsvExport<Invoice> {
  return {
    filename: csvFilename('factures', query.period),
    columns: INVOICE_CSV_COLUMNS,
    read: (cursor) => listStaffInvoices(db, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}
