/** SQL of payslips: the payslips, their list, and those a transfer may still pay. */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import { COMPUTED_FIGURES } from './payslip.rules.ts';

/**
 * The status of the payslip's live batch (`genere`, `execute`), or null when it has none or only
 * cancelled ones: at most one line per payslip is not released (a unique index).
 */
function transferStatus(eb: ExpressionBuilder<DB, 'payslips'>) {
  return eb
    .selectFrom('transfer_items')
    .innerJoin('transfers', 'transfers.id', 'transfer_items.transfer_id')
    .select('transfers.status')
    .whereRef('transfer_items.payslip_id', '=', 'payslips.id')
    .where('transfer_items.released', '=', false)
    .limit(1)
    .as('transfer_status');
}

function payslipColumns(eb: ExpressionBuilder<DB, 'payslips' | 'employees'>) {
  return [
    'payslips.id',
    'payslips.org_id',
    'payslips.employee_id',
    'employees.first_name',
    'employees.last_name',
    'payslips.period',
    'payslips.gross',
    'payslips.net_to_pay',
    'payslips.contract_ids',
    eb('payslips.pdf_id', 'is not', null).as('has_pdf'),
    'payslips.status',
    transferStatus(eb),
    'payslips.source',
    'payslips.kind',
    'payslips.complements_id',
    'payslips.model_version',
    ...COMPUTED_FIGURES,
    'payslips.created_at',
  ] as const;
}

function selectPayslips(db: Database) {
  return db.selectFrom('payslips').innerJoin('employees', 'employees.id', 'payslips.employee_id').select(payslipColumns);
}

export type PayslipRow = Awaited<ReturnType<typeof findPayslip>> & object;

/**
 * The payslip, or undefined when there is none with this id in `orgId` (null: any organization,
 * the staff). An organization never sees a draft: only the staff do.
 */
export function findPayslip(db: Database, orgId: string | null, id: string) {
  let query = selectPayslips(db).where('payslips.id', '=', id);
  if (orgId !== null) query = query.where('payslips.org_id', '=', orgId).where('payslips.status', '!=', 'brouillon');
  return query.executeTakeFirst();
}

/** A computed payslip's lines and situation. */
export function findPayslipDetail(db: Database, id: string) {
  return db.selectFrom('payslips').select(['lines', 'situation']).where('id', '=', id).executeTakeFirst();
}

/** The payslip, locked until the end of the transaction (an upload, a cancellation). */
export function lockPayslip(db: Database, id: string) {
  return db
    .selectFrom('payslips')
    .select(['id', 'org_id', 'employee_id', 'period', 'net_to_pay', 'pdf_id', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function findPayslipFile(db: Database, orgId: string, id: string) {
  return db
    .selectFrom('payslips')
    .select(['pdf_id', 'source'])
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('status', '!=', 'brouillon')
    .executeTakeFirst();
}

export interface NewPayslip {
  org_id: string;
  employee_id: string;
  period: string;
  gross: string;
  net_to_pay: string;
  contract_ids: string[];
  /** A typed payslip's contributions (its lines and their two totals), when given. */
  lines?: string;
  employee_contributions?: string;
  employer_contributions?: string;
}

/** The payslip and its links to the contracts it pays (the unique indexes of. */
export async function insertPayslip(db: Database, payslip: NewPayslip): Promise<string> {
  const row = await db.insertInto('payslips').values(payslip).returning('id').executeTakeFirstOrThrow();
  if (payslip.contract_ids.length > 0) {
    await db
      .insertInto('payslip_contracts')
      .values(payslip.contract_ids.map((contract_id) => ({ payslip_id: row.id, org_id: payslip.org_id, contract_id, period: payslip.period })))
      .execute();
  }
  return row.id;
}

/** The unique indexes that allow one live payslip per contract and month, or per employee and month without contracts. */
export const ONE_LIVE_PAYSLIP_INDEXES = ['payslip_contracts_one_live_key', 'payslips_one_live_without_contracts_key'] as const;

/**
 * Serializes the creations of payslips for one employee until the end of the transaction, so
 * that the look-up for a live payslip (below) holds at commit. `for no key update`: contracts
 * and other rows referencing the employee are not blocked.
 */
export async function lockEmployeeForPayslip(db: Database, employeeId: string): Promise<void> {
  await db.selectFrom('employees').select('id').where('id', '=', employeeId).forNoKeyUpdate().execute();
}

/**
 * The live payslip (not cancelled) the unique indexes would refuse a new one for: without
 * contracts, the employee's payslip without contracts for the period; with contracts, one that
 * pays one of them for the period. Undefined when there is none.
 */
export async function findLivePayslipFor(db: Database, employeeId: string, period: string, contractIds: readonly string[]): Promise<string | undefined> {
  if (contractIds.length === 0) {
    const row = await db
      .selectFrom('payslips')
      .select('id')
      .where('employee_id', '=', employeeId)
      .where('period', '=', period)
      .where('status', '=', 'publie')
      .where(sql<boolean>`contract_ids = '{}'`)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }
  const row = await db
    .selectFrom('payslip_contracts')
    .select('payslip_id')
    .where('contract_id', 'in', contractIds)
    .where('period', '=', period)
    .where('cancelled', '=', false)
    .limit(1)
    .executeTakeFirst();
  return row?.payslip_id;
}

/** The batch that is not cancelled (`genere` or `execute`) holding the payslip, if any. */
export function findLiveTransferOf(db: Database, payslipId: string) {
  return db.selectFrom('transfer_items').select('transfer_id').where('payslip_id', '=', payslipId).where('released', '=', false).executeTakeFirst();
}

/** A complementary payslip of this one that is not cancelled (draft or published), if any. */
export function findLiveComplementOf(db: Database, payslipId: string) {
  return db.selectFrom('payslips').select('id').where('complements_id', '=', payslipId).where('status', '!=', 'annule').limit(1).executeTakeFirst();
}

/** Status `annule`; its contracts' months may be paid by another payslip. */
export async function cancelPayslip(db: Database, id: string): Promise<void> {
  await db.updateTable('payslips').set({ status: 'annule', updated_at: sql`now()` }).where('id', '=', id).execute();
  await db.updateTable('payslip_contracts').set({ cancelled: true }).where('payslip_id', '=', id).execute();
}

export async function setPayslipPdf(db: Database, id: string, pdfId: string): Promise<void> {
  await db.updateTable('payslips').set({ pdf_id: pdfId, updated_at: sql`now()` }).where('id', '=', id).execute();
}

/** How many of `ids` are contracts of this employee in this organization. */
export async function countEmployeeContracts(db: Database, orgId: string, employeeId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('contracts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('org_id', '=', orgId)
    .where('employee_id', '=', employeeId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The list's order: newest period first, then by name, the id last (unique). */
export const PAYSLIP_ORDER = [
  { ref: 'payslips.period', direction: 'desc', kind: 'text' },
  { ref: 'employees.last_name', direction: 'asc', kind: 'text' },
  { ref: 'employees.first_name', direction: 'asc', kind: 'text' },
  { ref: 'payslips.id', direction: 'asc', kind: 'uuid' },
] as const satisfies KeysetOrder;

export interface PayslipFilters {
  orgId: string;
  period?: string;
  employeeId?: string;
}

/** A page of every organization's payslips of a month (or of `orgId`'s), with the organization's name: the staff's CSV export. */
export function listStaffPayslips(db: Database, filters: { orgId?: string; period: string }, cursor: CursorValue[] | null, limit: number) {
  let query = selectPayslips(db)
    .innerJoin('organizations', 'organizations.id', 'payslips.org_id')
    .select('organizations.name as org_name')
    .where('payslips.period', '=', filters.period)
    .where('payslips.status', '!=', 'brouillon');
  if (filters.orgId) query = query.where('payslips.org_id', '=', filters.orgId);
  return keyset(query, PAYSLIP_ORDER, cursor, limit).execute();
}

/** A page of the organization's payslips after `cursor`. */
export function listPayslips(db: Database, filters: PayslipFilters, cursor: CursorValue[] | null, limit: number) {
  let query = selectPayslips(db).where('payslips.org_id', '=', filters.orgId).where('payslips.status', '!=', 'brouillon');
  if (filters.period) query = query.where('payslips.period', '=', filters.period);
  if (filters.employeeId) query = query.where('payslips.employee_id', '=', filters.employeeId);
  return keyset(query, PAYSLIP_ORDER, cursor, limit).execute();
}

/** How many payslips each organization published for `period` (cancelled ones left out). */
export function countPublishedByOrg(db: Database, period: string) {
  return db
    .selectFrom('payslips')
    .select((eb) => ['org_id', eb.fn.countAll<string>().as('count')])
    .where('period', '=', period)
    .where('status', '=', 'publie')
    .groupBy('org_id')
    .execute();
}
