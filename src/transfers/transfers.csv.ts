/**
 * The salary transfer batches' CSV export (`format/csv.ts`): one row per batch, newest
 * execution date first, read through the list's service function (its filters and refusals).
 * The organization's file says what its list does: never an IBAN, nor a name.
 */
import type { Database } from '../db/database.ts';
import { csvFilename, csvPeriod, type CsvColumn, type CsvExport } from '../format/csv.ts';
import { labelOf } from '../format/labels.ts';
import { MAX_LIMIT } from '../http/list.ts';
import { TRANSFER_STATUS_LABELS } from './transfer.labels.ts';
import { listOrgTransfers, listStaffTransfers } from './transfers.service.ts';

type ClientBatch = Awaited<ReturnType<typeof listOrgTransfers>>['items'][number];
type StaffBatch = Awaited<ReturnType<typeof listStaffTransfers>>['items'][number];

function batchColumns<T extends ClientBatch>(): Array<CsvColumn<T>> {
  return [
    { header: "Date d'exécution", date: (b) => b.execution_date },
    // What a bank statement is matched on: the months paid (`2027-01`, several joined by ", ").
    { header: 'Période', text: (b) => b.periods.map(csvPeriod).join(', ') },
    { header: 'Bulletins', text: (b) => String(b.count) },
    { header: 'Total', amount: (b) => b.total },
    { header: 'Statut', text: (b) => labelOf(TRANSFER_STATUS_LABELS, b.status) },
  ];
}

/** The reference is the SEPA file's message id and each transfer's batch: the bank statement shows it. */
export const CLIENT_TRANSFER_CSV_COLUMNS: ReadonlyArray<CsvColumn<ClientBatch>> = [
  { header: 'Référence', text: (b) => b.reference },
  ...batchColumns<ClientBatch>(),
];

export const STAFF_TRANSFER_CSV_COLUMNS: ReadonlyArray<CsvColumn<StaffBatch>> = [
  { header: 'Référence', text: (b) => b.reference },
  { header: 'Organisation', text: (b) => b.org_name },
  ...batchColumns<StaffBatch>(),
  { header: 'Créé le', date: (b) => b.created_at },
  { header: 'Exécuté le', date: (b) => b.executed_at },
  { header: 'Annulé le', date: (b) => b.cancelled_at },
];

/** `GET /api/virements.csv`: the organization's batches. */
export function orgTransfersCsv(db: Database, orgId: string): CsvExport<ClientBatch> {
  return {
    filename: csvFilename('virements'),
    columns: CLIENT_TRANSFER_CSV_COLUMNS,
    read: (cursor) => listOrgTransfers(db, orgId, { cursor, limit: String(MAX_LIMIT) }),
  };
}

/** `GET /api/staff/virements.csv`: every batch, or `org_id`'s, of `status`. */
export function staffTransfersCsv(db: Database, query: { org_id?: string; status?: string }): CsvExport<StaffBatch> {
  return {
    filename: csvFilename('virements'),
    columns: STAFF_TRANSFER_CSV_COLUMNS,
    read: (cursor) => listStaffTransfers(db, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}
