/** Every error of the operator's settings, with its status and French message. */
import { AppError, fieldErrors } from '../http/errors.ts';
import type { OperatorField } from '../operator.rules.ts';

/** How each setting is named, and what it must be, in a refusal. */
const LABELS: Record<OperatorField, string> = {
  name: 'Le nom (200 caractères au plus)',
  siren: 'Le SIREN (9 chiffres)',
  siret: 'Le SIRET (14 chiffres)',
  vat: 'Le numéro de TVA intracommunautaire (deux lettres, puis 2 à 13 lettres ou chiffres)',
  address: "L'adresse (200 caractères au plus)",
  postcode: 'Le code postal (cinq chiffres)',
  city: 'La ville (200 caractères au plus)',
  iban: "L'IBAN",
  bic: 'Le BIC (8 ou 11 caractères)',
};

export const operatorErrors = {
  invalid: (field: OperatorField) => fieldErrors.invalid(field, LABELS[field]),
  missingName: () => fieldErrors.missing('name', "Le nom de l'opérateur"),
  siretNotOfSiren: (siren: string) =>
    new AppError(400, 'invalid_siret', `Le SIRET doit commencer par le SIREN (${siren}) : corrigez l'un ou l'autre.`),
};
