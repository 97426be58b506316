/** Every error of the payslips module (MODULES 1, 5), with its status and French message. */
import { AppError } from '../http/errors.ts';

export const payslipErrors = {
  /** MODULES 1: unknown, or of another organization: nobody learns that it exists. */
  notFound: () => new AppError(404, 'not_found', 'Bulletin de paie introuvable.'),
  unknownOrg: () => new AppError(400, 'invalid_org_id', 'Organisation introuvable.'),
  unknownEmployee: () => new AppError(400, 'invalid_employee_id', 'Salarié introuvable dans cette organisation.'),
  invalidPeriod: () => new AppError(400, 'invalid_period', 'Période invalide : format AAAA-MM attendu (ex. 2027-01).'),
  invalidContractIds: () =>
    new AppError(400, 'invalid_contract_ids', 'contract_ids doit être une liste de contrats de ce salarié, dans cette organisation.'),
  /** The SEPA file takes at most 999 999 999,99 € per transfer. */
  amountTooLarge: () => new AppError(400, 'invalid_amount', 'Montant invalide : 999 999 999,99 € au plus par bulletin.'),
  noPdf: () => new AppError(404, 'no_pdf', "Aucun PDF n'a été déposé pour ce bulletin."),
};
