/** Every error of the operator's settings, with its status and French message. */
import { AppError, fieldErrors } from '../http/errors.ts';

// A setting that breaks its rule answers its schema's error (src/schemas/operator.ts).
export const operatorErrors = {
  missingName: () => fieldErrors.missing('name', "Le nom de l'opérateur"),
  siretNotOfSiren: (siren: string) => new AppError(400, 'invalid_siret', `Le SIRET doit commencer par le SIREN (${siren}) : corrigez l'un ou l'autre.`),
};
