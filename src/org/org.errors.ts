/** Errors of the organization layer: finding the organization a request acts on (SPEC 4.3, 7). */
import { AppError } from '../http/errors.ts';

export const orgErrors = {
  /** SPEC 7: no organization resolves for the caller. */
  noActiveOrg: () => new AppError(400, 'no_active_org', 'Aucune organisation active trouvée'),
};
