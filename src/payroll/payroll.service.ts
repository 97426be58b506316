/**
 * The payroll run: staff ask for an organization's month, its job (runner.ts) computes it off
 * the event loop and replaces the period's drafts in one transaction; staff validate the drafts,
 * which publishes them, calls the contributions and queues their bulletins' jobs in
 * the same transaction.
 */
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import type { Database } from '../db/database.ts';
import type { FileStore } from '../files/file-store.ts';
import { addDays, lastWorkingDay, parsePeriod, periodBounds } from '../format/calendar.ts';
import { formatDateFr } from '../format/french.ts';
import { fieldErrors } from '../http/errors.ts';
import { absent, isUuid } from '../http/input.ts';
import type { Caller } from '../identity/identity.service.ts';
import { moneyFromDb } from '../money/money.ts';
import { findOrganization } from '../org/org.repository.ts';
import { orgErrors } from '../org/org.errors.ts';
import { reviseContributionCalls } from '../contributions/contributions.service.ts';
import { payrollErrors } from './payroll.errors.ts';
import * as repo from './payroll.repository.ts';
import { JOB_KINDS } from '../jobs/kinds.ts';
import type { OutgoingJob } from '../jobs/queue.ts';
import { prepareContract, type MonthContract } from './month.ts';
import { checkField, checkPayrollPeriod } from '../schemas/fields.ts';
import { DraftId, PayrollValidateBody } from '../schemas/payroll.ts';

export interface PayrollContext extends ChangeContext {
  files: FileStore;
}

async function requireOrgAndPeriod(db: Database, input: Record<string, unknown>): Promise<{ orgId: string; period: string }> {
  if (absent(input.org_id)) throw fieldErrors.missing('org_id', "L'organisation");
  const org = isUuid(input.org_id) ? await findOrganization(db, input.org_id.toLowerCase()) : undefined;
  if (!org) throw orgErrors.orgInBodyNotFound();
  return { orgId: org.id, period: checkPayrollPeriod(input.period) };
}

/** Claims of a run before it is marked `echoue` "interrompu" (its instances kept dying on it). */
export const RUN_MAX_ATTEMPTS = 3;

/**
 * `POST /api/staff/paie/calcul`: a new run with its job (`definePayrollRun`), queued in the same
 * transaction; or the one already running for this organization and period (the partial unique
 * index decides between two requests racing).
 */
export async function startRun(
  ctx: ChangeContext,
  caller: Pick<Caller, 'userId'>,
  input: Record<string, unknown>,
): Promise<{ run_id: string; created: boolean }> {
  const { orgId, period } = await requireOrgAndPeriod(ctx.db, input);
  for (;;) {
    const inserted = await applyChange(ctx, async (change) => {
      const run = await repo.insertRun(change.trx, orgId, period, caller.userId);
      if (run)
        await change.jobs([
          { kind: JOB_KINDS.payrollRun, payload: { run_id: run.id }, orgId, subject: { type: 'payroll_run', id: run.id }, maxAttempts: RUN_MAX_ATTEMPTS },
        ]);
      return run;
    });
    if (inserted) return { run_id: inserted.id, created: true };
    const running = await repo.findRunningRun(ctx.db, orgId, period);
    // The running one finished between the two statements: ask again.
    if (running) return { run_id: running.id, created: false };
  }
}

/** The drafts a finished run made, as the page lists them. */
async function runPayslips(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('payslips')
    .innerJoin('employees', 'employees.id', 'payslips.employee_id')
    .innerJoin('payslip_contracts', 'payslip_contracts.payslip_id', 'payslips.id')
    .innerJoin('contracts', 'contracts.id', 'payslip_contracts.contract_id')
    .select([
      'payslips.id',
      'payslips.status',
      'payslips.kind',
      'payslips.complements_id',
      'payslips.employee_id',
      'employees.first_name',
      'employees.last_name',
      'contracts.id as contract_id',
      'contracts.contract_number',
      'payslips.gross',
      'payslips.net_before_tax',
      'payslips.net_to_pay',
      'payslips.employer_cost',
    ])
    .where('payslips.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        status: r.status,
        kind: r.kind,
        complements_id: r.complements_id,
        employee_id: r.employee_id,
        employee: { first_name: r.first_name, last_name: r.last_name },
        contract_id: r.contract_id,
        contract_number: r.contract_number,
        gross: moneyFromDb(r.gross),
        net_before_tax: moneyFromDb(r.net_before_tax ?? '0'),
        net_to_pay: moneyFromDb(r.net_to_pay),
        employer_cost: moneyFromDb(r.employer_cost ?? '0'),
      },
    ];
  });
}

/** `GET /api/staff/paie/runs/{id}`. */
export async function readRun(db: Database, id: string) {
  const run = isUuid(id) ? await repo.findRun(db, id.toLowerCase()) : undefined;
  if (!run) throw payrollErrors.runNotFound();
  const finished = run.status === 'termine';
  return {
    id: run.id,
    org_id: run.org_id,
    period: run.period,
    status: run.status,
    done: run.done,
    total: run.total,
    payslips: finished ? await runPayslips(db, run.payslip_ids) : [],
    skipped: finished ? run.skipped : [],
    ...(run.message ? { message: run.message } : {}),
    created_at: run.created_at,
    finished_at: run.finished_at,
  };
}

/**
 * `GET /api/staff/paie/mois`: an organization's month as it stands, whatever run made it: its
 * current drafts, the contracts the last finished run skipped, and the last run (its progress
 * while it computes, its reason when it failed). Any well-formed month may be read.
 */
export async function readMonth(db: Database, input: { org_id?: unknown; period?: unknown }) {
  if (absent(input.org_id)) throw fieldErrors.missing('org_id', "L'organisation");
  const org = isUuid(input.org_id) ? await findOrganization(db, input.org_id.toLowerCase()) : undefined;
  if (!org) throw orgErrors.orgInBodyNotFound();
  if (absent(input.period)) throw fieldErrors.missing('period', 'La période');
  const period = parsePeriod(input.period);
  if (!period) throw fieldErrors.invalid('period', 'La période');
  const [draftIds, last, finished] = await Promise.all([
    repo.draftIdsOf(db, org.id, period),
    repo.findLastRun(db, org.id, period),
    repo.findLastFinishedRun(db, org.id, period),
  ]);
  return {
    org_id: org.id,
    period,
    drafts: await runPayslips(db, draftIds),
    skipped: finished?.skipped ?? [],
    last_run: last
      ? {
          id: last.id,
          status: last.status,
          done: last.done,
          total: last.total,
          ...(last.message ? { message: last.message } : {}),
          created_at: last.created_at,
          finished_at: last.finished_at,
        }
      : null,
  };
}
export type MonthView = Awaited<ReturnType<typeof readMonth>>;

function parsePayslipIds(raw: unknown): string[] | null {
  if (raw === undefined || raw === null) return null;
  const ids = checkField(PayrollValidateBody.properties.payslip_ids, raw).map((id) => checkField(DraftId, id));
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

// The call's rules belong to the contributions module; re-exported for the payroll's callers.
export { contributionDueDate, contributionLines } from '../contributions/contribution.rules.ts';

/** The latest payment date accepted: the last day of the second month after the period. */
function latestPaymentDate(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const third = new Date(Date.UTC(year, month + 2, 1)).toISOString().slice(0, 7);
  return addDays(`${third}-01`, -1);
}

/**
 * The day the validated payslips are paid: the one given (`YYYY-MM-DD`, from the period's first
 * day to the end of the second month after it: a salary is paid in the month or soon after,
 * and a date further off is a typing mistake), else the period's last working day.
 */
export function parsePaymentDate(raw: unknown, period: string): string {
  if (absent(raw)) return lastWorkingDay(period);
  const date = checkField(PayrollValidateBody.properties.payment_date, raw);
  const first = periodBounds(period).first;
  const last = latestPaymentDate(period);
  if (date < first || date > last) throw payrollErrors.paymentDateOutOfRange(formatDateFr(first), formatDateFr(last));
  return date;
}

/**
 * `POST /api/staff/paie/valider`: the drafts named (default: all of the period's) published,
 * the contribution call made and their bulletins' jobs queued, in one transaction; 409
 * `payslip_not_draft` naming those that are not drafts of this organization and period, nothing
 * changed.
 */
export async function validateDrafts(ctx: ChangeContext, caller: Pick<Caller, 'userId' | 'email'>, input: Record<string, unknown>) {
  const { orgId, period } = await requireOrgAndPeriod(ctx.db, input);
  const requested = parsePayslipIds(input.payslip_ids);
  const paymentDate = parsePaymentDate(input.payment_date, period);
  return applyChange(ctx, async (change) => {
    // One at a time with a run's commit of this month: each sees what the other committed.
    await repo.lockMonth(change.trx, orgId, period);
    const drafts = await repo.lockDrafts(change.trx, orgId, period);
    const draftIds = new Set(drafts.map((d) => d.id));
    if (requested) {
      const notDrafts = requested.filter((id) => !draftIds.has(id));
      // Drafts shown to staff, then deleted by a new computation of the month: stale, not unknown.
      const replaced = await repo.madeByRuns(change.trx, orgId, period, await missingPayslips(change.trx, notDrafts));
      if (replaced.length > 0) throw payrollErrors.stale({ payslip_ids: replaced, contract_numbers: [] });
      if (notDrafts.length > 0) throw payrollErrors.notDraft(notDrafts);
    }
    const chosen = requested ? drafts.filter((d) => requested.includes(d.id)) : drafts;
    if (chosen.length === 0) throw payrollErrors.notDraft([]);
    const stale = await staleDrafts(change.trx, orgId, period, chosen);
    if (stale.payslip_ids.length > 0) throw payrollErrors.stale(stale);
    const ids = chosen.map((d) => d.id);
    await repo.publishDrafts(change.trx, ids, paymentDate);
    await change.jobs(bulletinJobs(orgId, ids));
    const call = await reviseContributionCalls(change, caller, orgId, period);
    await change.events(
      ids.map((id) => ({
        org_id: orgId,
        action: 'payslip.published',
        subject_type: 'payslip',
        subject_id: id,
        ...actorOf(caller),
        details: { period, source: 'calcule', payment_date: paymentDate },
      })),
    );
    return { published: ids, contribution_call_id: call?.id ?? null, payment_date: paymentDate };
  });
}

/** The jobs rendering the bulletins of these payslips (`runBulletinJob`), queued by their validation. */
function bulletinJobs(orgId: string, payslipIds: readonly string[]): OutgoingJob[] {
  return payslipIds.map((id) => ({ kind: JOB_KINDS.bulletin, payload: { payslip_id: id }, orgId, subject: { type: 'payslip', id } }));
}

/** Those of these ids that name no payslip (a draft replaced by a run is deleted). */
async function missingPayslips(db: Database, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = new Set((await db.selectFrom('payslips').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * The drafts that no longer match what they were computed from: their contract as it is now
 * (cancelled, out of the month, amended, its dates or its employee changed: another inputs'
 * hash), or, for a complementary one, the published payslips it subtracts.
 */
async function staleDrafts(db: Database, orgId: string, period: string, drafts: Awaited<ReturnType<typeof repo.lockDrafts>>) {
  const org = await repo.findPayrollOrg(db, orgId);
  const { first, last } = periodBounds(period);
  const contracts = new Map((await repo.contractsOfPeriod(db, orgId, first, last)).map((c) => [c.id, c]));
  const published = await repo.publishedOfPeriod(db, orgId, period);
  const stale: Array<{ id: string; contract_id: string | undefined }> = [];
  for (const draft of drafts) {
    const contractId = draft.contract_ids[0];
    const contract = contractId === undefined ? undefined : contracts.get(contractId);
    const prepared = contract && org ? prepareContract(org, contract as MonthContract, period) : undefined;
    const basis = (published.get(contractId ?? '') ?? []).map((p) => p.id).sort();
    const fresh = prepared !== undefined && !('skip' in prepared) && prepared.hash === draft.inputs_hash && sameIds(basis, draft.complement_basis ?? []);
    if (!fresh) stale.push({ id: draft.id, contract_id: contractId });
  }
  const named = new Map(
    (
      await repo.contractsNamed(
        db,
        stale.flatMap((s) => (s.contract_id ? [s.contract_id] : [])),
      )
    ).map((c) => [c.id, c.contract_number]),
  );
  return {
    payslip_ids: stale.map((s) => s.id),
    contract_numbers: [...new Set(stale.flatMap((s) => (s.contract_id && named.has(s.contract_id) ? [named.get(s.contract_id)!] : [])))].sort(),
  };
}

/**
 * The months of a contract already validated: an avenant or salaries edited in one of them is
 * paid by a complementary payslip once the month is computed again (the contract's pages say so).
 */
export function publishedPeriodsOfContract(db: Database, contractId: string): Promise<string[]> {
  return repo.publishedPeriodsOf(db, contractId);
}

/** The skipped contracts of a run, named (number, kind, employee) for the staff's page. */
export async function skippedContracts(db: Database, skipped: ReadonlyArray<{ contract_id: string; reason: string; message?: string }>) {
  const named = new Map(
    (
      await repo.contractsNamed(
        db,
        skipped.map((s) => s.contract_id),
      )
    ).map((c) => [c.id, c]),
  );
  return skipped.map((s) => ({ ...s, contract: named.get(s.contract_id) ?? null }));
}
