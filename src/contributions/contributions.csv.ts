/**
 * The contribution calls' CSV export (`format/csv.ts`): one row per call, newest
 * period first, read through the list's service function (its filters and refusals), with an
 * amount column per known organism and one for any other.
 */
import type { Database } from '../db/database.ts';
import { csvFilename, csvPeriod, type CsvColumn, type CsvExport } from '../format/csv.ts';
import { labelOf } from '../format/labels.ts';
import { MAX_LIMIT } from '../http/list.ts';
import { sumMoney, type Money } from '../money/money.ts';
import { CALL_STATUS_LABELS, callKindLabel, ORGANISM_LABELS } from './contribution.labels.ts';
import { KNOWN_ORGANISMS } from './contribution.rules.ts';
import { listContributionCalls, listStaffContributionCalls } from './contributions.service.ts';

type Call = Awaited<ReturnType<typeof listContributionCalls>>['items'][number];
type StaffCall = Awaited<ReturnType<typeof listStaffContributionCalls>>['items'][number];

/** The call's amount for an organism (summed if named twice), or empty. */
function organismAmount(call: Call, organism: string): Money | null {
  const amounts = call.lines.filter((l) => l.organism === organism).map((l) => l.amount);
  return amounts.length ? sumMoney(amounts) : null;
}

function otherAmount(call: Call): Money | null {
  const amounts = call.lines.filter((l) => !(KNOWN_ORGANISMS as readonly string[]).includes(l.organism)).map((l) => l.amount);
  return amounts.length ? sumMoney(amounts) : null;
}

function callColumns<T extends Call>(): Array<CsvColumn<T>> {
  return [
    { header: 'Référence', text: (c) => c.number },
    { header: 'Nature', text: (c) => callKindLabel(c) },
    { header: 'Période', text: (c) => csvPeriod(c.period) },
    { header: 'Échéance', date: (c) => c.due_date },
    ...KNOWN_ORGANISMS.map((o): CsvColumn<T> => ({ header: ORGANISM_LABELS[o]!, amount: (c) => organismAmount(c, o) })),
    { header: 'Autres organismes', amount: (c) => otherAmount(c) },
    { header: 'Total', amount: (c) => c.total },
    { header: 'Statut', text: (c) => labelOf(CALL_STATUS_LABELS, c.status) },
  ];
}

export const CALL_CSV_COLUMNS: ReadonlyArray<CsvColumn<Call>> = callColumns<Call>();

export const STAFF_CALL_CSV_COLUMNS: ReadonlyArray<CsvColumn<StaffCall>> = [
  { header: 'Organisation', text: (c) => c.org_name },
  ...callColumns<StaffCall>(),
  { header: 'Payé le', date: (c) => c.paid_date },
  { header: 'Notifié le', date: (c) => c.notified_at },
];

/** `GET /api/cotisations.csv`: the organization's calls (`period` filters). */
export function contributionCallsCsv(db: Database, orgId: string, query: { period?: string }): CsvExport<Call> {
  return {
    filename: csvFilename('cotisations', query.period),
    columns: CALL_CSV_COLUMNS,
    read: (cursor) => listContributionCalls(db, orgId, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}

/** `GET /api/staff/cotisations.csv`: every organization's (or `org_id`'s); `period`, `status`. */
export function staffContributionCallsCsv(db: Database, query: { org_id?: string; period?: string; status?: string }): CsvExport<StaffCall> {
  return {
    filename: csvFilename('cotisations', query.period),
    columns: STAFF_CALL_CSV_COLUMNS,
    read: (cursor) => listStaffContributionCalls(db, { ...query, cursor, limit: String(MAX_LIMIT) }),
  };
}
