/** SQL of contribution calls (MODULES 6, issue 36). */
import type { Database } from '../db/database.ts';
import type { ContributionStatus } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import type { ContributionCallInput } from './contribution.rules.ts';

const COLUMNS = ['id', 'org_id', 'period', 'due_date', 'lines', 'total', 'status', 'created_at'] as const;
/** The staff's view adds the organization's name, the notification and the payment. */
const STAFF_COLUMNS = [
  'contribution_calls.id',
  'contribution_calls.org_id',
  'contribution_calls.period',
  'contribution_calls.due_date',
  'contribution_calls.lines',
  'contribution_calls.total',
  'contribution_calls.status',
  'contribution_calls.created_at',
  'contribution_calls.notified_at',
  'contribution_calls.paid_date',
  'organizations.name as org_name',
] as const;

export async function insertContributionCall(db: Database, call: ContributionCallInput) {
  return db
    .insertInto('contribution_calls')
    .values({ org_id: call.org_id, period: call.period, due_date: call.due_date, lines: JSON.stringify(call.lines), total: call.total })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function organizationExists(db: Database, orgId: string) {
  return db.selectFrom('organizations').select('id').where('id', '=', orgId).forKeyShare().executeTakeFirst();
}

/** Newest period first, then newest id (the tie-breaker: unique). */
export const CONTRIBUTION_ORDER = [
  { ref: 'period', direction: 'desc', kind: 'text' },
  { ref: 'id', direction: 'desc', kind: 'uuid' },
] as const satisfies KeysetOrder;

export function listContributionCalls(db: Database, orgId: string, period: string | null, cursor: CursorValue[] | null, limit: number) {
  let query = db.selectFrom('contribution_calls').select(COLUMNS).where('org_id', '=', orgId);
  if (period) query = query.where('period', '=', period);
  return keyset(query, CONTRIBUTION_ORDER, cursor, limit).execute();
}

const STAFF_ORDER = [
  { ref: 'contribution_calls.period', direction: 'desc', kind: 'text' },
  { ref: 'contribution_calls.id', direction: 'desc', kind: 'uuid' },
] as const satisfies KeysetOrder;

export interface StaffCallFilters {
  orgId?: string;
  period?: string;
  status?: ContributionStatus;
}

/** Issue 36: every organization's calls (or one's), newest period first. */
export function listStaffContributionCalls(db: Database, filters: StaffCallFilters, cursor: CursorValue[] | null, limit: number) {
  let query = db.selectFrom('contribution_calls').innerJoin('organizations', 'organizations.id', 'contribution_calls.org_id').select(STAFF_COLUMNS);
  if (filters.orgId) query = query.where('contribution_calls.org_id', '=', filters.orgId);
  if (filters.period) query = query.where('contribution_calls.period', '=', filters.period);
  if (filters.status) query = query.where('contribution_calls.status', '=', filters.status);
  return keyset(query, STAFF_ORDER, cursor, limit).execute();
}

export type StaffCallRow = Awaited<ReturnType<typeof listStaffContributionCalls>>[number];

export function findStaffContributionCall(db: Database, id: string) {
  return db
    .selectFrom('contribution_calls')
    .innerJoin('organizations', 'organizations.id', 'contribution_calls.org_id')
    .select(STAFF_COLUMNS)
    .where('contribution_calls.id', '=', id)
    .executeTakeFirst();
}

/** The call and its organization's addresses, locked: one notification or payment at a time. */
export function lockContributionCall(db: Database, id: string) {
  return db
    .selectFrom('contribution_calls')
    .innerJoin('organizations', 'organizations.id', 'contribution_calls.org_id')
    .select([...STAFF_COLUMNS, 'organizations.email_notifs', 'organizations.email_notifs_cc'])
    .where('contribution_calls.id', '=', id)
    .forUpdate('contribution_calls')
    .executeTakeFirst();
}

export async function markNotified(db: Database, id: string): Promise<void> {
  await db.updateTable('contribution_calls').set({ notified_at: new Date() }).where('id', '=', id).execute();
}

export async function markPaid(db: Database, id: string, paidDate: string): Promise<void> {
  await db.updateTable('contribution_calls').set({ status: 'paye', paid_date: paidDate }).where('id', '=', id).execute();
}
