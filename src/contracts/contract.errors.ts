/** Every error of the contracts module (MODULES 1, 4), with its status and French message. */
import { AppError } from '../http/errors.ts';

export const contractErrors = {
  /** MODULES 1: unknown, or of another organization: nobody learns that it exists. */
  notFound: () => new AppError(404, 'not_found', 'Contrat introuvable.'),
  /** The employee named by a contract is unknown in the organization. */
  invalidDate: () => new AppError(400, 'invalid_date', 'Date invalide : format AAAA-MM-JJ, dans la période du contrat.'),
  totalTooLarge: () => new AppError(400, 'invalid_amount', 'Le total des dates dépasse le montant le plus grand accepté (9 999 999 999,99 €).'),
  endDateOfCdi: () => new AppError(400, 'invalid_end_date', "Un CDI n'a pas de date de fin."),
  endBeforeStart: () => new AppError(400, 'invalid_end_date', 'La date de fin doit être égale ou postérieure à la date de début.'),
  monthlyGrossOfCddu: () => new AppError(400, 'invalid_monthly_gross', 'Un CDDU est rémunéré à la date : pas de salaire mensuel.'),
  locked: () => new AppError(409, 'contract_locked', 'Seul un contrat en brouillon peut être modifié.'),
  cancelled: () => new AppError(409, 'contract_cancelled', 'Ce contrat est annulé.'),
  signed: () => new AppError(409, 'contract_signed', 'Un contrat signé ne peut pas être annulé.'),
  noPdf: () => new AppError(404, 'no_pdf', "Aucun PDF n'a été généré ni déposé pour ce contrat."),
  /** Issue 36: an avenant extends the period (an earlier start, a later end), or it is not one. */
  periodNotExtended: () => new AppError(400, 'period_not_extended', "L'avenant doit prolonger la période du contrat : une date de début plus tôt ou une date de fin plus tard."),
  noSignedPdf: () => new AppError(404, 'no_signed_pdf', "Ce contrat n'a pas de PDF signé."),
};
