/** The errors of the staff team's routes (SPEC 2.3, CONTRACT 5). */
import { AppError } from '../http/errors.ts';
import { accessErrors } from '../access/access.errors.ts';

export const staffErrors = {
  forbiddenLevel: () => new AppError(403, 'forbidden_role', 'Seul un SUPER_STAFF peut créer un compte SUPER_STAFF'),
  invalidLevel: () => new AppError(400, 'invalid_level', 'Niveau inconnu : choisissez STAFF ou SUPER_STAFF'),
  superStaffProtected: () => new AppError(403, 'forbidden_role', 'Un compte SUPER_STAFF ne peut pas être révoqué'),
  /** The same rule as for members, in the same words. */
  cannotRevokeSelf: accessErrors.cannotRevokeSelf,
  staffNotFound: () => new AppError(404, 'not_found', "Membre de l'équipe introuvable"),
};
