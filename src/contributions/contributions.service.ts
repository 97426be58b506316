/**
 * Contribution calls (appels de cotisations, MODULES 6): staff create them for an
 * organization; its COMPTA and administrators read them (`GET /api/cotisations`).
 */
import { orgErrors } from '../org/org.errors.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import type { Database } from '../db/database.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { moneyFromDb } from '../money/money.ts';
import { contributionErrors } from './contribution.errors.ts';
import { parsePeriod } from '../format/calendar.ts';
import { checkContributionCall } from './contribution.rules.ts';
import * as repo from './contributions.repository.ts';

type Row = Awaited<ReturnType<typeof repo.insertContributionCall>>;

function callOf(row: Row) {
  return {
    id: row.id,
    org_id: row.org_id,
    period: row.period,
    due_date: row.due_date,
    total: moneyFromDb(row.total),
    lines: row.lines.map((l) => ({ organism: l.organism, amount: moneyFromDb(l.amount) })),
    status: row.status,
    created_at: row.created_at,
  };
}

/** A contribution call in the change's transaction (also used by seed-demo). */
export async function insertNewContributionCall(change: Change, caller: Pick<Caller, 'userId' | 'email'> | null, input: Record<string, unknown>) {
  const call = checkContributionCall(input);
  if (!(await repo.organizationExists(change.trx, call.org_id))) throw orgErrors.orgInBodyNotFound();
  const row = await repo.insertContributionCall(change.trx, call);
  await change.event({
    org_id: call.org_id, action: 'contribution_call.created', subject_type: 'contribution_call', subject_id: row.id, ...actorOf(caller),
    details: { period: call.period, total: call.total },
  });
  return callOf(row);
}

/** `POST /api/staff/cotisations`. */
export function createContributionCall(ctx: ChangeContext, caller: Caller, input: Record<string, unknown>) {
  return applyChange(ctx, (change) => insertNewContributionCall(change, caller, input));
}

/** `GET /api/cotisations`: the organization's calls, newest period first (`?period=` filters). */
export async function listContributionCalls(db: Database, orgId: string, query: { limit?: string; cursor?: string; period?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  let period: string | null = null;
  if (query.period) {
    period = parsePeriod(query.period);
    if (!period) throw contributionErrors.invalidPeriod();
  }
  const rows = await repo.listContributionCalls(db, orgId, period, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.period, row.id]);
  return { items: page.items.map(callOf), next_cursor: page.next_cursor };
}
