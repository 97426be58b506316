/** Every error of the salary transfers module, with its status and French message. */
import { AppError } from '../http/errors.ts';

export const transferErrors = {
  /** Unknown, or of another organization. */
  notFound: () => new AppError(404, 'not_found', 'Lot de virements introuvable.'),
  mixedOrganizations: () => new AppError(400, 'mixed_organizations', "Un lot de virements ne concerne qu'une organisation : ces bulletins sont de plusieurs."),
  /** Nothing is created; the body names every payslip refused, unknown ids included. */
  unavailable: (payslipIds: string[]) =>
    new AppError(
      409,
      'payslip_unavailable',
      'Ces bulletins ne peuvent pas être payés par virement (inconnus, déjà dans un lot, annulés, sans IBAN valide, à zéro, ou organisation qui paie elle-même).',
    ).withDetails({
      payslip_ids: payslipIds,
    }),
  /** Payees whose name leaves nothing once written for a SEPA file: their employee's name must be corrected first. */
  creditorNameUnwritable: (rows: Array<{ payslip_id: string; employee_id: string }>) =>
    new AppError(
      409,
      'creditor_name_unwritable',
      'Le nom de ces salariés ne peut pas être écrit dans un fichier SEPA (aucune lettre ni aucun chiffre transcriptible en alphabet latin) : corrigez-le avant de créer le virement.',
    ).withDetails({ payslip_ids: rows.map((row) => row.payslip_id), employee_ids: [...new Set(rows.map((row) => row.employee_id))] }),
  /** A batch made before the cap holds a line that no SEPA file can carry. */
  amountAboveSepa: (payslipIds: string[]) =>
    new AppError(
      409,
      'transfer_amount_too_large',
      'Ce lot contient un virement de plus de 999 999 999,99 €, le plus grand montant qu\u2019un fichier SEPA accepte : annulez-le et corrigez ces bulletins.',
    ).withDetails({
      payslip_ids: payslipIds,
    }),
  totalTooLarge: () => new AppError(400, 'invalid_amount', 'Le total du lot dépasse le montant le plus grand accepté (9 999 999 999,99 €).'),
  executed: () => new AppError(409, 'transfer_executed', 'Ce lot de virements a déjà été exécuté.'),
  /** `POST …/executed` before the batch's execution date: the bank has not executed it yet. */
  executionDateInFuture: (dateFr: string) =>
    new AppError(400, 'execution_date_in_future', `Ce lot ne peut pas être marqué exécuté avant sa date d'exécution (${dateFr}).`),
  cancelled: () => new AppError(409, 'transfer_cancelled', 'Ce lot de virements est annulé.'),
  operatorAccountMissing: () =>
    new AppError(
      409,
      'operator_account_missing',
      "Le compte de l'opérateur (IBAN, BIC) n'est pas renseigné, ou n'est pas valide : complétez-le sur la page Opérateur.",
    ),
  /** A batch is executed only with the SEPA file the bank executed: `cause` says why there is none. */
  fileMissing: (cause: AppError) =>
    new AppError(
      409,
      'transfer_file_missing',
      `Ce lot n'a pas de fichier SEPA : il ne peut pas être marqué exécuté. ${cause.userMessage ?? ''}`.trim(),
    ).withDetails({
      reason: cause.code,
      ...cause.details,
    }),
  invalidStatus: () => new AppError(400, 'invalid_status', 'Le statut (genere, execute ou annule) n’est pas valide.'),
};
