/** SQL of contribution calls and of the payslips each covers. */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { ContributionLine, ContributionOrigin, ContributionStatus, CoverEffect, DB } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import type { ContributionCallInput } from './contribution.rules.ts';

/** The number of the month's first call a complementary one names. */
function firstCallNumber(eb: ExpressionBuilder<DB, 'contribution_calls'>) {
  return eb
    .selectFrom('contribution_calls as first_call')
    .select('first_call.number')
    .whereRef('first_call.id', '=', 'contribution_calls.first_call_id')
    .as('first_call_number');
}

/** How many payslips the call counts in (`publie`) or out (`annule`). */
function covered(eb: ExpressionBuilder<DB, 'contribution_calls'>, effect: CoverEffect, as: string) {
  return eb
    .selectFrom('contribution_call_payslips')
    .select((sub) => sub.fn.countAll<string>().as('n'))
    .whereRef('contribution_call_payslips.call_id', '=', 'contribution_calls.id')
    .where('contribution_call_payslips.effect', '=', effect)
    .as(as);
}

function callColumns(eb: ExpressionBuilder<DB, 'contribution_calls'>) {
  return [
    'contribution_calls.id',
    'contribution_calls.org_id',
    'contribution_calls.number',
    'contribution_calls.origin',
    'contribution_calls.period',
    'contribution_calls.due_date',
    'contribution_calls.lines',
    'contribution_calls.total',
    'contribution_calls.status',
    'contribution_calls.created_at',
    'contribution_calls.updated_at',
    firstCallNumber(eb),
    covered(eb, 'publie', 'payslips_counted_in'),
    covered(eb, 'annule', 'payslips_counted_out'),
  ] as const;
}

/** The staff's view adds the organization's name, the notification and the payment. */
function staffColumns(eb: ExpressionBuilder<DB, 'contribution_calls' | 'organizations'>) {
  return [
    ...callColumns(eb as unknown as ExpressionBuilder<DB, 'contribution_calls'>),
    'contribution_calls.notified_at',
    'contribution_calls.paid_date',
    'organizations.name as org_name',
  ] as const;
}

export interface NewCall extends ContributionCallInput {
  number: string;
  origin: ContributionOrigin;
  first_call_id: string | null;
}

/** A new call; its id. */
export async function insertContributionCall(db: Database, call: NewCall): Promise<string> {
  const row = await db
    .insertInto('contribution_calls')
    .values({
      org_id: call.org_id,
      number: call.number,
      origin: call.origin,
      first_call_id: call.first_call_id,
      period: call.period,
      due_date: call.due_date,
      lines: JSON.stringify(call.lines),
      total: call.total,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findContributionCall(db: Database, id: string) {
  return db.selectFrom('contribution_calls').select(callColumns).where('contribution_calls.id', '=', id).executeTakeFirstOrThrow();
}

export type CallRow = Awaited<ReturnType<typeof findContributionCall>>;

export function organizationExists(db: Database, orgId: string) {
  return db.selectFrom('organizations').select('id').where('id', '=', orgId).forKeyShare().executeTakeFirst();
}

/** Newest period first, then newest id (the tie-breaker: unique). */
export const CONTRIBUTION_ORDER = [
  { ref: 'contribution_calls.period', direction: 'desc', kind: 'text' },
  { ref: 'contribution_calls.id', direction: 'desc', kind: 'uuid' },
] as const satisfies KeysetOrder;

export function listContributionCalls(db: Database, orgId: string, period: string | null, cursor: CursorValue[] | null, limit: number) {
  let query = db.selectFrom('contribution_calls').select(callColumns).where('contribution_calls.org_id', '=', orgId);
  if (period) query = query.where('contribution_calls.period', '=', period);
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

/** Every organization's calls (or one's), newest period first. */
export function listStaffContributionCalls(db: Database, filters: StaffCallFilters, cursor: CursorValue[] | null, limit: number) {
  let query = db.selectFrom('contribution_calls').innerJoin('organizations', 'organizations.id', 'contribution_calls.org_id').select(staffColumns);
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
    .select(staffColumns)
    .where('contribution_calls.id', '=', id)
    .executeTakeFirst();
}

/** The call and its organization's addresses, locked: one notification or payment at a time. */
export function lockContributionCall(db: Database, id: string) {
  return db
    .selectFrom('contribution_calls')
    .innerJoin('organizations', 'organizations.id', 'contribution_calls.org_id')
    .select((eb) => [...staffColumns(eb), 'contribution_calls.first_call_id', 'organizations.email_notifs', 'organizations.email_notifs_cc'])
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

// ---------------------------------------------------------------------------------------
// One call per organization and month, revised: the month's lock, its calls and what they cover.

/** Any number, the same for every lock of this module (the second key is the month's hash). */
const MONTH_LOCK_CLASS = 60_301;

/**
 * Serializes the revisions of one organization's month until the end of the transaction: two
 * validations, a typed payslip and a cancellation of that month wait for each other, and each
 * then reads what the one before committed.
 */
export async function lockMonth(db: Database, orgId: string, period: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${MONTH_LOCK_CLASS}::int, hashtext(${`${orgId}:${period}`}::text))`.execute(db);
}

/** The month's calls made from payslips, oldest first, locked (a payment waits, or is seen). */
export function lockMonthCalls(db: Database, orgId: string, period: string) {
  return db
    .selectFrom('contribution_calls')
    .select(['id', 'number', 'status', 'total', 'notified_at', 'first_call_id'])
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .where('origin', '=', 'paie')
    .orderBy('created_at')
    .orderBy('number')
    .forUpdate()
    .execute();
}

export function coverOf(db: Database, callIds: readonly string[]) {
  if (callIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('contribution_call_payslips').select(['payslip_id', 'effect', 'call_id']).where('call_id', 'in', callIds).execute();
}

/** The month's payslips that count or counted: published, and cancelled. */
export function monthPayslips(db: Database, orgId: string, period: string) {
  return db
    .selectFrom('payslips')
    .select(['id', 'status'])
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .where('status', 'in', ['publie', 'annule'])
    .execute();
}

type StoredLines = Array<Record<string, string | null>> | null;

export async function payslipLines(db: Database, ids: readonly string[]): Promise<StoredLines[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('payslips').select('lines').where('id', 'in', ids).execute()).map((r) => r.lines);
}

export async function cover(db: Database, orgId: string, callId: string, payslipIds: readonly string[], effect: CoverEffect): Promise<void> {
  if (payslipIds.length === 0) return;
  await db
    .insertInto('contribution_call_payslips')
    .values(payslipIds.map((payslip_id) => ({ payslip_id, effect, call_id: callId, org_id: orgId })))
    .execute();
}

/** Takes published payslips out of the (unpaid) calls that counted them. */
export async function uncover(db: Database, payslipIds: readonly string[]): Promise<void> {
  if (payslipIds.length === 0) return;
  await db.deleteFrom('contribution_call_payslips').where('payslip_id', 'in', payslipIds).where('effect', '=', 'publie').execute();
}

/** The lines of every payslip the call covers, with how it counts. */
export function coveredLines(db: Database, callId: string) {
  return db
    .selectFrom('contribution_call_payslips')
    .innerJoin('payslips', 'payslips.id', 'contribution_call_payslips.payslip_id')
    .select(['contribution_call_payslips.effect', 'payslips.lines'])
    .where('contribution_call_payslips.call_id', '=', callId)
    .execute();
}

export async function setCallLines(db: Database, id: string, lines: ContributionLine[], total: string): Promise<void> {
  await db
    .updateTable('contribution_calls')
    .set({ lines: JSON.stringify(lines), total, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** The payslips a call covers, named (employee), for its e-mail and page. */
export function coveredPayslips(db: Database, callId: string) {
  return db
    .selectFrom('contribution_call_payslips')
    .innerJoin('payslips', 'payslips.id', 'contribution_call_payslips.payslip_id')
    .innerJoin('employees', 'employees.id', 'payslips.employee_id')
    .select(['payslips.id', 'contribution_call_payslips.effect', 'employees.first_name', 'employees.last_name'])
    .where('contribution_call_payslips.call_id', '=', callId)
    .orderBy('employees.last_name')
    .orderBy('employees.first_name')
    .orderBy('payslips.id')
    .execute();
}

/** The organization's name and notification addresses (a revised call's e-mail). */
export function orgRecipients(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(['name', 'email_notifs', 'email_notifs_cc']).where('id', '=', orgId).executeTakeFirstOrThrow();
}
