/**
 * Payslips: the staff publish them and attach their PDF; every role of the
 * organization lists them and downloads them by signed URL; the staff list those a salary
 * transfer may still pay. Every change is one `applyChange`.
 */
import { JOB_KINDS } from '../jobs/kinds.ts';
import { latestJobOf } from '../jobs/jobs.repository.ts';
import type { Database } from '../db/database.ts';
import type { FileStore } from '../files/file-store.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { fieldErrors } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { moneyFromDb } from '../money/money.ts';
import { findOrganization } from '../org/org.repository.ts';
import { findEmployeeOfOrg } from '../employees/employees.service.ts';
import { employeeErrors } from '../employees/employee.errors.ts';
import { orgErrors } from '../org/org.errors.ts';
import { payslipErrors } from './payslip.errors.ts';
import { parsePeriodFilter } from '../format/calendar.ts';
import { checkNetWithinGross, parseContractIds, parseTypedContributions, requirePayslipAmount, requirePeriod } from './payslip.rules.ts';
import { reviseContributionCalls } from '../contributions/contributions.service.ts';
import * as repo from './payslips.repository.ts';
import type { Static } from '@sinclair/typebox';
import type { PayslipBody } from '../schemas/payslips.ts';

export interface PayslipContext extends ChangeContext {
  files: FileStore;
}

/** A payslip as answers show it. */
function payslipView(row: repo.PayslipRow) {
  return {
    id: row.id,
    org_id: row.org_id,
    employee_id: row.employee_id,
    employee: { first_name: row.first_name, last_name: row.last_name },
    period: row.period,
    gross: moneyFromDb(row.gross),
    net_to_pay: moneyFromDb(row.net_to_pay),
    contract_ids: row.contract_ids,
    has_pdf: row.has_pdf,
    status: row.status,
    transfer_status: row.transfer_status ?? null,
    source: row.source,
    kind: row.kind,
    complements_id: row.complements_id,
    // The figures of a computed payslip (docs/payroll.md); null for one typed in.
    model_version: row.model_version,
    employee_contributions: nullableMoney(row.employee_contributions),
    employer_contributions: nullableMoney(row.employer_contributions),
    net_before_tax: nullableMoney(row.net_before_tax),
    net_taxable: nullableMoney(row.net_taxable),
    net_social: nullableMoney(row.net_social),
    pas_rate: row.pas_rate === null ? null : String(Number(row.pas_rate)),
    pas_amount: nullableMoney(row.pas_amount),
    employer_cost: nullableMoney(row.employer_cost),
    created_at: row.created_at,
  };
}

const nullableMoney = (value: string | null) => (value === null ? null : moneyFromDb(value));

export type PayslipView = ReturnType<typeof payslipView>;

/**
 * `GET /api/staff/payslips/{id}` (with `situation`) and `GET /api/payslips/{id}` (without, and
 * never a draft): the payslip with its lines (empty for one typed in).
 */
export async function readPayslipDetail(db: Database, orgId: string | null, id: string, withSituation: boolean) {
  const view = await readPayslip(db, orgId, id);
  const detail = await repo.findPayslipDetail(db, view.id);
  return { ...view, lines: detail?.lines ?? [], ...(withSituation ? { situation: detail?.situation ?? null } : {}) };
}

export async function readPayslip(db: Database, orgId: string | null, id: string): Promise<PayslipView> {
  const row = isUuid(id) ? await repo.findPayslip(db, orgId, id.toLowerCase()) : undefined;
  if (!row) throw payslipErrors.notFound();
  return payslipView(row);
}

export type PayslipInput = Static<typeof PayslipBody>;

/** A new payslip (`publie`) in the change's transaction; its id. Used by the route and seed-demo. */
export async function insertNewPayslip(change: Change, caller: Pick<Caller, 'userId' | 'email'>, input: PayslipInput): Promise<string> {
  if (input.org_id === undefined || input.org_id === null || input.org_id === '') throw fieldErrors.missing('org_id', "L'organisation");
  const org = isUuid(input.org_id) ? await findOrganization(change.trx, input.org_id.toLowerCase()) : undefined;
  if (!org) throw orgErrors.orgInBodyNotFound();
  if (input.employee_id === undefined || input.employee_id === null || input.employee_id === '') throw fieldErrors.missing('employee_id', 'Le salarié');
  const employee = isUuid(input.employee_id) ? await findEmployeeOfOrg(change.trx, org.id, input.employee_id.toLowerCase()) : undefined;
  if (!employee) throw employeeErrors.unknownEmployee();
  const period = requirePeriod(input.period);
  const gross = requirePayslipAmount(input.gross, 'gross', 'Le salaire brut');
  const netToPay = requirePayslipAmount(input.net_to_pay, 'net_to_pay', 'Le net à payer');
  checkNetWithinGross(gross, netToPay);
  const contractIds = parseContractIds(input.contract_ids);
  const contributions = parseTypedContributions(input.contributions);
  if ((await repo.countEmployeeContracts(change.trx, org.id, employee.id, contractIds)) !== contractIds.length) throw payslipErrors.invalidContractIds();
  // A salary is published once: the employee's lock makes the look-up hold at
  // commit; the unique indexes are the last word (`createPayslip`).
  await repo.lockEmployeeForPayslip(change.trx, employee.id);
  const existing = await repo.findLivePayslipFor(change.trx, employee.id, period, contractIds);
  if (existing) throw payslipErrors.exists(existing);
  const id = await repo.insertPayslip(change.trx, {
    org_id: org.id,
    employee_id: employee.id,
    period,
    gross,
    net_to_pay: netToPay,
    contract_ids: contractIds,
    ...(contributions
      ? { lines: JSON.stringify(contributions.lines), employee_contributions: contributions.employee, employer_contributions: contributions.employer }
      : {}),
  });
  await change.event({
    org_id: org.id,
    action: 'payslip.created',
    subject_type: 'payslip',
    subject_id: id,
    ...actorOf(caller),
    details: { period, net_to_pay: netToPay },
  });
  // Published as typed: the month's contribution call counts it.
  await reviseContributionCalls(change, caller, org.id, period);
  return id;
}

function isOneLivePayslipViolation(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (e?.code !== '23505') return false;
  return repo.ONE_LIVE_PAYSLIP_INDEXES.some((index) => e.constraint === index || String(e.message ?? '').includes(index));
}

/** `POST /api/staff/payslips`: 201, or 409 `payslip_exists` naming the live payslip. */
export async function createPayslip(ctx: PayslipContext, caller: Caller, input: PayslipInput): Promise<PayslipView> {
  let id: string;
  try {
    id = await applyChange(ctx, (change) => insertNewPayslip(change, caller, input));
  } catch (error) {
    // The employee's lock makes this unreachable; should an index refuse all the same, the
    // answer is the same 409, naming the payslip that won.
    if (!isOneLivePayslipViolation(error)) throw error;
    const { employee_id, period, contract_ids } = input as { employee_id: string; period: string; contract_ids?: string[] | null };
    const existing = await repo.findLivePayslipFor(ctx.db, employee_id.toLowerCase(), period, parseContractIds(contract_ids));
    throw existing ? payslipErrors.exists(existing) : error;
  }
  return readPayslip(ctx.db, null, id);
}

/**
 * `POST /api/staff/payslips/{id}/cancel`: status `annule`, so that a payslip
 * published twice can be withdrawn and published again. 409 `payslip_cancelled` when it already
 * is; 409 `payslip_in_transfer` while a batch that is not cancelled holds it (cancel the batch
 * first). The payslip's row lock orders it with a batch naming the payslip
 * (`lockPayslipsForTransfer`): whichever commits first wins, the other sees it.
 */
export async function cancelPayslip(ctx: PayslipContext, caller: Caller, id: string): Promise<PayslipView> {
  await applyChange(ctx, async (change) => {
    const current = isUuid(id) ? await repo.lockPayslip(change.trx, id.toLowerCase()) : undefined;
    if (!current) throw payslipErrors.notFound();
    if (current.status === 'annule') throw payslipErrors.cancelled();
    if (current.status === 'brouillon') throw payslipErrors.draftNotCancellable();
    const complement = await repo.findLiveComplementOf(change.trx, current.id);
    if (complement) throw payslipErrors.hasComplement(complement.id);
    const held = await repo.findLiveTransferOf(change.trx, current.id);
    if (held) throw payslipErrors.inTransfer(held.transfer_id);
    await repo.cancelPayslip(change.trx, current.id);
    await change.event({
      org_id: current.org_id,
      action: 'payslip.cancelled',
      subject_type: 'payslip',
      subject_id: current.id,
      ...actorOf(caller),
      details: { period: current.period, net_to_pay: moneyFromDb(current.net_to_pay) },
    });
    // A published payslip no longer owes its contributions: the month's calls are revised.
    if (current.status === 'publie') await reviseContributionCalls(change, caller, current.org_id, current.period);
  });
  return readPayslip(ctx.db, null, id);
}

/** `PUT /api/staff/payslips/{id}/pdf`: stores the file in place of a previous one (one transaction). */
export async function attachPayslipPdf(ctx: PayslipContext, caller: Caller, id: string, content: Buffer): Promise<PayslipView> {
  await applyChange(ctx, async (change) => {
    const current = isUuid(id) ? await repo.lockPayslip(change.trx, id.toLowerCase()) : undefined;
    if (!current) throw payslipErrors.notFound();
    if (current.status === 'brouillon') throw payslipErrors.draftNoPdf();
    const employee = await findEmployeeOfOrg(change.trx, current.org_id, current.employee_id);
    const name = employee ? `${employee.last_name}-${employee.first_name}` : current.employee_id;
    const fileId = await ctx.files.put(change.trx, {
      content,
      contentType: 'application/pdf',
      filename: `bulletin-${current.period}-${name}.pdf`,
      orgId: current.org_id,
    });
    if (current.pdf_id) await ctx.files.delete(change.trx, current.pdf_id);
    await repo.setPayslipPdf(change.trx, current.id, fileId);
    await change.event({
      org_id: current.org_id,
      action: 'payslip.pdf_attached',
      subject_type: 'payslip',
      subject_id: current.id,
      ...actorOf(caller),
      details: { bytes: content.length },
    });
  });
  return readPayslip(ctx.db, null, id);
}

/**
 * `GET /api/payslips/{id}/pdf-url`: a link valid 5 minutes; 404 `no_pdf` when none was attached.
 * It only reads: a computed bulletin not yet rendered by its job is 409 `document_pending` (or
 * `document_failed` when its job failed), never rendered here.
 */
export async function payslipPdfUrl(ctx: PayslipContext, orgId: string, id: string) {
  const file = isUuid(id) ? await repo.findPayslipFile(ctx.db, orgId, id.toLowerCase()) : undefined;
  if (!file) throw payslipErrors.notFound();
  if (file.pdf_id) return ctx.files.signedUrl(file.pdf_id);
  if (file.source !== 'calcule') throw payslipErrors.noPdf();
  const job = await latestJobOf(ctx.db, JOB_KINDS.bulletin, id.toLowerCase());
  throw job?.status === 'failed' ? payslipErrors.bulletinFailed() : payslipErrors.bulletinPending();
}

/** `GET /api/payslips`: newest period first, then by name; `?period=`, `?employee_id=`. */
export async function listPayslips(db: Database, orgId: string, query: { limit?: string; cursor?: string; period?: string; employee_id?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  const filters: repo.PayslipFilters = { orgId, period: parsePeriodFilter(query.period) };
  if (query.employee_id) {
    if (!isUuid(query.employee_id)) throw fieldErrors.invalid('employee_id', 'Le salarié');
    filters.employeeId = query.employee_id.toLowerCase();
  }
  const rows = await repo.listPayslips(db, filters, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.period, row.last_name, row.first_name, row.id]);
  return { items: page.items.map(payslipView), next_cursor: page.next_cursor };
}

/**
 * Every organization's published (and cancelled) payslips of `period` (required), or `org_id`'s,
 * with the organization's name: the staff's CSV export, page by page.
 */
export async function listStaffPayslips(db: Database, query: { limit?: string; cursor?: string; period?: string; org_id?: string }) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  const period = parsePeriodFilter(query.period);
  if (!period) throw payslipErrors.missingPeriod();
  const rows = await repo.listStaffPayslips(db, { orgId: query.org_id ? query.org_id.toLowerCase() : undefined, period }, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.period, row.last_name, row.first_name, row.id]);
  return { items: page.items.map((row) => ({ ...payslipView(row), org_name: row.org_name })), next_cursor: page.next_cursor };
}

/**
 * The month's published payslips, counted by organization: what the month's invoices are
 * proposed from on `/staff/facturation` (one line of bulletins per organization).
 */
export async function publishedPayslipCounts(db: Database, period: string): Promise<Map<string, number>> {
  return new Map((await repo.countPublishedByOrg(db, period)).map((row) => [row.org_id, Number(row.count)]));
}
