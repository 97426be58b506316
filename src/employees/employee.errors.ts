/** Every error of the employees module (MODULES 1, 3), with its status and French message. */
import { AppError } from '../http/errors.ts';

export const employeeErrors = {
  /** MODULES 1: unknown, or of another organization. */
  notFound: () => new AppError(404, 'not_found', 'Salarié introuvable.'),
  invalidIban: () => new AppError(400, 'invalid_iban', "L'IBAN n'est pas valide (clé de contrôle, longueur ou pays)."),
  invalidBic: () => new AppError(400, 'invalid_bic', "Le BIC n'est pas valide (8 ou 11 caractères)."),
};
