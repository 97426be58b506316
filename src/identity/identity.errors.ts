/** Errors of identity: sign-in links, sessions, e-mail addresses. */
import { AppError } from '../http/errors.ts';

export const identityErrors = {
  invalidToken: () => new AppError(401, 'invalid_token', 'Ce lien est invalide, expiré ou déjà utilisé. Demandez un nouveau lien.'),
  crossSiteRequest: () => new AppError(403, 'cross_site_request', 'Requête refusée : elle ne vient pas de ce site.'),
  missingEmail: () => new AppError(400, 'missing_email', "L'email est requis"),
  invalidEmail: () => new AppError(400, 'invalid_email', "L'adresse e-mail n'est pas valide"),
};
