/**
 * One computing process of the payroll pool (`compute-pool.ts`): its own engine, with the
 * payslip's figures compiled into it (`compiledModel`), built at the first request, then payslips
 * computed one situation after another. A case the model cannot compute comes back as its reason,
 * never as a figure.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import workerpool from 'workerpool';
import { computePayslip, NotComputable, PAYSLIP_READS, type ComputedPayslip } from './compute.ts';
import { compiledModel, type PayrollModel } from './model.ts';
import type { Situation } from './situation.ts';

export type ComputeOutcome = { ok: true; payslip: ComputedPayslip } | { ok: false; message: string };

const NICENESS = 10;

/**
 * The whole process at the lowest priority: SCHED_IDLE for every thread it has (util-linux's
 * `chrt --all-tasks`; V8's collector threads exist from the start, and the threads started later
 * inherit it), so that it gives up its core the moment the server or PostgreSQL wakes. Where
 * `chrt` cannot run, nice 10 for each thread (on Linux a thread's priority is its own).
 */
function yieldTheCpuWholly(): void {
  if (process.platform !== 'linux') return os.setPriority(NICENESS);
  try {
    execFileSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    for (const tid of fs.readdirSync('/proc/self/task')) os.setPriority(Number(tid), NICENESS);
  }
}

let model: PayrollModel | null = null;

export function computeMany(situations: Situation[]): ComputeOutcome[] {
  model ??= compiledModel(PAYSLIP_READS);
  const current = model;
  return situations.map((situation) => {
    try {
      return { ok: true, payslip: computePayslip(current, situation) };
    } catch (error) {
      const message = error instanceof NotComputable ? error.message : `Le modèle n\u2019a pas pu calculer ce bulletin : ${error instanceof Error ? error.message.split('\n').find((l) => l.trim()) ?? '' : String(error)}`;
      return { ok: false, message };
    }
  });
}

if (!workerpool.isMainThread) {
  yieldTheCpuWholly();
  workerpool.worker({ computeMany });
}
