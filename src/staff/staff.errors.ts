/** The errors of the staff team's routes. */
import { AppError } from '../http/errors.ts';
import { accessErrors } from '../access/access.errors.ts';

export const staffErrors = {
  forbiddenLevel: () => new AppError(403, 'forbidden_role', 'Seul un SUPER_STAFF peut créer un compte SUPER_STAFF'),
  invalidLevel: () => new AppError(400, 'invalid_level', 'Niveau inconnu : choisissez STAFF ou SUPER_STAFF'),
  superStaffProtected: () => new AppError(403, 'forbidden_role', 'Un compte SUPER_STAFF ne peut pas être révoqué'),
  /** The same rule as for members, in the same words. */
  cannotRevokeSelf: accessErrors.cannotRevokeSelf,
  staffNotFound: () => new AppError(404, 'not_found', "Membre de l'équipe introuvable"),
  invalidQuery: () => new AppError(400, 'invalid_q', 'La recherche contient des caractères non autorisés'),
  jobNotFound: () => new AppError(404, 'not_found', 'Travail introuvable.'),
  /** Only a failed job is retried: a pending or running one will run, a done one has run. */
  jobNotFailed: () =>
    new AppError(409, 'job_not_failed', "Ce travail n'est pas en échec (ou un autre travail identique est déjà en attente) : il n'y a rien à relancer."),
};
