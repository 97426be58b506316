/** Every error of the contribution calls, with its status and French message. */
import { AppError } from '../http/errors.ts';

/** 'YYYY-MM-DD' as '26/11/2026'. */
const frenchDate = (iso: string) => iso.split('-').reverse().join('/');

export const contributionErrors = {
  totalTooLarge: () => new AppError(400, 'invalid_amount', "Le total de l'appel dépasse le montant le plus grand accepté (9 999 999 999,99 €)."),
  invalidStatus: () => new AppError(400, 'invalid_status', "Le statut (a_payer ou paye) n'est pas valide."),
  notFound: () => new AppError(404, 'not_found', 'Appel de cotisations introuvable.'),
  /** The organization has no `email_notifs` address: nobody to tell. */
  noRecipient: () =>
    new AppError(409, 'no_recipient', "L'organisation n'a aucune adresse de notification : ajoutez-en une sur sa fiche, puis notifiez l'appel."),
  /** A call is paid once; a paid call is not notified any more. */
  alreadyPaid: (paidDate: string | null) =>
    new AppError(
      409,
      'already_paid',
      paidDate ? `Cet appel de cotisations est déjà payé (le ${frenchDate(paidDate)}).` : 'Cet appel de cotisations est déjà payé.',
    ),
  /** The e-mail says which account to pay: without the operator's, a call is not sent. */
  operatorAccountMissing: () =>
    new AppError(
      409,
      'operator_account_missing',
      "Le compte bancaire de l'opérateur n'est pas configuré : l'e-mail ne pourrait pas dire où payer l'appel. Renseignez-le, puis notifiez l'appel.",
    ),
  paidDateInFuture: (today: string) =>
    new AppError(400, 'invalid_paid_date', `La date de paiement ne peut être dans le futur (au plus tard aujourd'hui, le ${frenchDate(today)}).`),
};
