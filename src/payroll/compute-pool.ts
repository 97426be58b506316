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
    resourceLimits: { maxOldGenerationSizeMb: 512 },
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
