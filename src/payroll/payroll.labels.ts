/** The payroll module's words, one wording for its bulletin, its pages and its e-mails. */
import type { Convention, EmployeeCategory } from './situation.ts';

/** PAYROLL 2 `convention`, as the bulletin names the collective agreement. */
export const CONVENTION_LABELS: Record<Convention, string> = {
  SVP: 'Spectacle vivant privé (IDCC 3090)',
  droit_commun: 'Droit commun',
};

/**
 * MODULES 3 `category`. The same words as the contract PDF's (contract.pdf.ts keeps its own
 * private copy: no module exports them yet).
 */
export const EMPLOYEE_CATEGORY_LABELS: Record<EmployeeCategory, string> = {
  artiste: 'Artiste',
  technicien: 'Technicien',
  permanent: 'Personnel permanent',
};

export const cadreLabel = (cadre: boolean) => (cadre ? 'Cadre' : 'Non cadre');

/** The mention an intermittent's bulletin carries (PAYROLL 5): their paid leave is the Caisse's. */
export const CONGES_SPECTACLES_MENTION = 'Congés payés : Caisse des Congés Spectacles';

/** The closing sentence every bulletin carries (PAYROLL 5), word for word. */
export const KEEP_THIS_BULLETIN =
  'Dans votre intérêt et pour vous aider à faire valoir vos droits, conservez ce bulletin de paie sans limitation de durée.';

/** A computed payslip's figures (PAYROLL 4), as a refusal names the one at fault. */
export const FIGURE_LABELS = {
  gross: 'le salaire brut',
  employee_contributions: 'le total des cotisations salariales',
  employer_contributions: 'le total des cotisations patronales',
  net_before_tax: 'le net à payer avant impôt',
  net_taxable: 'le net imposable',
  net_social: 'le montant net social',
  pas_amount: 'le prélèvement à la source',
  net_to_pay: 'le net à payer',
  employer_cost: 'le coût employeur',
} as const;
