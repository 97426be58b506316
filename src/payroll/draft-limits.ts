/**
 * What a computed payslip must hold before the run stores it: every figure an amount that its
 * `numeric(12,2)` column takes (the rate a `numeric(7,4)`), a gross and a net to pay that are
 * not negative (the table's checks), and a net that one SEPA transfer can pay. Checked before
 * the insert, so that one contract's figures never abort the commit of the others' drafts.
 */
import { formatEuros } from '../format/french.ts';
import { compareMoney, isStorableMoney, MAX_PAYSLIP_AMOUNT, MONEY_MAX, type Money } from '../money/money.ts';
import type { ComputedPayslip } from './compute.ts';
import { FIGURE_LABELS } from './payroll.labels.ts';

const MONEY = /^-?\d+\.\d{2}$/;
/** `numeric(7,4)`: three integer digits, four decimals. */
const RATE = /^-?\d{1,3}(\.\d{1,4})?$/;

const euros = (value: Money) => formatEuros(value);

/**
 * Why this payslip cannot be stored or paid, in French (the figure at fault and its value),
 * or null when it can.
 */
export function unstorableReason(payslip: ComputedPayslip): string | null {
  for (const [key, label] of Object.entries(FIGURE_LABELS) as Array<[keyof typeof FIGURE_LABELS, string]>) {
    if (typeof payslip[key] !== 'string' || !MONEY.test(payslip[key])) return `le modèle n\u2019a pas donné de montant pour ${label}.`;
  }
  const amounts = payslip.lines.flatMap((line) => [line.base, line.employee_amount, line.employer_amount]);
  if (amounts.some((amount) => typeof amount !== 'string' || !MONEY.test(amount)))
    return 'le modèle n\u2019a pas donné de montant pour une ligne de cotisation.';
  if (payslip.gross.startsWith('-')) return `${FIGURE_LABELS.gross} calculé (${euros(payslip.gross)}) est négatif.`;
  if (payslip.gross === '0.00') return `${FIGURE_LABELS.gross} calculé est nul : il n\u2019y a rien à payer. Vérifiez les montants des dates.`;
  if (payslip.net_to_pay.startsWith('-')) {
    return `${FIGURE_LABELS.net_to_pay} calculé (${euros(payslip.net_to_pay)}) est négatif : cotisations et prélèvement à la source dépassent le brut de ${euros(payslip.gross)}. Vérifiez les montants des dates et le taux de prélèvement du salarié.`;
  }
  if (compareMoney(payslip.gross, MAX_PAYSLIP_AMOUNT) > 0)
    return `${FIGURE_LABELS.gross} (${euros(payslip.gross)}) dépasse ${euros(MAX_PAYSLIP_AMOUNT)}, le plus grand montant d\u2019un bulletin.`;
  if (compareMoney(payslip.net_to_pay, MAX_PAYSLIP_AMOUNT) > 0) {
    return `${FIGURE_LABELS.net_to_pay} calculé (${euros(payslip.net_to_pay)}) dépasse ${euros(MAX_PAYSLIP_AMOUNT)}, le plus grand montant d\u2019un virement SEPA.`;
  }
  for (const [key, label] of Object.entries(FIGURE_LABELS) as Array<[keyof typeof FIGURE_LABELS, string]>) {
    if (!isStorableMoney(payslip[key])) return `${label} calculé (${euros(payslip[key])}) dépasse le plus grand montant enregistrable (${euros(MONEY_MAX)}).`;
  }
  if (!amounts.every(isStorableMoney)) return `une ligne de cotisation dépasse le plus grand montant enregistrable (${euros(MONEY_MAX)}).`;
  if (!RATE.test(payslip.pas_rate)) return `le taux de prélèvement à la source calculé (${payslip.pas_rate} %) n\u2019est pas un taux.`;
  return null;
}
