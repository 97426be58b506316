/** SQL of contribution calls (MODULES 6). */
import type { Database } from '../db/database.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import type { ContributionCallInput } from './contribution.rules.ts';

const COLUMNS = ['id', 'org_id', 'period', 'due_date', 'lines', 'total', 'status', 'created_at'] as const;

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
