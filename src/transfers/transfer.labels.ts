/** The transfers module's words, one wording for its pages and its exports. */
import type { TransferStatus } from '../db/schema.ts';

/** A transfer batch's status (and a payslip's transfer, which is its batch's). */
export const TRANSFER_STATUS_LABELS: Record<TransferStatus, string> = {
  genere: 'Généré',
  execute: 'Exécuté',
  annule: 'Annulé',
};
