/**
 * One thread of the payroll pool (`compute-pool.ts`): its own engine, with the payslip's figures
 * compiled into it (`compiledModel`), built once when the thread starts, then payslips computed
 * one situation after another. A case the model cannot compute comes back as its reason, never
 * as a figure.
 */
import { yieldTheCpu } from '../pdf/thread-priority.ts';
import { computePayslip, NotComputable, PAYSLIP_READS, type ComputedPayslip } from './compute.ts';
import { compiledModel } from './model.ts';
import type { Situation } from './situation.ts';

yieldTheCpu();
const model = compiledModel(PAYSLIP_READS);

export type ComputeOutcome = { ok: true; payslip: ComputedPayslip } | { ok: false; message: string };

export default function computeMany(situations: Situation[]): ComputeOutcome[] {
  return situations.map((situation) => {
    try {
      return { ok: true, payslip: computePayslip(model, situation) };
    } catch (error) {
      const message = error instanceof NotComputable ? error.message : `Le modèle n\u2019a pas pu calculer ce bulletin : ${error instanceof Error ? error.message.split('\n').find((l) => l.trim()) ?? '' : String(error)}`;
      return { ok: false, message };
    }
  });
}
