/**
 * The payroll computation off the event loop (PAYROLL 7): computing processes (workerpool), one
 * per core, each with its own engine, started with the first run and stopped after a minute
 * without work.
 *
 * Processes rather than worker threads, for the garbage collector. A payslip allocates tens of
 * megabytes; in threads, their collection ran on V8's helper threads, which are the whole
 * process's and at normal priority beside the event loop: with two threads computing they spent
 * about half a core, and `GET /api/access` waited for a core behind them (p99 during a run 0.38 of
 * its idle p99; bench/README.md, issue 38). A computing process lowers itself as a whole, its
 * collector's threads included (`payroll.process.ts`), so it takes only the CPU nothing else wants.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import type { Situation } from './situation.ts';
import type { ComputeOutcome } from './payroll.process.ts';

/**
 * A payslip's garbage dies young: in V8's default young generation (16 MB semi-spaces) it was
 * collected several times a payslip and what survived was promoted and marked again. 64 MB
 * semi-spaces (a 192 MB young generation): 300 payslips in 15.6 s instead of 20.6 (issue 38).
 */
const COMPUTER_V8_FLAGS = ['--max-semi-space-size=64', '--max-old-space-size=512'];
const IDLE_TIMEOUT_MS = 60_000;

const fromSource = import.meta.url.endsWith('.ts');
const COMPUTER = fileURLToPath(new URL(fromSource ? './payroll.process.ts' : './payroll.process.js', import.meta.url));

export const PAYROLL_PROCESSES = os.availableParallelism();

let pool: workerpool.Pool | null = null;
let idleTimer: NodeJS.Timeout | null = null;

function computers(): workerpool.Pool {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  pool ??= workerpool.pool(COMPUTER, {
    workerType: 'process',
    minWorkers: 0,
    maxWorkers: PAYROLL_PROCESSES,
    forkOpts: { execArgv: [...COMPUTER_V8_FLAGS, ...(fromSource ? ['--import', 'tsx'] : [])] },
  });
  return pool;
}

/** A minute without work stops the processes (their engines hold a few hundred MB). */
function stopWhenIdle(current: workerpool.Pool): void {
  const { activeTasks, pendingTasks } = current.stats();
  if (activeTasks + pendingTasks > 0 || current !== pool) return;
  idleTimer = setTimeout(() => {
    if (pool === current) void closePayrollPool();
  }, IDLE_TIMEOUT_MS);
  idleTimer.unref();
}

/**
 * The payslips of these situations, in order, computed by a computing process. A process that
 * dies fails the chunk it held (the run is retried as any failed attempt); the next chunk gets a
 * new process.
 */
export async function computeInPool(situations: Situation[]): Promise<ComputeOutcome[]> {
  const current = computers();
  try {
    return await current.exec('computeMany', [situations]);
  } finally {
    stopWhenIdle(current);
  }
}

export async function closePayrollPool(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const current = pool;
  pool = null;
  await current?.terminate();
}
