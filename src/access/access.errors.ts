/**
 * The errors of the access API, with their status and French message.
 * Those it shares live with their layer: `orgErrors` (organization), `identityErrors` (e-mail).
 */
import { AppError } from '../http/errors.ts';

export const accessErrors = {
  invalidFirstName: () => new AppError(400, 'invalid_first_name', 'Le prénom contient des caractères non autorisés ou est trop long'),
  forbiddenRole: () => new AppError(403, 'forbidden_role', 'Le rôle SUPER_ADMIN ne peut être assigné'),
  protectedSuperAdmin: () =>
    new AppError(403, 'forbidden_role', "L'administrateur principal (SUPER_ADMIN) de l'organisation ne peut être ni modifié ni révoqué"),
  invalidRole: () => new AppError(400, 'invalid_role', 'Rôle inconnu : choisissez ADMIN, AGENT ou COMPTA'),
  memberNotFound: () => new AppError(404, 'not_found', 'Membre introuvable'),
  cannotRevokeSelf: () => new AppError(400, 'cannot_revoke_self', 'Vous ne pouvez pas révoquer votre propre accès'),
  cannotChangeOwnRole: () => new AppError(400, 'cannot_change_own_role', 'Vous ne pouvez pas modifier votre propre rôle'),
  alreadyActivated: () => new AppError(409, 'already_activated', 'Ce compte est déjà activé : aucune invitation à renvoyer'),
  memberRevoked: () => new AppError(409, 'member_revoked', "L'accès de ce membre est révoqué : ajoutez-le à nouveau pour l'inviter"),
  superAdminExists: () => new AppError(409, 'super_admin_exists', "L'organisation a déjà un administrateur principal (SUPER_ADMIN)"),
  databaseError: () => new AppError(500, 'database_error', 'Impossible de lire les membres'),
};
