/**
 * The payslips' CSV export (`format/csv.ts`): one row per payslip (published or
 * cancelled, never a draft), newest period first then by name, read through the list's service
 * function (its filters and refusals). A computed payslip's figures (docs/payroll.md) are empty for a payslip typed in.
 */
import type { Database } from '../db/database.ts';
import { csvFilename, csvPeriod, type CsvColumn, type CsvExport } from '../format/csv.ts';
import { labelOf } from '../format/labels.ts';
import { MAX_LIMIT } from '../http/list.ts';
import { TRANSFER_STATUS_LABELS } from '../transfers/transfer.labels.ts';
import { PAYSLIP_STATUS_LABELS } from './payslip.labels.ts';
import { listPayslips, listStaffPayslips, type PayslipView } from './payslips.service.ts';

type StaffPayslip = PayslipView & { org_name: string };

function payslipColumns<T extends PayslipView>(): Array<CsvColumn<T>> {
  return [
    { header: 'Période', text: (p) => csvPeriod(p.period) },
    { header: 'Nom', text: (p) => p.employee.last_name },
    { header: 'Prénom', text: (p) => p.employee.first_name },
    { header: 'Brut', amount: (p) => p.gross },
    { header: 'Cotisations salariales', amount: (p) => p.employee_contributions },
    { header: 'Cotisations patronales', amount: (p) => p.employer_contributions },
    { header: 'Net imposable', amount: (p) => p.net_taxable },
    { header: 'Prélèvement à la source', amount: (p) => p.pas_amount },
    { header: 'Net à payer', amount: (p) => p.net_to_pay },
    { header: 'Coût employeur', amount: (p) => p.employer_cost },
    { header: 'Statut', text: (p) => labelOf(PAYSLIP_STATUS_LABELS, p.status) },
    { header: 'Virement', text: (p) => (p.transfer_status ? labelOf(TRANSFER_STATUS_LABELS, p.transfer_status) : 'Aucun') },
  ];
}

export const PAYSLIP_CSV_COLUMNS: ReadonlyArray<CsvColumn<PayslipView>> = payslipColumns<PayslipView>();
export const STAFF_PAYSLIP_CSV_COLUMNS: ReadonlyArray<CsvColumn<StaffPayslip>> = [
  { header: 'Organisation', text: (p) => p.org_name },
  ...payslipColumns<StaffPayslip>(),
];

/** `GET /api/payslips.csv`: the organization's (`period`, `employee_id`). */
export function payslipsCsv(db: Database, orgId: string, query: { period?: string; employee_id?: string }): CsvExport<PayslipView> {
  return {
    filename: csvFilename('bulletins', query.period),
    columns: PAYSLIP_CSV_COLUMNS,
    read: (cursor) => listPayslips(db, orgId, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}

/** `GET /api/staff/payslips.csv`: a month's, every organization or `org_id`. */
export function staffPayslipsCsv(db: Database, query: { period?: string; org_id?: string }): CsvExport<StaffPayslip> {
  return {
    filename: csvFilename('bulletins', query.period),
    columns: STAFF_PAYSLIP_CSV_COLUMNS,
    read: (cursor) => listStaffPayslips(db, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}
