/**
 * The one worker of durable jobs (docs/jobs.md). Every instance runs one; each job is run by
 * whoever claims it:
 *
 * - A claim is one short statement (`claimJob`): `FOR UPDATE SKIP LOCKED`, a lease, the attempt
 *   counted. No transaction stays open while the job runs.
 * - A heartbeat renews the leases of the jobs in progress on a timer, whatever they are doing:
 *   a job waiting on child processes starved by a busy machine keeps its lease; a killed
 *   instance's lease runs out and its job is claimed again, from the start.
 * - A job ends in its own transaction: its handler calls `job.done(trx)` in the transaction that
 *   writes its result, which commits only if the job is still this worker's. A handler that
 *   writes nothing is marked done after it returns.
 * - A failure is retried with exponential backoff up to `max_attempts`, then the job is
 *   `failed` with its reason, for staff to read and retry. A refusal of the service (an
 *   `AppError` below 500: the operator's identity missing) says its own French reason and fails
 *   at once: trying again would only say it again. Any other error is logged and stored as a
 *   generic sentence: staff never read a stack or a variable name. A kind may fail at its first
 *   error (`retryErrors: false`), and may mark its own row failed in the transaction that fails
 *   the job (`failed`): the payroll run's page says `echoue` with its own reason.
 * - A stop hands the jobs in progress back: a long job reads `job.stopping` between its steps
 *   and throws `JobHandedBack`; those still running after the grace are handed back for it.
 *
 * Each worker claims only the kinds defined on it: two workers of one process (the bulletins
 * and documents on one, the payroll runs on another) keep their own concurrency.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import { Heartbeat } from './heartbeat.ts';
import * as repo from './jobs.repository.ts';

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunningJob {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempt: number;
  /** This worker's name on the lease (`jobs.lease_owner`): a statement can check the job is still its own. */
  owner: string;
  /** The worker is stopping: a long job hands itself back at its next step (`throw new JobHandedBack()`). */
  readonly stopping: boolean;
  /** The heartbeat found the lease taken over: the job must stop, it can no longer commit. */
  readonly lost: boolean;
  /**
   * Marks the job done in `trx`, the transaction writing its result; throws (rolling it back)
   * when the job is no longer this worker's.
   */
  done(trx: Database): Promise<void>;
}

export type JobHandler = (job: RunningJob) => Promise<void>;

/** A job failed for good, as its kind's `failed` hook reads it. */
export interface JobFailure {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  /** The reason stored on the job. */
  reason: string;
  /** How many times the job was interrupted (its process died) when that is why it failed; else null. */
  interrupted: number | null;
}

export interface JobKindOptions {
  /** An error is tried again with backoff; false: the first error fails the job. @default true */
  retryErrors?: boolean;
  /** Called in the transaction that marks the job failed (the kind's own row says so too). */
  failed?: (trx: Database, failure: JobFailure) => Promise<void>;
}

type Outcome = 'done' | 'retry' | 'failed' | 'lost' | 'handed_back';

export interface JobWorkerOptions {
  db: Database;
  log: JobLogger;
  /** @default 1000 */
  pollMs?: number;
  /** How long a claimed job is this worker's without a heartbeat. @default 30000 */
  leaseMs?: number;
  /** Time between heartbeats. @default a third of the lease */
  heartbeatMs?: number;
  /** Delay before the first retry, doubled at each further failure. @default 5000 */
  retryBaseMs?: number;
  /** @default 600000 (10 minutes) */
  retryMaxMs?: number;
  /** Jobs run side by side by this worker. @default 2 */
  concurrency?: number;
  /** How long a stop waits for the jobs in progress before handing them back. @default 5000 */
  stopGraceMs?: number;
  /** Called after each heartbeat with the jobs whose lease it renewed (tests wait on it). */
  onHeartbeat?: (jobIds: readonly string[]) => void;
}

/** The job is no longer this worker's: another took it over after its lease ran out. */
export class JobLeaseLost extends Error {
  constructor() {
    super('the job was taken over by another worker');
  }
}

/** Thrown by a handler that stops because its worker stops: the job is handed back, the attempt not counted. */
export class JobHandedBack extends Error {
  constructor() {
    super('the worker is stopping: the job is handed back');
  }
}

/** The reason stored for a failure that is not the service's own refusal. */
export const INTERNAL_FAILURE = 'Erreur interne du service (le détail est dans le journal du serveur) : réessayez, ou signalez-le si cela se reproduit.';

/** Delay before attempt `attempts + 1`: base, 2×base, 4×base… capped. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

export class JobWorker {
  readonly owner = `${process.pid}-${crypto.randomUUID()}`;
  private readonly handlers = new Map<string, { run: JobHandler } & JobKindOptions>();
  private readonly db: Database;
  private readonly log: JobLogger;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly concurrency: number;
  private readonly stopGraceMs: number;
  private readonly heartbeat: Heartbeat;
  /** Jobs in progress, with whether their lease was found lost. */
  private readonly inFlight = new Map<string, { lost: boolean; run: Promise<void> }>();
  private readonly loops = new Set<Promise<void>>();
  private state: 'idle' | 'running' | 'stopped' = 'idle';
  private timer: NodeJS.Timeout | null = null;
  private again = false;
  private readonly listeners = new Set<(event: { id: string; kind: string; outcome: Outcome }) => void>();

  constructor(options: JobWorkerOptions) {
    this.db = options.db;
    this.log = options.log;
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.retryBaseMs = options.retryBaseMs ?? 5000;
    this.retryMaxMs = options.retryMaxMs ?? 600_000;
    this.concurrency = options.concurrency ?? 2;
    this.stopGraceMs = options.stopGraceMs ?? 5000;
    this.heartbeat = new Heartbeat({
      intervalMs: options.heartbeatMs ?? Math.max(10, Math.floor(this.leaseMs / 3)),
      renew: (ids) => repo.renewLeases(this.db, ids, this.owner, this.leaseMs),
      lost: (id) => {
        const job = this.inFlight.get(id);
        if (job) job.lost = true;
        this.heartbeat.release(id);
      },
      failed: (error) => this.log.warn({ err: describe(error) }, 'jobs: heartbeat could not reach the database'),
      ...(options.onHeartbeat ? { beat: options.onHeartbeat } : {}),
    });
  }

  /** Names the handler of a kind; a worker claims only the kinds it knows. */
  define(kind: string, handler: JobHandler, options: JobKindOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} defined twice`);
    this.handlers.set(kind, { ...options, run: handler });
  }

  /** Called after each job's outcome (tests and the staff's page wait on events, not time). */
  onOutcome(listener: (event: { id: string; kind: string; outcome: Outcome }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.state === 'running') return;
    this.state = 'running';
    this.nudge();
  }

  /** Looks for work now rather than at the next poll (after a commit that queued a job). */
  nudge(): void {
    if (this.state !== 'running') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.loops.size >= this.concurrency) {
      this.again = true;
      return;
    }
    while (this.loops.size < this.concurrency) {
      const loop: Promise<void> = this.drain().finally(() => {
        this.loops.delete(loop);
        if (this.state !== 'running') return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else if (this.loops.size === 0) {
          this.timer = setTimeout(() => this.nudge(), this.pollMs);
          this.timer.unref();
        }
      });
      this.loops.add(loop);
    }
  }

  /** Runs due jobs in this process until none is left (the command line, tests); resolves with the count. */
  async runDue(): Promise<number> {
    let count = 0;
    while (await this.runOne()) count += 1;
    return count;
  }

  /**
   * Stops claiming and waits for the jobs in progress; those still running after the grace are
   * handed back (claimable at once, the attempt not counted) and cannot commit any more.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, this.stopGraceMs, 'late')));
    await Promise.race([Promise.all([...this.loops]), late]).finally(() => clearTimeout(timer));
    for (const [id, job] of this.inFlight) {
      job.lost = true;
      await repo
        .releaseJob(this.db, id, this.owner)
        .catch((error: unknown) => this.log.error({ job_id: id, err: describe(error) }, 'jobs: handing a job back failed'));
    }
    await this.heartbeat.stop();
  }

  private async drain(): Promise<void> {
    while (this.state === 'running' && (await this.runOne()));
  }

  /** Claims and runs one job; false when none was due (or the database could not be read). */
  private async runOne(): Promise<boolean> {
    let claimed: repo.ClaimedJob | undefined;
    try {
      claimed = await repo.claimJob(this.db, [...this.handlers.keys()], this.owner, this.leaseMs);
    } catch (error) {
      this.log.warn({ err: describe(error) }, 'jobs: cannot read the jobs table');
      return false;
    }
    if (!claimed) return false;
    if (this.state === 'stopped') {
      // A claim still in flight when the worker stopped: the job goes back untouched, at once.
      await repo
        .releaseJob(this.db, claimed.id, this.owner)
        .catch((error: unknown) => this.log.error({ job_id: claimed.id, err: describe(error) }, 'jobs: handing a job back failed'));
      return false;
    }
    const entry = { lost: false, run: Promise.resolve() };
    this.inFlight.set(claimed.id, entry);
    this.heartbeat.hold(claimed.id);
    entry.run = this.run(claimed, entry);
    try {
      await entry.run;
    } finally {
      this.heartbeat.release(claimed.id);
      this.inFlight.delete(claimed.id);
    }
    return true;
  }

  private async run(job: repo.ClaimedJob, entry: { lost: boolean }): Promise<void> {
    const context = { job_id: job.id, kind: job.kind, attempt: job.attempts };
    const kind = this.handlers.get(job.kind)!;
    if (job.attempts > job.max_attempts) {
      // Claimed again after its lease ran out, too often: the process running it dies on it.
      await this.settle(job, `Le travail a été interrompu ${job.attempts - 1} fois (arrêt du serveur) sans aboutir : relancez-le.`, null, job.attempts - 1);
      this.log.error(context, 'jobs: abandoned after repeated interruptions');
      return this.emit(job, 'failed');
    }
    this.log.info(context, 'jobs: started');
    let finished = false;
    const stopping = () => this.state === 'stopped';
    const running: RunningJob = {
      id: job.id,
      kind: job.kind,
      payload: job.payload,
      attempt: job.attempts,
      owner: this.owner,
      get stopping() {
        return stopping();
      },
      get lost() {
        return entry.lost;
      },
      done: async (trx) => {
        if (entry.lost || !(await repo.finishJob(trx, job.id, this.owner))) throw new JobLeaseLost();
        finished = true;
      },
    };
    try {
      await kind.run(running);
      if (!finished && !(await repo.finishJob(this.db, job.id, this.owner))) throw new JobLeaseLost();
      this.log.info(context, 'jobs: done');
      return this.emit(job, 'done');
    } catch (error) {
      if (error instanceof JobLeaseLost || entry.lost) {
        this.log.warn(context, 'jobs: lease lost, the result is not kept');
        return this.emit(job, 'lost');
      }
      if (error instanceof JobHandedBack) {
        await repo
          .releaseJob(this.db, job.id, this.owner)
          .catch((e: unknown) => this.log.error({ ...context, err: describe(e) }, 'jobs: handing a job back failed'));
        this.log.info(context, 'jobs: handed back (stopping)');
        return this.emit(job, 'handed_back');
      }
      const refusal = error instanceof AppError && error.status < 500;
      const reason = refusal ? (error.userMessage ?? error.code) : INTERNAL_FAILURE;
      const delay =
        refusal || kind.retryErrors === false || job.attempts >= job.max_attempts ? null : backoffMs(job.attempts, this.retryBaseMs, this.retryMaxMs);
      await this.settle(job, reason, delay);
      // A refusal is the service working as meant (staff read it on their page): a warning.
      if (delay === null && !refusal) this.log.error({ ...context, err: describe(error) }, 'jobs: failed for good');
      else if (delay === null) this.log.warn({ ...context, reason }, 'jobs: refused, failed for good');
      else this.log.warn({ ...context, err: describe(error), retryInMs: delay }, 'jobs: failed, will retry');
      return this.emit(job, delay === null ? 'failed' : 'retry');
    }
  }

  private async settle(job: repo.ClaimedJob, reason: string, delayMs: number | null, interrupted: number | null = null): Promise<void> {
    const failed = delayMs === null ? this.handlers.get(job.kind)?.failed : undefined;
    try {
      if (!failed) await repo.failAttempt(this.db, job.id, this.owner, reason, delayMs);
      else {
        await this.db.transaction().execute(async (trx) => {
          if (await repo.failAttempt(trx, job.id, this.owner, reason, null))
            await failed(trx, { id: job.id, kind: job.kind, payload: job.payload, reason, interrupted });
        });
      }
    } catch (error) {
      // Unrecorded: the lease runs out and the job is claimed again.
      this.log.error({ job_id: job.id, err: describe(error) }, 'jobs: cannot record the outcome');
    }
  }

  private emit(job: repo.ClaimedJob, outcome: Outcome): void {
    for (const listener of this.listeners) listener({ id: job.id, kind: job.kind, outcome });
  }
}

/** An error for the log: its class, code and message, never its stack's values. */
function describe(error: unknown): string {
  const e = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  const parts = [
    typeof e.name === 'string' ? e.name : 'Error',
    typeof e.code === 'string' ? e.code : '',
    typeof e.message === 'string' ? e.message : String(error),
  ];
  const text = parts.filter(Boolean).join(' ').replace(/\s+/g, ' ');
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
