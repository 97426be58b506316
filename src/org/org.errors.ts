/** Errors of the organization layer: finding the organization a request acts on. */
import { AppError } from '../http/errors.ts';

export const orgErrors = {
  /** No organization resolves for the caller. */
  noActiveOrg: () => new AppError(400, 'no_active_org', 'Aucune organisation active trouvée'),
  /** An id that names no organization: 404 `not_found`, as every id naming nothing. */
  orgNotFound: () => new AppError(404, 'not_found', 'Organisation introuvable'),
  /**
   * An `org_id` in a body (a staff creation: payslip, contribution call, invoice) that names no
   * organization, or is not an id: 400 `org_not_found`, the one answer of every module.
   */
  orgInBodyNotFound: (detail = '') => new AppError(400, 'org_not_found', `Organisation introuvable${detail}.`),
};
