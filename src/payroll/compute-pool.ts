/**
 * The payroll computation off the event loop (PAYROLL 7): a pool of worker threads, one per
 * core, each with its own engine, at the lower priority the PDF threads have (the event loop
 * keeps its latency while every core computes). Threads start with the first run and stop
 * after a minute without work.
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import type { Situation } from './situation.ts';
import type { ComputeOutcome } from './payroll.worker.ts';

/**
 * A payslip allocates tens of megabytes the engine drops at the next situation. In V8's default
 * young generation (16 MB semi-spaces) they were collected several times a payslip, and what
 * survived was promoted and marked again: the collector's helper threads, at normal priority
 * beside the event loop, spent about half a core for two computing threads. With 192 MB, 300
 * payslips took 15.6 s instead of 20.6 s and the helpers 8 s of CPU instead of 14.5
 * (bench/README.md, issue 38).
 */
const COMPUTE_THREAD_LIMITS = { maxYoungGenerationSizeMb: 192, maxOldGenerationSizeMb: 512 };

const fromSource = import.meta.url.endsWith('.ts');
const WORKER = new URL(fromSource ? './payroll.worker.ts' : './payroll.worker.js', import.meta.url);
const hasTsx = process.execArgv.some((arg, i, all) => /^--(import|loader)=?tsx/.test(arg) || (arg === '--import' && all[i + 1] === 'tsx'));

export const PAYROLL_THREADS = os.availableParallelism();

let pool: Piscina | null = null;

function computers(): Piscina {
  pool ??= new Piscina({
    filename: WORKER.href,
    minThreads: 0,
    maxThreads: PAYROLL_THREADS,
    idleTimeout: 60_000,
    resourceLimits: COMPUTE_THREAD_LIMITS,
    execArgv: fromSource && !hasTsx ? ['--import', 'tsx'] : undefined,
  });
  return pool;
}

/** The payslips of these situations, in order, computed by the pool. */
export function computeInPool(situations: Situation[]): Promise<ComputeOutcome[]> {
  return computers().run(situations);
}

export async function closePayrollPool(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.destroy();
}
