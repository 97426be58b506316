/** Every error of the payslips module, with its status and French message. */
import { AppError } from '../http/errors.ts';
import { fieldRefusal } from '../schemas/fields.ts';
import { PayslipContractId } from '../schemas/payslips.ts';

export const payslipErrors = {
  /** Unknown, or of another organization: nobody learns that it exists. */
  notFound: () => new AppError(404, 'not_found', 'Bulletin de paie introuvable.'),
  /** The staff's payslip export is a month's. */
  missingPeriod: () => new AppError(400, 'missing_period', 'La période est obligatoire : le mois à exporter, au format AAAA-MM (ex. 2027-01).'),
  /** A contract that is not the employee's answers as an id that is none (`PayslipBody`). */
  invalidContractIds: () => fieldRefusal(PayslipContractId),
  /** The SEPA file takes at most 999 999 999,99 € per transfer. */
  amountTooLarge: () => new AppError(400, 'invalid_amount', 'Montant invalide : 999 999 999,99 € au plus par bulletin.'),
  /** A payslip never pays more than the salary it is for. */
  netAboveGross: () => new AppError(400, 'invalid_net_to_pay', 'Le net à payer ne peut pas dépasser le salaire brut.'),
  /** One live payslip per employee, period and contracts; the body names it. */
  exists: (payslipId: string) =>
    new AppError(
      409,
      'payslip_exists',
      'Un bulletin de paie non annulé existe déjà pour ce salarié, cette période et ces contrats : annulez-le avant d’en publier un autre.',
    ).withDetails({
      payslip_id: payslipId,
    }),
  cancelled: () => new AppError(409, 'payslip_cancelled', 'Ce bulletin de paie est déjà annulé.'),
  /** A batch that is not cancelled holds it: cancel the batch first (it may be paid). */
  inTransfer: (transferId: string) =>
    new AppError(409, 'payslip_in_transfer', 'Ce bulletin est dans un lot de virements non annulé : annulez d’abord le lot.').withDetails({
      transfer_id: transferId,
    }),
  /** A draft is recomputed or replaced by a new computation, never cancelled (the organization would see it). */
  draftNotCancellable: () =>
    new AppError(
      409,
      'payslip_is_draft',
      'Ce bulletin est un brouillon : il ne s\u2019annule pas. Recalculez le mois (Calcul de la paie) pour le remplacer, ou validez-le.',
    ),
  /** A draft's bulletin is computed: a PDF attached to it would become the published bulletin. */
  draftNoPdf: () =>
    new AppError(
      409,
      'payslip_is_draft',
      'Ce bulletin est un brouillon : son bulletin est calculé par le service, aucun PDF ne s\u2019y joint. Validez-le ou recalculez le mois.',
    ),
  /** The original of a live complementary payslip: cancelling it would leave the complement alone. */
  hasComplement: (payslipId: string) =>
    new AppError(
      409,
      'payslip_has_complement',
      'Un bulletin complémentaire complète ce bulletin : annulez d\u2019abord le bulletin complémentaire.',
    ).withDetails({ payslip_id: payslipId }),
  noPdf: () => new AppError(404, 'no_pdf', "Aucun PDF n'a été déposé pour ce bulletin."),
  /** A computed bulletin is rendered by a job after its validation: asked for before, it is not there yet. */
  bulletinPending: () => new AppError(409, 'document_pending', 'Le bulletin est en préparation : il sera disponible dans un instant.'),
  /** Its job failed: staff see why on their page of failed jobs and can retry it. */
  bulletinFailed: () => new AppError(409, 'document_failed', "Le bulletin n'a pas pu être produit : l'équipe de paie en est informée et le relancera."),
};
