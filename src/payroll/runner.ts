/**
 * The payroll runner: in every instance of the service, it claims runs nobody is
 * computing, computes them in the computing processes and commits their drafts. The pattern is the mail
 * outbox's (src/mail/worker.ts): a claim is one short statement that takes a row with
 * `FOR UPDATE SKIP LOCKED` and leases it; the lease is renewed with each progress report.
 *
 * - Two instances share the work: each claims other runs; a run is computed by its lease holder.
 * - A killed instance's run is taken up again once its lease expires (`leaseMs`, 30 s without a
 *   heartbeat), from the start (nothing of a run is written before its commit). After `maxAttempts` claims it is
 *   marked `echoue` with the reason, never left `en_cours`.
 * - The drafts of a run replace the period's previous drafts in one transaction that first
 *   checks the run is still this instance's: two sets of drafts are never written.
 * - A run that fails leaves the previous drafts as they were.
 * - A contract whose payslip the engine or the database cannot take is skipped `not_computable`,
 *   its number and the figure at fault in the message: one contract never fails the run.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { applyChange, type ChangeContext } from '../audit/change.ts';
import type { Database } from '../db/database.ts';
import { periodBounds, requirePayrollPeriod } from '../format/calendar.ts';
import { AppError } from '../http/errors.ts';
import { Heartbeat } from '../jobs/heartbeat.ts';
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

export interface PayrollRunnerOptions {
  ctx: ChangeContext;
  log: RunnerLogger;
  /** @default 1000 */
  pollMs?: number;
  /** How long a claimed run is this instance's without news. @default 30000 */
  leaseMs?: number;
  /** Claims of one run before it is marked `echoue`. @default 3 */
  maxAttempts?: number;
  /** Situations sent to a computing process at once at most (progress is reported after each). @default 8 */
  chunkSize?: number;
  /** Runs computed side by side by this instance. @default 2 */
  concurrentRuns?: number;
  /** Time between two renewals of the leases held. @default a third of the lease */
  heartbeatMs?: number;
  /** Called after each heartbeat with the runs whose lease it renewed (tests wait on it). */
  onHeartbeat?: (runIds: readonly string[]) => void;
  /** Computes a chunk of situations. @default the computing processes (`computeInPool`) */
  compute?: (situations: Situation[]) => Promise<ComputeOutcome[]>;
}

interface Skipped {
  contract_id: string;
  reason: SkipReasonCode;
  message: string;
}

class LeaseLost extends Error {}
/** The server is stopping: the run is handed back for another instance (or this one, restarted). */
class Stopping extends Error {}

/** A published computed payslip's figures and lines, as a complement subtracts them. */
function computedOf(row: repo.PublishedRow): ComputedPayslip {
  const money = (value: string | null) => moneyFromDb(value ?? '0');
  return {
    gross: money(row.gross), employee_contributions: money(row.employee_contributions), employer_contributions: money(row.employer_contributions),
    net_before_tax: money(row.net_before_tax), net_taxable: money(row.net_taxable), net_social: money(row.net_social),
    pas_rate: String(Number(row.pas_rate ?? 0)), pas_amount: money(row.pas_amount), net_to_pay: money(row.net_to_pay), employer_cost: money(row.employer_cost),
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

export class PayrollRunner {
  readonly owner = `${process.pid}-${crypto.randomUUID()}`;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly chunkSize: number;
  private readonly concurrentRuns: number;
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<Promise<void>>();
  private stopped = true;
  /** Set by `stop()`: a run in progress is handed back after its chunk. */
  private stopRequested = false;
  private again = false;
  private readonly heartbeat: Heartbeat;
  /** Runs whose lease the heartbeat found taken over: their work stops at the next chunk. */
  private readonly lost = new Set<string>();
  private readonly computeChunk: (situations: Situation[]) => Promise<ComputeOutcome[]>;

  constructor(private readonly options: PayrollRunnerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.chunkSize = options.chunkSize ?? 8;
    this.concurrentRuns = options.concurrentRuns ?? 2;
    this.computeChunk = options.compute ?? computeInPool;
    this.heartbeat = new Heartbeat({
      intervalMs: options.heartbeatMs ?? Math.max(10, Math.floor(this.leaseMs / 3)),
      renew: (ids) => repo.renewRunLeases(options.ctx.db, ids, this.owner, this.leaseMs),
      lost: (id) => {
        this.lost.add(id);
        this.heartbeat.release(id);
      },
      failed: (err) => options.log.error({ err }, 'payroll: renewing the leases failed'),
      ...(options.onHeartbeat ? { beat: options.onHeartbeat } : {}),
    });
  }

  start(): void {
    this.stopped = false;
    this.stopRequested = false;
    this.nudge();
  }

  /**
   * Looks for work now rather than at the next poll: up to `concurrentRuns` loops claim runs side
   * by side, so that the computing processes compute one run while another is read or committed.
   */
  nudge(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running.size >= this.concurrentRuns) {
      this.again = true;
      return;
    }
    while (this.running.size < this.concurrentRuns) {
      const loop: Promise<void> = this.drain().finally(() => {
        this.running.delete(loop);
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else if (this.running.size === 0) {
          this.timer = setTimeout(() => this.nudge(), this.pollMs);
          this.timer.unref();
        }
      });
      this.running.add(loop);
    }
  }

  /**
   * Stops claiming; a run in progress stops after its current chunk and is handed back (its
   * lease released, the attempt not counted), so that a restart or another instance takes it
   * up at once rather than after the lease.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.all(this.running);
    await this.heartbeat.stop();
  }

  /** Computes every run waiting, now, in this process (the command line's seed-demo); then resolves. */
  async computeWaiting(): Promise<void> {
    await this.drain(true);
  }

  /** Claims and computes runs until none is left (or the runner stops). */
  private async drain(evenStopped = false): Promise<void> {
    for (;;) {
      if (this.stopped && !evenStopped) return;
      let claimed: Awaited<ReturnType<typeof repo.claimRun>>;
      try {
        claimed = await repo.claimRun(this.options.ctx.db, this.owner, this.leaseMs);
      } catch (err) {
        this.options.log.error({ err }, 'payroll: claiming a run failed');
        return;
      }
      if (!claimed) return;
      await this.compute(claimed);
    }
  }

  private async compute(run: { id: string; org_id: string; period: string; attempts: number }): Promise<void> {
    const { db } = this.options.ctx;
    const log = this.options.log;
    if (run.attempts > this.maxAttempts) {
      await repo.finishRun(db, run.id, {
        status: 'echoue',
        message: `Le calcul a été interrompu ${run.attempts - 1} fois (arrêt du serveur) sans aboutir : relancez-le.`,
      });
      log.error({ run_id: run.id, attempts: run.attempts - 1 }, 'payroll: run abandoned after repeated interruptions');
      return;
    }
    this.heartbeat.hold(run.id);
    try {
      await this.computeRun(run);
    } catch (err) {
      if (err instanceof LeaseLost) {
        log.info({ run_id: run.id }, 'payroll: run taken over by another instance');
        return;
      }
      if (err instanceof Stopping) {
        await repo.releaseRun(db, run.id, this.owner).catch((e: unknown) => log.error({ err: e, run_id: run.id }, 'payroll: handing the run back failed'));
        log.info({ run_id: run.id }, 'payroll: run handed back (stopping)');
        return;
      }
      log.error({ err, run_id: run.id }, 'payroll: run failed');
      await repo
        .finishRun(db, run.id, { status: 'echoue', message: 'Le calcul a échoué sur une erreur du service ; les brouillons précédents sont inchangés. Relancez-le, ou signalez-le si cela se reproduit.' })
        .catch((e: unknown) => log.error({ err: e, run_id: run.id }, 'payroll: recording the failure failed'));
    } finally {
      this.heartbeat.release(run.id);
      this.lost.delete(run.id);
    }
  }

  private async computeRun(run: { id: string; org_id: string; period: string }): Promise<void> {
    const { ctx } = this.options;
    const org = await repo.findPayrollOrg(ctx.db, run.org_id);
    if (!org) {
      await repo.finishRun(ctx.db, run.id, { status: 'echoue', message: 'Organisation introuvable.' });
      return;
    }
    try {
      requirePayrollPeriod(run.period);
    } catch (error) {
      // A run asked before the period rule, or left waiting past it.
      if (!(error instanceof AppError)) throw error;
      await repo.finishRun(ctx.db, run.id, { status: 'echoue', message: error.message });
      return;
    }
    const { first, last } = periodBounds(run.period);
    const contracts = await repo.contractsOfPeriod(ctx.db, org.id, first, last);
    const published = await repo.publishedOfPeriod(ctx.db, org.id, run.period);
    const skipped: Skipped[] = [];
    const skip = (contractId: string, reason: SkipReasonCode, message: string = SKIP_MESSAGES[reason]) => skipped.push({ contract_id: contractId, reason, message });
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
    if (!(await repo.reportProgress(ctx.db, run.id, this.owner, { done: 0, total }, this.leaseMs))) throw new LeaseLost();

    // Chunks to every computing process at once; progress (and the lease) after each. A small run is cut
    // finer, so that no process waits while another computes most of it.
    const chunkSize = Math.max(1, Math.min(this.chunkSize, Math.ceil(total / (2 * PAYROLL_PROCESSES))));
    const outcomes: Awaited<ReturnType<typeof computeInPool>> = new Array(total);
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < total) {
        const start = next;
        next = Math.min(total, next + chunkSize);
        if (this.stopRequested) throw new Stopping();
        const results = await this.computeChunk(todo.slice(start, next).map((t) => t.situation));
        if (this.lost.has(run.id)) throw new LeaseLost();
        for (const [i, result] of results.entries()) outcomes[start + i] = result;
        done += results.length;
        if (!(await repo.reportProgress(ctx.db, run.id, this.owner, { done, total }, this.leaseMs))) throw new LeaseLost();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(PAYROLL_PROCESSES, total)) }, worker));
    if (this.stopRequested) throw new Stopping();

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
      if (!(await repo.lockOwnRun(change.trx, run.id, this.owner))) throw new LeaseLost();
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
          org_id: org.id, employee_id: contract.employee_id, contract_id: contract.id, period: run.period, run_id: run.id,
          model_version: MODEL_VERSION, situation, lines: figures.lines, inputs_hash: hash, ...complement,
          gross: figures.gross, net_to_pay: figures.net_to_pay, employee_contributions: figures.employee_contributions, employer_contributions: figures.employer_contributions,
          net_before_tax: figures.net_before_tax, net_taxable: figures.net_taxable, net_social: figures.net_social, pas_rate: figures.pas_rate, pas_amount: figures.pas_amount, employer_cost: figures.employer_cost,
        });
      }
      const replaced = await repo.deleteDrafts(change.trx, org.id, run.period);
      const numbers = new Map(todo.map(({ contract }) => [contract.id, contract]));
      const ids = await insertDraftsSkipping(change.trx, drafts, (d) =>
        skip(d.contract_id, 'not_computable', aboutContract(numbers.get(d.contract_id)!, 'la base de données a refusé ce bulletin (un de ses montants est hors des limites) : vérifiez les montants du contrat.')),
      );
      await repo.finishRun(change.trx, run.id, { status: 'termine', payslip_ids: ids, skipped, done: total, total });
      await change.event({
        org_id: org.id, action: 'payroll.computed', subject_type: 'payroll_run', subject_id: run.id, actor_user_id: null, actor_email: null,
        details: { period: run.period, drafts: ids.length, skipped: skipped.length, replaced, model_version: MODEL_VERSION },
      });
      return ids.length;
    });
    this.options.log.info({ run_id: run.id, drafts: made, skipped: skipped.length }, 'payroll: run done');
  }
}
