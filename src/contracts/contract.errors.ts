/** Every error of the contracts module, with its status and French message. */
import { formatDateFr, formatEuros, formatPeriodFr, ofFr } from '../format/french.ts';
import type { Money } from '../money/money.ts';
import { AppError } from '../http/errors.ts';

/** The error with the input it is about (`field` in the body), when known. */
export function withField(error: AppError, field: string | undefined): AppError {
  return field === undefined ? error : error.withDetails({ ...error.details, field });
}

export const contractErrors = {
  /** Unknown, or of another organization: nobody learns that it exists. */
  notFound: () => new AppError(404, 'not_found', 'Contrat introuvable.'),
  /** The employee named by a contract is unknown in the organization. */
  /** `field`: the input refused (`start_date`, `from`, `dates[2].date`), in the body's `field`. */
  invalidDate: (field?: string) => withField(new AppError(400, 'invalid_date', 'Date invalide : format AAAA-MM-JJ, dans la période du contrat.'), field),
  /** A line's date outside the contract's period (the body names the line, `dates[2].date`). */
  dateOutsidePeriod: (field: string, date: string, period: { start_date: string; end_date: string | null }) =>
    withField(
      new AppError(
        400,
        'invalid_date',
        `La date ${date} est en dehors de la période du contrat (${period.end_date ? `du ${period.start_date} au ${period.end_date}` : `à partir du ${period.start_date}`}).`,
      ),
      field,
    ),
  totalTooLarge: () => new AppError(400, 'invalid_amount', 'Le total des dates dépasse le montant le plus grand accepté (9 999 999 999,99 €).'),
  /** A date's amount must pay something (the field names the line, `dates[2].amount`). */
  dateAmountZero: (date: string) => new AppError(400, 'invalid_amount', `Le montant du ${formatDateFr(date)} doit être supérieur à zéro.`),
  /** One amount (a date's, or a monthly salary) past what a payslip carries. */
  amountAbovePayslip: () =>
    new AppError(
      400,
      'invalid_amount',
      'Montant trop élevé : un bulletin de paie porte au plus 999 999 999,99 € (le plus grand montant d\u2019un virement SEPA).',
    ),
  /** The dates of one month add up past what its payslip carries. */
  monthAbovePayslip: (month: string, total: Money) =>
    withField(
      new AppError(
        400,
        'invalid_amount',
        `Les dates ${ofFr(formatPeriodFr(month))} totalisent ${formatEuros(total)} : le bulletin d\u2019un mois porte au plus 999 999 999,99 € (le plus grand montant d\u2019un virement SEPA).`,
      ),
      'dates',
    ),
  endDateOfCdi: () => new AppError(400, 'invalid_end_date', "Un CDI n'a pas de date de fin."),
  endBeforeStart: () => new AppError(400, 'invalid_end_date', 'La date de fin doit être égale ou postérieure à la date de début.'),
  monthlyGrossOfCddu: () => new AppError(400, 'invalid_monthly_gross', 'Un CDDU est rémunéré à la date : pas de salaire mensuel.'),
  /** A CDDU submitted for signature whose employee has no category (artiste, technicien): named, to be completed. */
  employeeCategoryMissing: (employee: { id: string; first_name: string; last_name: string }) =>
    new AppError(
      409,
      'employee_category_missing',
      `La catégorie ${ofFr(`${employee.first_name} ${employee.last_name}`)} (artiste ou technicien) n\u2019est pas renseignée : complétez sa fiche avant d\u2019envoyer ce CDDU à la signature (elle décide de ses cotisations).`,
    ).withDetails({ field: 'employee_id' }),
  locked: () => new AppError(409, 'contract_locked', 'Seul un contrat en brouillon peut être modifié.'),
  cancelled: () => new AppError(409, 'contract_cancelled', 'Ce contrat est annulé.'),
  signed: () => new AppError(409, 'contract_signed', 'Un contrat signé ne peut pas être annulé.'),
  noPdf: () => new AppError(404, 'no_pdf', "Aucun PDF n'a été généré ni déposé pour ce contrat."),
  /** An avenant extends the period (an earlier start, a later end), or it is not one. */
  periodNotExtended: () =>
    new AppError(400, 'period_not_extended', "L'avenant doit prolonger la période du contrat : une date de début plus tôt ou une date de fin plus tard."),
  noSignedPdf: () => new AppError(404, 'no_signed_pdf', "Ce contrat n'a pas de PDF signé."),
};
