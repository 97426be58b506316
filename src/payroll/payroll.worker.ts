/**
 * One thread of the payroll pool (`compute-pool.ts`): its own engine, built once when the
 * thread starts, then payslips computed one situation after another. A case the model cannot
 * compute comes back as its reason, never as a figure.
 */
import { yieldTheCpu } from '../pdf/thread-priority.ts';
import { computePayslip, NotComputable, type ComputedPayslip } from './compute.ts';
import { buildEngine } from './model.ts';
import type { Situation } from './situation.ts';

yieldTheCpu();
const engine = buildEngine();

export type ComputeOutcome = { ok: true; payslip: ComputedPayslip } | { ok: false; message: string };

export default function computeMany(situations: Situation[]): ComputeOutcome[] {
  return situations.map((situation) => {
    try {
      return { ok: true, payslip: computePayslip(engine, situation) };
    } catch (error) {
      const message = error instanceof NotComputable ? error.message : `Le modèle n\u2019a pas pu calculer ce bulletin : ${error instanceof Error ? error.message.split('\n').find((l) => l.trim()) ?? '' : String(error)}`;
      return { ok: false, message };
    }
  });
}
