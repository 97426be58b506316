/** Every error of the payroll run, with its status and French message. */
import { AppError } from '../http/errors.ts';

export const payrollErrors = {
  runNotFound: () => new AppError(404, 'not_found', 'Calcul de paie introuvable.'),
  /** A draft's bulletin: unknown, or no longer a draft (validated: its stored bulletin is the payslip's PDF). */
  draftNotFound: () => new AppError(404, 'not_found', 'Bulletin en brouillon introuvable : il a peut-être été validé ou recalculé.'),
  /** A payment date before the period, or after the two months that follow it. */
  paymentDateOutOfRange: (first: string, last: string) =>
    new AppError(
      400,
      'invalid_payment_date',
      `La date de paiement doit tomber entre le ${first} et le ${last} : dans la période ou les deux mois qui la suivent.`,
    ),
  /** Validation: these payslips are not drafts of this organization and period; nothing changed. */
  notDraft: (payslipIds: string[]) =>
    new AppError(
      409,
      'payslip_not_draft',
      payslipIds.length === 0
        ? 'Aucun bulletin en brouillon pour cette organisation et cette période : lancez d\u2019abord le calcul.'
        : 'Ces bulletins ne sont pas des brouillons de cette organisation et de cette période : rien n\u2019a été validé.',
    ).withDetails({ payslip_ids: payslipIds }),
  /**
   * Validation: these drafts no longer match their contract (cancelled, amended, its dates or its
   * employee changed since the computation), or were replaced by a new computation; nothing published.
   */
  stale: (drafts: { payslip_ids: string[]; contract_numbers: string[] }) =>
    new AppError(
      409,
      'payslip_stale',
      drafts.contract_numbers.length > 0
        ? `Ces brouillons ne correspondent plus à leur contrat (${drafts.contract_numbers.join(', ')}) : le contrat a changé depuis le calcul. Recalculez le mois : rien n\u2019a été validé.`
        : 'Ces brouillons ont été remplacés par un nouveau calcul du mois : vérifiez les nouveaux brouillons puis validez-les. Rien n\u2019a été validé.',
    ).withDetails(drafts),
};

/** The French words of a skipped contract's reason. */
export const SKIP_MESSAGES = {
  cdd_not_computed: 'CDD : les indemnités de fin de contrat demandent le contrat entier ; saisissez ce bulletin.',
  already_published: 'Un bulletin validé paie déjà ce contrat pour cette période, et rien n\u2019a changé depuis : il est conservé.',
  typed_published: 'Un bulletin saisi paie déjà ce contrat pour cette période : une modification du contrat se règle par un autre bulletin saisi.',
  complement_negative:
    'Le mois recalculé paie moins que les bulletins validés (des dates retirées, un prélèvement plus élevé) : aucun bulletin complémentaire négatif n\u2019est fait. Annulez le bulletin validé (hors lot de virements) puis recalculez le mois, ou saisissez la régularisation.',
  no_date_in_period: 'Aucune date de ce contrat dans la période.',
  not_computable: 'Le modèle ne peut pas calculer ce contrat.',
} as const;
export type SkipReasonCode = keyof typeof SKIP_MESSAGES;
