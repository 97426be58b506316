/** The payroll module's words, one wording for its bulletin, its pages and its e-mails. */
import { formatDateFr, formatEuros, ofFr } from '../format/french.ts';
import type { Money } from '../money/money.ts';
import type { Convention } from './situation.ts';

/** `convention`, as the bulletin names the collective agreement, with its IDCC (none: no agreement). */
export const CONVENTIONS: Record<Convention, { title: string; idcc: string | null }> = {
  SVP: { title: 'Entreprises du secteur privé du spectacle vivant', idcc: '3090' },
  droit_commun: { title: 'Aucune (droit commun du Code du travail)', idcc: null },
};

/** The bulletin's line naming the collective agreement. */
export const conventionLine = (convention: Convention) => {
  const { title, idcc } = CONVENTIONS[convention];
  return `Convention collective : ${title}${idcc ? ` (IDCC ${idcc})` : ''}`;
};

/**
 * The units a CDDU's dates are counted in on the bulletin: a performance or a rehearsal is paid
 * by the cachet, a technician's service by the service, hours by the hour.
 */
export const WORK_UNITS = {
  representation: ['cachet', 'cachets'],
  repetition: ['cachet', 'cachets'],
  service: ['service', 'services'],
  heures: ['heure', 'heures'],
} as const;

/** The mark across every page of a draft's bulletin. */
export const DRAFT_WATERMARK = 'BROUILLON';

export const cadreLabel = (cadre: boolean) => (cadre ? 'Cadre' : 'Non cadre');

/** The mention an intermittent's bulletin carries: their paid leave is the Caisse's. */
export const CONGES_SPECTACLES_MENTION = 'Congés payés : Caisse des Congés Spectacles';

/** The closing sentence every bulletin carries, word for word. */
export const KEEP_THIS_BULLETIN = 'Dans votre intérêt et pour vous aider à faire valoir vos droits, conservez ce bulletin de paie sans limitation de durée.';

/** A computed payslip's figures, as a refusal names the one at fault. */
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

/** A complementary payslip's title, on its bulletin and the pages. */
export const COMPLEMENT_TITLE = 'Bulletin complémentaire';

/** What a complementary bulletin says under its title: the original it completes, and what it pays. */
export function complementLine(period: string, original: { original_payment_date: string | null; original_net_to_pay: Money }): string {
  const paid = original.original_payment_date ? `, payé le ${formatDateFr(original.original_payment_date)}` : '';
  return `Complète le bulletin de paie ${ofFr(period)} déjà validé (net payé ${formatEuros(original.original_net_to_pay)}${paid}) : il paie la différence entre le mois recalculé après la modification du contrat et les bulletins déjà validés, ligne par ligne.`;
}
