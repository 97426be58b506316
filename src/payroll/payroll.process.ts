/**
 * One computing process of the payroll pool (`compute-pool.ts`): its own engine, with the
 * payslip's figures compiled into it (`compiledModel`), built at the first request, then payslips
 * computed one situation after another. A case the model cannot compute comes back as its reason,
 * never as a figure.
 */
import { serveAtIdlePriority } from '../workers/idle-processes.ts';
import { computePayslip, NotComputable, PAYSLIP_READS, type ComputedPayslip } from './compute.ts';
import { compiledModel, type PayrollModel } from './model.ts';
import type { Situation } from './situation.ts';

export type ComputeOutcome = { ok: true; payslip: ComputedPayslip } | { ok: false; message: string };

let model: PayrollModel | null = null;

export function computeMany(situations: Situation[]): ComputeOutcome[] {
  model ??= compiledModel(PAYSLIP_READS);
  const current = model;
  return situations.map((situation) => {
    try {
      return { ok: true, payslip: computePayslip(current, situation) };
    } catch (error) {
      const message =
        error instanceof NotComputable
          ? error.message
          : `Le modèle n\u2019a pas pu calculer ce bulletin : ${error instanceof Error ? (error.message.split('\n').find((l) => l.trim()) ?? '') : String(error)}`;
      return { ok: false, message };
    }
  });
}

serveAtIdlePriority({ computeMany });
