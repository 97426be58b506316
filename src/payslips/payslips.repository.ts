/** SQL of payslips (MODULES 5): the payslips, their list, and those a transfer may still pay. */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import { SEPA_COUNTRIES } from '../format/sepa.ts';

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
    'payslips.created_at',
  ] as const;
}

function selectPayslips(db: Database) {
  return db.selectFrom('payslips').innerJoin('employees', 'employees.id', 'payslips.employee_id').select(payslipColumns);
}

export type PayslipRow = Awaited<ReturnType<typeof findPayslip>> & object;

/** The payslip, or undefined when there is none with this id in `orgId` (null: any organization). */
export function findPayslip(db: Database, orgId: string | null, id: string) {
  let query = selectPayslips(db).where('payslips.id', '=', id);
  if (orgId !== null) query = query.where('payslips.org_id', '=', orgId);
  return query.executeTakeFirst();
}

/** The payslip's file, locked until the end of the transaction (an upload). */
export function lockPayslip(db: Database, id: string) {
  return db.selectFrom('payslips').select(['id', 'org_id', 'employee_id', 'period', 'pdf_id', 'status']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findPayslipFile(db: Database, orgId: string, id: string) {
  return db.selectFrom('payslips').select(['pdf_id']).where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
}

export interface NewPayslip {
  org_id: string;
  employee_id: string;
  period: string;
  gross: string;
  net_to_pay: string;
  contract_ids: string[];
}

export async function insertPayslip(db: Database, payslip: NewPayslip): Promise<string> {
  const row = await db.insertInto('payslips').values(payslip).returning('id').executeTakeFirstOrThrow();
  return row.id;
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

/** A page of the organization's payslips after `cursor`. */
export function listPayslips(db: Database, filters: PayslipFilters, cursor: CursorValue[] | null, limit: number) {
  let query = selectPayslips(db).where('payslips.org_id', '=', filters.orgId);
  if (filters.period) query = query.where('payslips.period', '=', filters.period);
  if (filters.employeeId) query = query.where('payslips.employee_id', '=', filters.employeeId);
  return keyset(query, PAYSLIP_ORDER, cursor, limit).execute();
}

/**
 * MODULES 5's availability, in SQL: the organization pays by `Odentas`, the payslip is
 * `publie` with `net_to_pay` > 0, its employee has an IBAN of the SEPA zone (a bank refuses a
 * SEPA transfer to any other; the check digits are checked again by the service), and no batch
 * but cancelled ones holds it. The one definition, used by the list and by the batch check at
 * commit.
 */
export function availableWhere(eb: ExpressionBuilder<DB, 'payslips' | 'employees' | 'organizations'>) {
  return eb.and([
    eb('organizations.virements_salaires', '=', 'Odentas'),
    eb('payslips.status', '=', 'publie'),
    eb('payslips.net_to_pay', '>', '0'),
    eb('employees.iban', 'is not', null),
    eb(eb.fn<string>('left', ['employees.iban', sql.lit(2)]), 'in', SEPA_COUNTRIES),
    eb.not(
      eb.exists(
        eb.selectFrom('transfer_items').select(sql.lit(1).as('one')).whereRef('transfer_items.payslip_id', '=', 'payslips.id').where('transfer_items.released', '=', false),
      ),
    ),
  ]);
}

/** The staff list's order: organization, period, name, the id last (unique). */
export const AVAILABLE_ORDER = [
  { ref: 'organizations.name', direction: 'asc', kind: 'text' },
  { ref: 'payslips.period', direction: 'asc', kind: 'text' },
  { ref: 'employees.last_name', direction: 'asc', kind: 'text' },
  { ref: 'employees.first_name', direction: 'asc', kind: 'text' },
  { ref: 'payslips.id', direction: 'asc', kind: 'uuid' },
] as const satisfies KeysetOrder;

/** A page of the payslips a transfer may pay (every organization, or `orgId`), after `cursor`. */
export function listAvailable(db: Database, filters: { orgId?: string; period?: string }, cursor: CursorValue[] | null, limit: number) {
  let query = db
    .selectFrom('payslips')
    .innerJoin('employees', 'employees.id', 'payslips.employee_id')
    .innerJoin('organizations', 'organizations.id', 'payslips.org_id')
    .select([
      'payslips.id',
      'payslips.org_id',
      'organizations.name as org_name',
      'payslips.employee_id',
      'employees.first_name',
      'employees.last_name',
      'employees.iban',
      'payslips.period',
      'payslips.net_to_pay',
    ])
    .where(availableWhere);
  if (filters.orgId) query = query.where('payslips.org_id', '=', filters.orgId);
  if (filters.period) query = query.where('payslips.period', '=', filters.period);
  return keyset(query, AVAILABLE_ORDER, cursor, limit).execute();
}
