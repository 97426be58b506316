/** Every error of the invoices module (MODULES 1, 6), with its status and French message. */
import { AppError } from '../http/errors.ts';

export const invoiceErrors = {
  /** MODULES 1: unknown, or of another organization: nobody learns that it exists. */
  notFound: () => new AppError(404, 'not_found', 'Facture introuvable.'),
  /** MODULES 6: an organization of the bulk names nothing; nothing is created. */
  orgNotFound: (where: string) => new AppError(400, 'org_not_found', `Organisation introuvable (${where}) : aucune facture n'a été créée.`),
  invalidDate: () => new AppError(400, 'invalid_date', 'Date invalide : format AAAA-MM-JJ attendu.'),
  dueBeforeIssue: () => new AppError(400, 'invalid_due_date', "L'échéance ne peut précéder la date d'émission."),
  tooMany: (max: number) => new AppError(400, 'invalid_invoices', `De 1 à ${max.toLocaleString('fr-FR').replace(/\s/g, '\u00a0')} factures par envoi.`),
  tooManyIds: (max: number) => new AppError(400, 'invalid_invoice_ids', `De 1 à ${max.toLocaleString('fr-FR').replace(/\s/g, '\u00a0')} factures par envoi.`),
  totalTooLarge: (where: string) => new AppError(400, 'invalid_amount', `Le total de la facture (${where}) dépasse le montant le plus grand accepté (9 999 999 999,99 €).`),
  /** A field error located in the bulk: `invoices[12].lines[0]`. */
  at: (where: string, error: AppError) => new AppError(error.status, error.code, `${where} : ${error.userMessage ?? error.code}`),
};
