/** SQL of salary transfers: batches, their lines, and the payslips they take. */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB, TransferStatus } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import { SEPA_COUNTRIES } from '../format/sepa.ts';
import { MAX_PAYSLIP_AMOUNT } from '../money/money.ts';

const TRANSFER_COLUMNS = [
  'transfers.id',
  'transfers.org_id',
  'organizations.name as org_name',
  'transfers.reference',
  'transfers.execution_date',
  'transfers.count',
  'transfers.total',
  'transfers.status',
  'transfers.created_at',
  'transfers.executed_at',
  'transfers.cancelled_at',
  'transfers.sepa_file_id',
] as const;

function selectTransfers(db: Database) {
  return (
    db
      .selectFrom('transfers')
      .innerJoin('organizations', 'organizations.id', 'transfers.org_id')
      .select(TRANSFER_COLUMNS)
      // The months the batch pays (`2027-01,2027-02`), for matching it to a bank statement.
      .select(
        sql<string | null>`(select string_agg(distinct ti.period, ',' order by ti.period) from transfer_items ti where ti.transfer_id = transfers.id)`.as(
          'periods',
        ),
      )
  );
}

export type TransferRow = Awaited<ReturnType<typeof findTransfer>> & object;

/** The batch, or undefined when there is none with this id in `orgId` (null: any organization). */
export function findTransfer(db: Database, orgId: string | null, id: string) {
  let query = selectTransfers(db).where('transfers.id', '=', id);
  if (orgId !== null) query = query.where('transfers.org_id', '=', orgId);
  return query.executeTakeFirst();
}

/** The state a change depends on, locked until the end of the transaction. */
export function lockTransfer(db: Database, id: string) {
  return db
    .selectFrom('transfers')
    .select(['id', 'org_id', 'reference', 'status', 'execution_date', 'created_at', 'total', 'sepa_file_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** A batch's lines in the order they were given. */
export function listLines(db: Database, transferId: string) {
  return db
    .selectFrom('transfer_items')
    .select(['payslip_id', 'creditor_name', 'iban', 'bic', 'amount', 'period'])
    .where('transfer_id', '=', transferId)
    .orderBy('position')
    .execute();
}

/**
 * Locks the payslips named until the end of the transaction, in id order (two batches naming
 * the same payslips lock them in the same order: no deadlock); their organizations. The lock is
 * what makes the check hold at commit: a second batch naming a payslip waits here until the
 * first commits, then reads its line and finds the payslip no longer available.
 */
export function lockPayslipsForTransfer(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('payslips').select(['id', 'org_id']).where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/**
 * The locked payslips with what a line needs (the employee's name and IBAN as they are now)
 * and whether docs/payslips-transfers.md lets a transfer pay each now (`availableWhere`): read once the
 * payslips and their organization's transfer mode are locked.
 */
export function readPayslipsForTransfer(db: Database, ids: readonly string[]) {
  return db
    .selectFrom('payslips')
    .innerJoin('employees', 'employees.id', 'payslips.employee_id')
    .innerJoin('organizations', 'organizations.id', 'payslips.org_id')
    .select((eb) => [
      'payslips.id',
      'payslips.org_id',
      'payslips.period',
      'payslips.net_to_pay',
      'payslips.employee_id',
      'employees.first_name',
      'employees.last_name',
      'employees.iban',
      'employees.bic',
      availableWhere(eb).as('available'),
    ])
    .where('payslips.id', 'in', ids)
    .orderBy('payslips.id')
    .execute();
}

/**
 * docs/payslips-transfers.md's availability, in SQL: the organization pays by `Odentas`, the payslip is
 * `publie` with `net_to_pay` > 0, its employee has an IBAN of the SEPA zone (a bank refuses a
 * SEPA transfer to any other; its check digits hold (ISO 13616: mod 97 = 1, ibantools checked them when it was typed, this
 * keeps a row written otherwise out)), and no batch
 * but cancelled ones holds it. The one definition, used by the list and by the batch check at
 * commit (`readPayslipsForTransfer`'s `available`), so that the two cannot differ.
 */
/**
 * The IBAN's check digits (ISO 13616): the first four characters moved to the end, letters as
 * numbers (A = 10 … Z = 35), the whole mod 97 is 1. PostgreSQL's `numeric` holds the 68 digits.
 */
const IBAN_CHECK_DIGITS_HOLD = sql<boolean>`(employees.iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' and (
  select mod(string_agg(case when ch between '0' and '9' then ch else (ascii(ch) - 55)::text end, '' order by pos)::numeric, 97) = 1
    from (select substr(employees.iban, 5) || left(employees.iban, 4) as s) rearranged,
         generate_series(1, length(rearranged.s)) as pos,
         substr(rearranged.s, pos, 1) as ch))`;

export function availableWhere(eb: ExpressionBuilder<DB, 'payslips' | 'employees' | 'organizations'>) {
  return eb.and([
    eb('organizations.virements_salaires', '=', 'Odentas'),
    eb('payslips.status', '=', 'publie'),
    eb('payslips.net_to_pay', '>', '0'),
    eb('payslips.net_to_pay', '<=', MAX_PAYSLIP_AMOUNT),
    eb('employees.iban', 'is not', null),
    eb(eb.fn<string>('left', ['employees.iban', sql.lit(2)]), 'in', SEPA_COUNTRIES),
    IBAN_CHECK_DIGITS_HOLD,
    eb.not(
      eb.exists(
        eb
          .selectFrom('transfer_items')
          .select(sql.lit(1).as('one'))
          .whereRef('transfer_items.payslip_id', '=', 'payslips.id')
          .where('transfer_items.released', '=', false),
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

/** The payslips of every organization (or `orgId`) and period (or all), with what the transfer pages show of them. */
function payslipsWithPayee(db: Database, filters: { orgId?: string; period?: string }) {
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
    ]);
  if (filters.orgId) query = query.where('payslips.org_id', '=', filters.orgId);
  if (filters.period) query = query.where('payslips.period', '=', filters.period);
  return query;
}

/** A page of the payslips a transfer may pay (every organization, or `orgId`), after `cursor`. */
export function listAvailable(db: Database, filters: { orgId?: string; period?: string }, cursor: CursorValue[] | null, limit: number) {
  return keyset(payslipsWithPayee(db, filters).where(availableWhere), AVAILABLE_ORDER, cursor, limit).execute();
}

/**
 * The published payslips in no live batch that a transfer may not pay (`availableWhere` fails),
 * with what the reason depends on (`unpayableReason` of transfer.rules.ts), in the available
 * list's order; the first `limit`.
 */
export function listUnpayable(db: Database, filters: { orgId?: string; period?: string }, limit: number) {
  let query = payslipsWithPayee(db, filters)
    .select('organizations.virements_salaires')
    .where('payslips.status', '=', 'publie')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('transfer_items')
            .select(sql.lit(1).as('one'))
            .whereRef('transfer_items.payslip_id', '=', 'payslips.id')
            .where('transfer_items.released', '=', false),
        ),
      ),
    )
    .where((eb) => eb.not(availableWhere(eb)));
  for (const { ref } of AVAILABLE_ORDER) query = query.orderBy(ref);
  return query.limit(limit).execute();
}

/** The organization's transfer mode, share-locked: a change of mode waits for the batch to commit. */
export function lockOrgForTransfer(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(['id', 'virements_salaires']).where('id', '=', orgId).forShare().executeTakeFirst();
}

export interface NewTransfer {
  org_id: string;
  reference: string;
  execution_date: string;
  count: number;
  total: string;
  /** The time its SEPA file says it was made. */
  created_at: Date;
  sepa_file_id: string;
}

export async function insertTransfer(db: Database, transfer: NewTransfer): Promise<string> {
  const row = await db.insertInto('transfers').values(transfer).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface NewLine {
  payslip_id: string;
  creditor_name: string;
  iban: string;
  bic: string | null;
  amount: string;
  period: string;
}

/** The batch's lines, in chunks (a statement takes at most 65,535 parameters). */
export async function insertLines(db: Database, transferId: string, orgId: string, lines: readonly NewLine[]): Promise<void> {
  const CHUNK = 1000;
  for (let start = 0; start < lines.length; start += CHUNK) {
    await db
      .insertInto('transfer_items')
      .values(lines.slice(start, start + CHUNK).map((line, i) => ({ ...line, transfer_id: transferId, org_id: orgId, position: start + i })))
      .execute();
  }
}

export async function setStatus(db: Database, id: string, status: TransferStatus): Promise<void> {
  await db
    .updateTable('transfers')
    .set({
      status,
      updated_at: sql`now()`,
      ...(status === 'execute' ? { executed_at: sql`now()` } : {}),
      ...(status === 'annule' ? { cancelled_at: sql`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The SEPA file of a batch made before files were stored with the batch. */
export async function setSepaFile(db: Database, id: string, fileId: string): Promise<void> {
  await db.updateTable('transfers').set({ sepa_file_id: fileId }).where('id', '=', id).execute();
}

/** A cancelled batch gives its payslips back: they become available again. */
export async function releaseLines(db: Database, transferId: string): Promise<void> {
  await db.updateTable('transfer_items').set({ released: true }).where('transfer_id', '=', transferId).execute();
}

/** Newest execution first, the id last (unique). */
export const TRANSFER_ORDER = [
  { ref: 'transfers.execution_date', direction: 'desc', kind: 'date' },
  { ref: 'transfers.id', direction: 'desc', kind: 'uuid' },
] as const satisfies KeysetOrder;

export interface TransferFilters {
  orgId?: string;
  status?: TransferStatus;
}

/** A page of batches after `cursor`: every organization, or `orgId`. */
export function listTransfers(db: Database, filters: TransferFilters, cursor: CursorValue[] | null, limit: number) {
  let query = selectTransfers(db);
  if (filters.orgId) query = query.where('transfers.org_id', '=', filters.orgId);
  if (filters.status) query = query.where('transfers.status', '=', filters.status);
  return keyset(query, TRANSFER_ORDER, cursor, limit).execute();
}
