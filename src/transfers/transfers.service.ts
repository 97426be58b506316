/**
 * Salary transfers: a batch pays payslips of one organization that delegates its
 * salaries (`virements_salaires` = `Odentas`). Every payslip is checked at commit, under a row
 * lock, and a unique index backs the check: a payslip is never in two batches that are not
 * cancelled, so never paid twice. The batch keeps each payee's name and IBAN as they were at
 * commit; its SEPA file is made with it, in its transaction, and stored (the file store): every
 * download is that file, and a batch is marked executed only with it (no salary is recorded as
 * paid without the bank file that paid it).
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { TransferStatus } from '../db/schema.ts';
import type { FileStore } from '../files/file-store.ts';
import { AppError, fieldErrors } from '../http/errors.ts';
import { operatorSettings, type OperatorIdentity } from '../operator/operator.service.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { isUuid } from '../http/input.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { compareMoney, isStorableMoney, MAX_PAYSLIP_AMOUNT, moneyFromDb, sumMoney } from '../money/money.ts';
import { numberingYear, parsePeriodFilter } from '../format/calendar.ts';
import { nextInSeries } from '../db/number-series.ts';
import { ibanLast4 } from '../money/iban.ts';
import { isSepaWritable } from '../format/sepa.ts';
import { transferErrors } from './transfer.errors.ts';
import {
  formatTransferReference,
  parseExecutionDate,
  parsePayslipIds,
  statusAfterCancel,
  statusAfterExecuted,
  TRANSFER_STATUSES,
  unpayableReason,
} from './transfer.rules.ts';
import { operatorAccount, sepaCreditTransfer, type SepaBatch } from './transfer.sepa.ts';
import * as repo from './transfers.repository.ts';
import type { Static } from '@sinclair/typebox';
import type { TransferBody } from '../schemas/transfers.ts';

/** What making a batch's SEPA file takes: the operator's defaults and the file store. */
export interface SepaContext {
  config: Config;
  files: FileStore;
}

export interface TransferContext extends ChangeContext, SepaContext {}

function transferView(row: repo.TransferRow) {
  return {
    id: row.id,
    org_id: row.org_id,
    org_name: row.org_name,
    reference: row.reference,
    execution_date: row.execution_date,
    count: row.count,
    total: moneyFromDb(row.total),
    status: row.status,
    created_at: row.created_at,
    executed_at: row.executed_at,
    cancelled_at: row.cancelled_at,
    periods: periodsOf(row),
  };
}

/** The months a batch pays, oldest first. */
const periodsOf = (row: repo.TransferRow): string[] => (row.periods ? row.periods.split(',') : []);

/** What the organization sees of a batch: never an IBAN, nor a name; its reference and months, to match a bank statement. */
function clientView(row: repo.TransferRow) {
  return {
    id: row.id,
    reference: row.reference,
    execution_date: row.execution_date,
    periods: periodsOf(row),
    count: row.count,
    total: moneyFromDb(row.total),
    status: row.status,
  };
}

async function findOrNotFound(db: Database, orgId: string | null, id: string) {
  const row = isUuid(id) ? await repo.findTransfer(db, orgId, id.toLowerCase()) : undefined;
  if (!row) throw transferErrors.notFound();
  return row;
}

/** `GET /api/staff/virements/{id}`: the batch and its lines (the IBAN's last four characters only). */
export async function readTransfer(db: Database, id: string) {
  const row = await findOrNotFound(db, null, id);
  const lines = await repo.listLines(db, row.id);
  return {
    ...transferView(row),
    items: lines.map((line) => ({
      payslip_id: line.payslip_id,
      creditor_name: line.creditor_name,
      iban_last4: ibanLast4(line.iban)!,
      period: line.period,
      amount: moneyFromDb(line.amount),
    })),
  };
}

/** The unique index that forbids a payslip in two batches that are not cancelled. */
const ONE_LIVE_BATCH = 'transfer_items_one_live_batch_key';

function isOneLiveBatchViolation(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === ONE_LIVE_BATCH || String(e.message ?? '').includes(ONE_LIVE_BATCH));
}

/**
 * A new batch in the change's transaction: `requested` (ids as given, without repeats) must be
 * payslips of one organization, each available now; else 400 `mixed_organizations` or 409
 * `payslip_unavailable` naming the refused ones (unknown ids included). Its id. Used by the
 * route and seed-demo.
 */
export async function insertNewTransfer(
  change: Change,
  caller: Pick<Caller, 'userId' | 'email'>,
  requested: readonly string[],
  executionDate: string,
  sepa: SepaContext,
): Promise<string> {
  // No account, no file, no batch: 409 operator_account_missing before anything is locked.
  const operator = await operatorSettings(change.trx, sepa.config);
  operatorAccount(operator);
  const uuids = requested.filter(isUuid).map((id) => id.toLowerCase());
  const locked = await repo.lockPayslipsForTransfer(change.trx, uuids);
  const orgIds = new Set(locked.map((row) => row.org_id));
  if (orgIds.size > 1) throw transferErrors.mixedOrganizations();
  const orgId = locked[0]?.org_id;
  if (orgId) await repo.lockOrgForTransfer(change.trx, orgId);
  const rows =
    locked.length > 0
      ? await repo.readPayslipsForTransfer(
          change.trx,
          locked.map((row) => row.id),
        )
      : [];
  const payable = new Map(rows.filter((row) => row.available).map((row) => [row.id, row]));
  const refused = requested.filter((given) => !payable.has(given.toLowerCase()));
  if (refused.length > 0 || !orgId) throw transferErrors.unavailable(refused);
  // An employee saved before names were checked may have one a bank file cannot write ("😀"):
  // refuse the batch, naming them, rather than pay "-".
  const unwritable = [...payable.values()].filter((row) => !isSepaWritable(`${row.first_name} ${row.last_name}`));
  if (unwritable.length > 0) throw transferErrors.creditorNameUnwritable(unwritable.map((row) => ({ payslip_id: row.id, employee_id: row.employee_id })));

  const lines = requested.map((given) => {
    const row = payable.get(given.toLowerCase())!;
    return {
      payslip_id: row.id,
      creditor_name: `${row.first_name} ${row.last_name}`,
      iban: row.iban!,
      bic: row.bic,
      amount: moneyFromDb(row.net_to_pay),
      period: row.period,
    };
  });
  const total = sumMoney(lines.map((line) => line.amount));
  if (!isStorableMoney(total)) throw transferErrors.totalTooLarge();
  const year = numberingYear(new Date());
  const reference = formatTransferReference(year, await nextInSeries(change.trx, 'transfer', year));
  const createdAt = new Date();
  const xml = sepaFile(operator, { reference, created_at: createdAt, execution_date: executionDate, total, lines });
  const fileId = await storeSepaFile(sepa.files, change, orgId, reference, xml);
  const transferId = await repo.insertTransfer(change.trx, {
    org_id: orgId,
    reference,
    execution_date: executionDate,
    count: lines.length,
    total,
    created_at: createdAt,
    sepa_file_id: fileId,
  });
  await repo.insertLines(change.trx, transferId, orgId, lines);
  // Never an IBAN in the audit trail: the batch's reference, size and total.
  await change.event({
    org_id: orgId,
    action: 'transfer.created',
    subject_type: 'transfer',
    subject_id: transferId,
    ...actorOf(caller),
    details: { reference, count: lines.length, total, execution_date: executionDate },
  });
  return transferId;
}

/** `POST /api/staff/virements`: 201 with the batch, or nothing created. */
export async function createTransfer(ctx: TransferContext, caller: Caller, body: Static<typeof TransferBody>) {
  const requested = parsePayslipIds(body.payslip_ids);
  const executionDate = parseExecutionDate(body.execution_date);
  let id: string;
  try {
    id = await applyChange(ctx, (change) => insertNewTransfer(change, caller, requested, executionDate, ctx));
  } catch (error) {
    // The row locks make this unreachable; the index is the last word if they ever did not.
    if (isOneLiveBatchViolation(error)) throw transferErrors.unavailable([...requested]);
    throw error;
  }
  return transferView(await findOrNotFound(ctx.db, null, id));
}

/**
 * A batch's SEPA file, or 409: `operator_account_missing` (no usable account to debit),
 * `transfer_amount_too_large` (a line made before the cap that no SEPA file can carry).
 */
function sepaFile(operator: OperatorIdentity, batch: SepaBatch): string {
  const debtor = operatorAccount(operator);
  const tooLarge = batch.lines.filter((line) => compareMoney(moneyFromDb(line.amount), MAX_PAYSLIP_AMOUNT) > 0).map((line) => line.payslip_id);
  if (tooLarge.length > 0) throw transferErrors.amountAboveSepa(tooLarge);
  return sepaCreditTransfer(batch, debtor);
}

function storeSepaFile(files: FileStore, change: Change, orgId: string, reference: string, xml: string): Promise<string> {
  return files.put(change.trx, { content: Buffer.from(xml, 'utf8'), contentType: 'application/xml', filename: `${reference}.xml`, orgId });
}

type NextStatus = (status: TransferStatus, executionDate: string) => TransferStatus;

async function applyStatus(change: Change, sepa: SepaContext, caller: Pick<Caller, 'userId' | 'email'>, id: string, next: NextStatus, action: string) {
  const current = isUuid(id) ? await repo.lockTransfer(change.trx, id.toLowerCase()) : undefined;
  if (!current) throw transferErrors.notFound();
  const status = next(current.status, current.execution_date);
  if (status === 'execute' && !current.sepa_file_id) await fileOfEarlierBatch(sepa, change, current);
  await repo.setStatus(change.trx, current.id, status);
  if (status === 'annule') await repo.releaseLines(change.trx, current.id);
  await change.event({
    org_id: current.org_id,
    action,
    subject_type: 'transfer',
    subject_id: current.id,
    ...actorOf(caller),
    details: { reference: current.reference, from: current.status, to: status },
  });
}

async function changeStatus(ctx: TransferContext, caller: Caller, id: string, next: NextStatus, action: string) {
  await applyChange(ctx, (change) => applyStatus(change, ctx, caller, id, next, action));
  return transferView(await findOrNotFound(ctx.db, null, id));
}

/**
 * A batch made before its file was stored with it gets it now, in the transaction that marks it
 * executed; one whose file cannot be made stays as it is: 409 `transfer_file_missing`, with the
 * reason (`operator_account_missing`, `transfer_amount_too_large`).
 */
async function fileOfEarlierBatch(ctx: SepaContext, change: Change, batch: NonNullable<Awaited<ReturnType<typeof repo.lockTransfer>>>) {
  let xml: string;
  try {
    const operator = await operatorSettings(change.trx, ctx.config);
    xml = sepaFile(operator, {
      reference: batch.reference,
      created_at: batch.created_at,
      execution_date: batch.execution_date,
      total: batch.total,
      lines: await repo.listLines(change.trx, batch.id),
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw transferErrors.fileMissing(error);
    throw error;
  }
  await repo.setSepaFile(change.trx, batch.id, await storeSepaFile(ctx.files, change, batch.org_id, batch.reference, xml));
}

/**
 * `POST /api/staff/virements/{id}/executed`: the bank has executed the file. Only a batch with
 * its SEPA file (409 `transfer_file_missing` otherwise; the database refuses it too).
 */
export function markExecuted(ctx: TransferContext, caller: Caller, id: string) {
  return changeStatus(ctx, caller, id, (status, executionDate) => statusAfterExecuted(status, executionDate), 'transfer.executed');
}

/** The batch marked executed in the change's transaction, as `markExecuted` does (seed-demo). */
export function markExecutedInChange(change: Change, sepa: SepaContext, caller: Pick<Caller, 'userId' | 'email'>, id: string): Promise<void> {
  return applyStatus(change, sepa, caller, id, statusAfterExecuted, 'transfer.executed');
}

/** `POST /api/staff/virements/{id}/cancel`: its payslips become available again. */
export function cancelTransfer(ctx: TransferContext, caller: Caller, id: string) {
  return changeStatus(ctx, caller, id, (status) => statusAfterCancel(status), 'transfer.cancelled');
}

/**
 * `GET /api/staff/virements/{id}/sepa.xml`: the file to hand to the bank, the one stored with
 * the batch. A cancelled batch has none (409 `transfer_cancelled`): it must not be paid. A batch
 * made before files were stored gets its file made here, not stored (a read writes nothing).
 * The file name is the reference.
 */
export async function transferSepaFile(ctx: TransferContext, id: string): Promise<{ filename: string; xml: string }> {
  const row = await findOrNotFound(ctx.db, null, id);
  if (row.status === 'annule') throw transferErrors.cancelled();
  const filename = `${row.reference}.xml`;
  if (row.sepa_file_id) {
    const stored = await ctx.files.get(row.sepa_file_id);
    if (!stored) throw new Error(`transfer ${row.id}: its SEPA file ${row.sepa_file_id} is not in the file store`);
    return { filename, xml: stored.content.toString('utf8') };
  }
  const operator = await operatorSettings(ctx.db, ctx.config);
  const lines = await repo.listLines(ctx.db, row.id);
  return {
    filename,
    xml: sepaFile(operator, { reference: row.reference, created_at: row.created_at, execution_date: row.execution_date, total: row.total, lines }),
  };
}

function statusFilter(raw: string | undefined): TransferStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(TRANSFER_STATUSES as readonly string[]).includes(raw)) throw transferErrors.invalidStatus();
  return raw as TransferStatus;
}

/** `GET /api/staff/virements`: every organization, or `org_id`; newest execution date first. */
export async function listStaffTransfers(db: Database, query: { limit?: string; cursor?: string; org_id?: string; status?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  const rows = await repo.listTransfers(
    db,
    { orgId: query.org_id ? query.org_id.toLowerCase() : undefined, status: statusFilter(query.status) },
    cursor,
    limit,
  );
  const page = keysetPage(rows, limit, (row) => [row.execution_date, row.id]);
  return { items: page.items.map(transferView), next_cursor: page.next_cursor };
}

/** `GET /api/virements`: the organization's batches, cancelled ones included; never an IBAN. */
export async function listOrgTransfers(db: Database, orgId: string, query: { limit?: string; cursor?: string }) {
  const limit = parseLimit(query.limit);
  const rows = await repo.listTransfers(db, { orgId }, decodeCursor(query.cursor), limit);
  const page = keysetPage(rows, limit, (row) => [row.execution_date, row.id]);
  return { items: page.items.map(clientView), next_cursor: page.next_cursor };
}

type AvailableRow = Awaited<ReturnType<typeof repo.listAvailable>>[number];

/**
 * `GET /api/staff/payslips/available`: exactly the payslips docs/payslips-transfers.md lets a transfer pay
 * (`repo.availableWhere`, the rule a batch is checked by), with the IBAN's last four
 * characters only.
 */
export async function listAvailablePayslips(db: Database, query: { limit?: string; cursor?: string; org_id?: string; period?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  const period = parsePeriodFilter(query.period);
  const rows = await repo.listAvailable(db, { orgId: query.org_id ? query.org_id.toLowerCase() : undefined, period }, cursor, limit);
  const page = keysetPage(rows, limit, (row: AvailableRow) => [row.org_name, row.period, row.last_name, row.first_name, row.id]);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      org_id: row.org_id,
      org_name: row.org_name,
      employee_id: row.employee_id,
      employee: { first_name: row.first_name, last_name: row.last_name },
      iban_last4: ibanLast4(row.iban),
      period: row.period,
      net_to_pay: moneyFromDb(row.net_to_pay),
    })),
    next_cursor: page.next_cursor,
  };
}

/** How many payslips that cannot be paid the staff's transfers page lists at most. */
export const UNPAYABLE_MAX = 200;

/**
 * The published payslips that "Bulletins à payer" leaves out and why
 * (`unpayableReason`), every organization or `org_id`, a `period`; the IBAN's last four
 * characters only. The same filters as `listAvailablePayslips`.
 */
export async function listUnpayablePayslips(db: Database, query: { org_id?: string; period?: string }) {
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  const period = parsePeriodFilter(query.period);
  const rows = await repo.listUnpayable(db, { orgId: query.org_id ? query.org_id.toLowerCase() : undefined, period }, UNPAYABLE_MAX);
  return rows.flatMap((row) => {
    const reason = unpayableReason({ virements_salaires: row.virements_salaires, iban: row.iban, net_to_pay: row.net_to_pay });
    // SQL and the rule agree; a row they did not would be listed as payable, never here.
    if (reason === null) return [];
    return [
      {
        id: row.id,
        org_id: row.org_id,
        org_name: row.org_name,
        employee_id: row.employee_id,
        employee: { first_name: row.first_name, last_name: row.last_name },
        iban_last4: ibanLast4(row.iban),
        period: row.period,
        net_to_pay: moneyFromDb(row.net_to_pay),
        reason,
      },
    ];
  });
}
