/** Every error of the contribution calls (MODULES 6), with its status and French message. */
import { AppError } from '../http/errors.ts';

export const contributionErrors = {
  /** The organization named by `org_id` does not exist (as for invoices: 400 `org_not_found`). */
  invalidPeriod: () => new AppError(400, 'invalid_period', 'Période invalide : format AAAA-MM attendu.'),
  invalidDate: () => new AppError(400, 'invalid_date', 'Date invalide : format AAAA-MM-JJ attendu.'),
  totalTooLarge: () => new AppError(400, 'invalid_amount', "Le total de l'appel dépasse le montant le plus grand accepté (9 999 999 999,99 €)."),
};
