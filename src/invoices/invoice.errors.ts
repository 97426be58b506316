/** Every error of the invoices module, with its status and French message. */
import { orgErrors } from '../org/org.errors.ts';
import { AppError } from '../http/errors.ts';

/** '5.50' as '5,50'. */
const frenchRate = (rate: string) => rate.replace('.', ',');

/** 'YYYY-MM-DD' as '26/11/2026'. */
const frenchDate = (iso: string) => iso.split('-').reverse().join('/');

export const invoiceErrors = {
  /** Unknown, or of another organization: nobody learns that it exists. */
  notFound: () => new AppError(404, 'not_found', 'Facture introuvable.'),
  /** An organization of the bulk names nothing; nothing is created. */
  orgNotFound: (where: string) => orgErrors.orgInBodyNotFound(` (${where}) : aucune facture n'a été créée`),
  /** Further ahead than an invoice may be dated (README): a date in 2027 typed for 2026. */
  issueDateTooFar: (days: number, latest: string) =>
    new AppError(400, 'invalid_issue_date', `La date d'émission ne peut dépasser de plus de ${days} jours la date du jour (au plus le ${frenchDate(latest)}).`),
  /** French invoicing rules: the series is chronological; an invoice cannot be dated before the last one issued. */
  issueDateBeforeLast: (last: { number: string; issue_date: string }) =>
    new AppError(
      409,
      'issue_date_before_last',
      `Les factures sont émises dans l'ordre chronologique : la date d'émission ne peut précéder celle de la dernière facture émise (${last.number}, du ${frenchDate(last.issue_date)}).`,
    ).withDetails({ last_number: last.number, last_issue_date: last.issue_date }),
  dueBeforeIssue: () => new AppError(400, 'invalid_due_date', "L'échéance ne peut précéder la date d'émission."),
  totalTooLarge: (where: string) =>
    new AppError(400, 'invalid_amount', `Le total de la facture (${where}) dépasse le montant le plus grand accepté (9 999 999 999,99 €).`),
  /** The seller's identity is incomplete: no invoice document rather than an invalid one. */
  operatorIdentityMissing: (missing: readonly string[]) =>
    new AppError(
      409,
      'operator_identity_missing',
      `L'identité de l'opérateur est incomplète (${missing.join(', ')}) : la facture électronique ne peut pas être émise.`,
    ).withDetails({ missing: [...missing] }),
  /** A credit note credits an invoice, not another credit note. */
  notAnInvoice: () => new AppError(409, 'not_an_invoice', 'Un avoir porte sur une facture, pas sur un autre avoir.'),
  /** The credit notes of an invoice never credit more than its total. */
  creditExceedsInvoice: (number: string, remaining: string) =>
    new AppError(
      409,
      'credit_exceeds_invoice',
      `Le total des avoirs dépasserait celui de la facture ${number} : il reste au plus ${remaining} € TTC à créditer.`,
    ).withDetails({ invoice_number: number, remaining_ttc: remaining }),
  /** A credit note's line at a VAT rate the invoice does not have. */
  rateNotOnInvoice: (rate: string, rates: readonly string[]) =>
    new AppError(
      400,
      'invalid_vat_rate',
      `Le taux de TVA ${frenchRate(rate)} % n'est pas celui d'une ligne de la facture (${rates.map((r) => `${frenchRate(r)} %`).join(', ')}).`,
    ),
  /** A credit note of 0,00 € credits nothing, and would spend a number of the series. */
  emptyCreditNote: () => new AppError(400, 'invalid_lines', "L'avoir ne crédite rien (0,00 €) : indiquez les lignes à créditer."),
  /** The credit notes of an invoice never credit more at a rate than the invoice has at that rate. */
  creditExceedsRate: (rate: string, remainingHt: string) =>
    new AppError(
      400,
      'credit_exceeds_rate',
      `Les avoirs créditeraient plus que la facture au taux de ${frenchRate(rate)} % : il reste au plus ${remainingHt.replace('.', ',')} € HT à créditer à ce taux.`,
    ).withDetails({ vat_rate: rate, remaining_ht: remainingHt }),
  /** Its Factur-X documents are made by a job after it is issued: asked for before, they are not there yet. */
  documentPending: () => new AppError(409, 'document_pending', 'Le document de la facture est en préparation : il sera disponible dans un instant.'),
  /** Its job failed: staff see why on their page of failed jobs and can retry it. */
  documentFailed: () => new AppError(409, 'document_failed', "Le document de la facture n'a pas pu être produit : l'équipe en est informée et le relancera."),
  /** A field error located in the bulk: `invoices[12].lines[0]`. */
  at: (where: string, error: AppError) => new AppError(error.status, error.code, `${where} : ${error.userMessage ?? error.code}`),
};
