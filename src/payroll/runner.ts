/**
 * The payroll run's job (`payroll.run`, docs/jobs.md): the job worker claims it, leases it and
 * keeps its lease alive with the heartbeat; this handler computes the month in the computing
 * processes and commits its drafts. `payroll_runs` is the run's page: its status, its progress,
 * its drafts and the contracts skipped.
 *
 * - Two instances share the work: each claims other runs; a run is computed by its lease holder.
 * - A killed instance's run is taken up again once its lease expires, from the start (nothing of
 *   a run is written before its commit). After `RUN_MAX_ATTEMPTS` claims it is marked `echoue`
 *   with the reason, never left `en_cours`; an error marks it `echoue` at once.
 * - The drafts of a run replace the period's previous drafts in the transaction that marks the
 *   job done, which commits only if the job is still this worker's: two sets of drafts are never
 *   written. Progress is written only while the job is this worker's.
 * - A run that fails leaves the previous drafts as they were.
 * - A contract whose payslip the engine or the database cannot take is skipped `not_computable`,
 *   its number and the figure at fault in the message: one contract never fails the run.
 */
import { sql } from 'kysely';
import { applyChange, type ChangeContext } from '../audit/change.ts';
import type { Database } from '../db/database.ts';
import { periodBounds, requirePayrollPeriod } from '../format/calendar.ts';
import { AppError } from '../http/errors.ts';
import { JOB_KINDS } from '../jobs/kinds.ts';
import { INTERNAL_FAILURE, JobHandedBack, JobLeaseLost, type JobWorker, type RunningJob } from '../jobs/worker.ts';
import { computeInPool, PAYROLL_PROCESSES } from './compute-pool.ts';
import type { ComputeOutcome } from './payroll.process.ts';
import { unstorableReason } from './draft-limits.ts';
import { MODEL_VERSION } from './model-version.ts';
import { SKIP_MESSAGES, type SkipReasonCode } from './payroll.errors.ts';
import * as repo from './payroll.repository.ts';
import type { Situation } from './situation.ts';
import { aboutContract, complementOf, prepareContract, type MonthContract } from './month.ts';
import type { ComputedPayslip, PayslipLine } from './compute.ts';
import { moneyFromDb } from '../money/money.ts';

export interface RunnerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PayrollRunOptions {
  ctx: ChangeContext;
  log: RunnerLogger;
  /** Situations sent to a computing process at once at most (progress is reported after each). @default 8 */
  chunkSize?: number;
  /** Computes a chunk of situations. @default the computing processes (`computeInPool`) */
  compute?: (situations: Situation[]) => Promise<ComputeOutcome[]>;
}

/** What the run's page says when its job fails on an error (the error itself is in the log). */
export const RUN_FAILED =
  'Le calcul a échoué sur une erreur du service ; les brouillons précédents sont inchangés. Relancez-le, ou signalez-le si cela se reproduit.';

/** What the run's page says when the instances computing it died `times` times. */
export const runInterrupted = (times: number) => `Le calcul a été interrompu ${times} fois (arrêt du serveur) sans aboutir : relancez-le.`;

interface Skipped {
  contract_id: string;
  reason: SkipReasonCode;
  message: string;
}

/** A published computed payslip's figures and lines, as a complement subtracts them. */
function computedOf(row: repo.PublishedRow): ComputedPayslip {
  const money = (value: string | null) => moneyFromDb(value ?? '0');
  return {
    gross: money(row.gross),
    employee_contributions: money(row.employee_contributions),
    employer_contributions: money(row.employer_contributions),
    net_before_tax: money(row.net_before_tax),
    net_taxable: money(row.net_taxable),
    net_social: money(row.net_social),
    pas_rate: String(Number(row.pas_rate ?? 0)),
    pas_amount: money(row.pas_amount),
    net_to_pay: money(row.net_to_pay),
    employer_cost: money(row.employer_cost),
    lines: (row.lines ?? []) as unknown as PayslipLine[],
  };
}

/**
 * The database refusing one row (class 22, data exception: a numeric overflow; class 23, a
 * check, not-null or unique constraint), as opposed to the database failing.
 */
function isRowRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

/**
 * The drafts inserted, all at once; if the database refuses a row the figures checks did not
 * foresee, each one again in its own savepoint, and those refused are handed to `refused`
 * rather than failing the run.
 */
async function insertDraftsSkipping(trx: Database, drafts: readonly repo.DraftRow[], refused: (draft: repo.DraftRow) => void): Promise<string[]> {
  const attempt = async (name: 'drafts' | 'draft', rows: readonly repo.DraftRow[]): Promise<string[] | null> => {
    await sql.raw(`savepoint ${name}`).execute(trx);
    try {
      const ids = await repo.insertDrafts(trx, rows);
      await sql.raw(`release savepoint ${name}`).execute(trx);
      return ids;
    } catch (error) {
      if (!isRowRefused(error)) throw error;
      await sql.raw(`rollback to savepoint ${name}`).execute(trx);
      return null;
    }
  };
  const all = await attempt('drafts', drafts);
  if (all) return all;
  const ids: string[] = [];
  for (const draft of drafts) {
    const one = await attempt('draft', [draft]);
    if (one) ids.push(...one);
    else refused(draft);
  }
  return ids;
}

/**
 * Defines the payroll run's job on this worker. An error fails the run at once (the computation
 * would fail the same way again; staff relaunch it), a run whose instances keep dying fails after
 * `max_attempts` claims: either way its page says `echoue` in the transaction that fails the job.
 */
export function definePayrollRun(worker: JobWorker, options: PayrollRunOptions): void {
  worker.define(JOB_KINDS.payrollRun, (job) => computeRun(options, job), {
    retryErrors: false,
    failed: (trx, failure) => {
      // A refusal of the service keeps its own French reason; an error says the run's sentence.
      const message = failure.interrupted !== null ? runInterrupted(failure.interrupted) : failure.reason === INTERNAL_FAILURE ? RUN_FAILED : failure.reason;
      return repo.failRun(trx, String(failure.payload.run_id), message);
    },
  });
}

/** The run ended without drafts (its organization gone, its period refused), with the job. */
async function endRun(ctx: ChangeContext, job: RunningJob, runId: string, message: string): Promise<void> {
  await applyChange(ctx, async (change) => {
    await job.done(change.trx);
    await repo.finishRun(change.trx, runId, { status: 'echoue', message });
  });
}

async function computeRun(options: PayrollRunOptions, job: RunningJob): Promise<void> {
  const { ctx, log } = options;
  const computeChunk = options.compute ?? computeInPool;
  const run = await repo.openRun(ctx.db, String(job.payload.run_id));
  if (!run) {
    // Finished already (or another run of its month computes): nothing to do.
    log.info({ run_id: job.payload.run_id }, 'payroll: the run is no longer waiting');
    return;
  }
  const org = await repo.findPayrollOrg(ctx.db, run.org_id);
  if (!org) return endRun(ctx, job, run.id, 'Organisation introuvable.');
  try {
    requirePayrollPeriod(run.period);
  } catch (error) {
    // A run asked before the period rule, or left waiting past it.
    if (!(error instanceof AppError)) throw error;
    return endRun(ctx, job, run.id, error.message);
  }
  const { first, last } = periodBounds(run.period);
  const contracts = await repo.contractsOfPeriod(ctx.db, org.id, first, last);
  const published = await repo.publishedOfPeriod(ctx.db, org.id, run.period);
  const skipped: Skipped[] = [];
  const skip = (contractId: string, reason: SkipReasonCode, message: string = SKIP_MESSAGES[reason]) =>
    skipped.push({ contract_id: contractId, reason, message });
  const todo: Array<{ contract: repo.PeriodContract; situation: Situation; hash: string }> = [];
  for (const contract of contracts) {
    const paid = published.get(contract.id) ?? [];
    if (paid.some((p) => p.source !== 'calcule')) {
      skip(contract.id, 'typed_published');
      continue;
    }
    const prepared = prepareContract(org, contract as MonthContract, run.period);
    if ('skip' in prepared) {
      // A published month that now pays nothing (its dates removed) would be a negative complement.
      if (paid.length > 0 && prepared.skip === 'no_date_in_period') skip(contract.id, 'complement_negative');
      else skip(contract.id, prepared.skip, prepared.message);
      continue;
    }
    // A published month whose inputs have not changed since its last payslip: nothing to compute.
    if (paid.length > 0 && paid.at(-1)!.inputs_hash === prepared.hash) {
      skip(contract.id, 'already_published');
      continue;
    }
    todo.push({ contract, situation: prepared.situation, hash: prepared.hash });
  }
  const total = todo.length;
  const progress = async (done: number) => {
    if (!(await repo.reportProgress(ctx.db, run.id, job, { done, total }))) throw new JobLeaseLost();
  };
  await progress(0);

  // Chunks to every computing process at once; progress after each. A small run is cut finer,
  // so that no process waits while another computes most of it.
  const chunkSize = Math.max(1, Math.min(options.chunkSize ?? 8, Math.ceil(total / (2 * PAYROLL_PROCESSES))));
  // A stopping worker: the run is handed back after the chunk in progress, its progress undone.
  const handBack = async () => {
    await progress(0);
    throw new JobHandedBack();
  };
  const outcomes: Awaited<ReturnType<typeof computeInPool>> = new Array(total);
  let done = 0;
  let next = 0;
  const computing = async () => {
    while (next < total) {
      const start = next;
      next = Math.min(total, next + chunkSize);
      if (job.stopping) return handBack();
      const results = await computeChunk(todo.slice(start, next).map((t) => t.situation));
      if (job.lost) throw new JobLeaseLost();
      for (const [i, result] of results.entries()) outcomes[start + i] = result;
      done += results.length;
      await progress(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(PAYROLL_PROCESSES, total)) }, computing));
  if (job.stopping) return handBack();

  const wholes: Array<{ contract: repo.PeriodContract; situation: Situation; hash: string; payslip: ComputedPayslip }> = [];
  for (const [i, { contract, situation, hash }] of todo.entries()) {
    const outcome = outcomes[i]!;
    if (!outcome.ok) {
      skip(contract.id, 'not_computable', aboutContract(contract, outcome.message));
      continue;
    }
    const refused = unstorableReason(outcome.payslip);
    if (refused) {
      skip(contract.id, 'not_computable', aboutContract(contract, refused));
      continue;
    }
    wholes.push({ contract, situation, hash, payslip: outcome.payslip });
  }

  const made = await applyChange(ctx, async (change) => {
    // The job's row first: a worker whose lease was taken over stops here, its drafts unwritten.
    await job.done(change.trx);
    if (!(await repo.lockRunningRun(change.trx, run.id))) throw new JobLeaseLost();
    // After a validation of this month committing meanwhile, and before the next: the
    // payslips published now are read after the lock, and the drafts computed around them.
    await repo.lockMonth(change.trx, org.id, run.period);
    const publishedNow = await repo.publishedOfPeriod(change.trx, org.id, run.period);
    const drafts: repo.DraftRow[] = [];
    for (const { contract, situation, hash, payslip } of wholes) {
      const paid = publishedNow.get(contract.id) ?? [];
      let figures = payslip;
      let complement: Pick<repo.DraftRow, 'kind' | 'complements_id' | 'complement_basis'> = { kind: 'normal', complements_id: null, complement_basis: null };
      if (paid.length > 0) {
        if (paid.some((p) => p.source !== 'calcule')) {
          skip(contract.id, 'typed_published');
          continue;
        }
        const outcome = complementOf(payslip, paid.map(computedOf));
        if ('skip' in outcome) {
          skip(contract.id, outcome.skip, outcome.message);
          continue;
        }
        figures = outcome.payslip;
        const original = paid.find((p) => p.kind === 'normal') ?? paid[0]!;
        complement = { kind: 'complementaire', complements_id: original.id, complement_basis: paid.map((p) => p.id).sort() };
      }
      drafts.push({
        org_id: org.id,
        employee_id: contract.employee_id,
        contract_id: contract.id,
        period: run.period,
        run_id: run.id,
        model_version: MODEL_VERSION,
        situation,
        lines: figures.lines,
        inputs_hash: hash,
        ...complement,
        gross: figures.gross,
        net_to_pay: figures.net_to_pay,
        employee_contributions: figures.employee_contributions,
        employer_contributions: figures.employer_contributions,
        net_before_tax: figures.net_before_tax,
        net_taxable: figures.net_taxable,
        net_social: figures.net_social,
        pas_rate: figures.pas_rate,
        pas_amount: figures.pas_amount,
        employer_cost: figures.employer_cost,
      });
    }
    const replaced = await repo.deleteDrafts(change.trx, org.id, run.period);
    const numbers = new Map(todo.map(({ contract }) => [contract.id, contract]));
    const ids = await insertDraftsSkipping(change.trx, drafts, (d) =>
      skip(
        d.contract_id,
        'not_computable',
        aboutContract(
          numbers.get(d.contract_id)!,
          'la base de données a refusé ce bulletin (un de ses montants est hors des limites) : vérifiez les montants du contrat.',
        ),
      ),
    );
    await repo.finishRun(change.trx, run.id, { status: 'termine', payslip_ids: ids, skipped, done: total, total });
    await change.event({
      org_id: org.id,
      action: 'payroll.computed',
      subject_type: 'payroll_run',
      subject_id: run.id,
      actor_user_id: null,
      actor_email: null,
      details: { period: run.period, drafts: ids.length, skipped: skipped.length, replaced, model_version: MODEL_VERSION },
    });
    return ids.length;
  });
  log.info({ run_id: run.id, drafts: made, skipped: skipped.length }, 'payroll: run done');
}
