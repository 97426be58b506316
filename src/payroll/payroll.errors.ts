/** Every error of the payroll run (PAYROLL 7), with its status and French message. */
import { AppError } from '../http/errors.ts';

export const payrollErrors = {
  runNotFound: () => new AppError(404, 'not_found', 'Calcul de paie introuvable.'),
  /** A draft's bulletin (PAYROLL 8): unknown, or no longer a draft (validated: its stored bulletin is the payslip's PDF). */
  draftNotFound: () => new AppError(404, 'not_found', 'Bulletin en brouillon introuvable : il a peut-être été validé ou recalculé.'),
  invalidPaymentDate: () => new AppError(400, 'invalid_payment_date', 'Date de paiement invalide : format AAAA-MM-JJ attendu (ex. 2027-01-29).'),
  /** A payment date before the period, or after the two months that follow it. */
  paymentDateOutOfRange: (first: string, last: string) =>
    new AppError(400, 'invalid_payment_date', `La date de paiement doit tomber entre le ${first} et le ${last} : dans la période ou les deux mois qui la suivent.`),
  invalidPayslipIds: () => new AppError(400, 'invalid_payslip_ids', 'payslip_ids doit être une liste d\u2019identifiants de bulletins (1 000 au plus).'),
  /** Validation: these payslips are not drafts of this organization and period; nothing changed. */
  notDraft: (payslipIds: string[]) =>
    new AppError(
      409,
      'payslip_not_draft',
      payslipIds.length === 0
        ? 'Aucun bulletin en brouillon pour cette organisation et cette période : lancez d\u2019abord le calcul.'
        : 'Ces bulletins ne sont pas des brouillons de cette organisation et de cette période : rien n\u2019a été validé.',
    ).withDetails({ payslip_ids: payslipIds }),
};

/** The French words of a skipped contract's reason (PAYROLL 7). */
export const SKIP_MESSAGES = {
  cdd_not_computed: 'CDD : les indemnités de fin de contrat demandent le contrat entier ; saisissez ce bulletin.',
  already_published: 'Un bulletin validé paie déjà ce contrat pour cette période : il est conservé.',
  no_date_in_period: 'Aucune date de ce contrat dans la période.',
  not_computable: 'Le modèle ne peut pas calculer ce contrat.',
} as const;
export type SkipReasonCode = keyof typeof SKIP_MESSAGES;
