/** Every error of the employees module, with its status and French message. */
import { AppError } from '../http/errors.ts';
import { DRAWABLE_SCRIPTS } from '../pdf/fonts.ts';

export const employeeErrors = {
  /** Unknown, or of another organization. */
  notFound: () => new AppError(404, 'not_found', 'Salarié introuvable.'),
  /** An `employee_id` in another module's body (a contract, a payslip) that names none of the organization's employees. */
  unknownEmployee: () => new AppError(400, 'invalid_employee_id', 'Salarié introuvable dans cette organisation.'),
  invalidIban: () => new AppError(400, 'invalid_iban', "L'IBAN n'est pas valide (clé de contrôle, longueur ou pays)."),
  /** A valid IBAN outside the SEPA zone: a SEPA salary transfer cannot pay it. */
  ibanOutsideSepa: (country: string) =>
    new AppError(
      400,
      'invalid_iban',
      `Cet IBAN (${country}) n'est pas dans la zone SEPA : les salaires sont payés par virement SEPA, il faut un compte d'un pays de la zone (France, Union européenne, Royaume-Uni, Suisse, Norvège…).`,
    ),
  /** A name with nothing a bank file can write (no letter nor digit once transliterated). */
  unwritableName: (field: 'first_name' | 'last_name', label: string) =>
    new AppError(
      400,
      `invalid_${field}`,
      `${label} doit contenir au moins une lettre ou un chiffre transcriptible en alphabet latin (il figure sur les virements bancaires).`,
    ),
  /** `max`: the highest rate accepted, `"43.00"` (`highestPasRate`). */
  invalidPasRate: (max: string) =>
    new AppError(
      400,
      'invalid_pas_rate',
      `Le taux personnalisé de prélèvement à la source (pas_rate) doit être un pourcentage de 0 à ${max.replace(/\.00$/, '').replace('.', ',')} (le taux le plus haut de la grille du taux neutre), deux décimales au plus.`,
    ).withDetails({ field: 'pas_rate' }),
  /** A name with a character no font of the PDFs (contracts, bulletins) can draw. */
  undrawableName: (field: 'first_name' | 'last_name', label: string) =>
    new AppError(
      400,
      `invalid_${field}`,
      `${label} contient un caractère que les contrats et bulletins de paie ne savent pas imprimer (écritures acceptées : ${DRAWABLE_SCRIPTS}).`,
    ),
  invalidBic: () => new AppError(400, 'invalid_bic', "Le BIC n'est pas valide (8 ou 11 caractères)."),
};
