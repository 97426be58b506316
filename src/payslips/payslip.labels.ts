/** The payslips module's words, one wording for its pages and its exports. */
import type { PayslipStatus } from '../db/schema.ts';

/** A payslip's status as the lists and the CSV show it (a draft is never listed there). */
export const PAYSLIP_STATUS_LABELS: Record<Exclude<PayslipStatus, 'brouillon'>, string> = {
  publie: 'Publié',
  annule: 'Annulé',
};
