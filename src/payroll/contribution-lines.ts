/**
 * A bulletin's lines and who collects each: the model's contributions, under the
 * "bulletin clarifié" headings, with their organism (one of the contributions module's
 * `ORGANISMS`). test/payroll checks that every rule named here exists in the pinned model
 * and that the lines add up to the model's own totals, so that a contribution the model adds
 * in a new version cannot be left off silently.
 */

import type { Organism } from '../contributions/contribution.labels.ts';

export type { Organism };

export const HEADINGS = [
  'Santé',
  'Accidents du travail – maladies professionnelles',
  'Retraite',
  'Famille',
  'Assurance chômage',
  'Autres contributions dues par l\u2019employeur',
  'Cotisations statutaires ou prévues par la convention collective',
  'CSG non imposable à l\u2019impôt sur le revenu',
  'CSG/CRDS imposable à l\u2019impôt sur le revenu',
  'Exonérations et allègements',
] as const;
export type Heading = (typeof HEADINGS)[number];

export interface LineRule {
  /** The model's rule name: the line's `code`. */
  code: string;
  label: string;
  heading: Heading;
  /** Who collects it; `intermittent` when an intermittent's goes elsewhere. */
  organism: Organism;
  intermittentOrganism?: Organism;
  /** The model's rules of the employee's and the employer's shares (absent: none). */
  employee?: string;
  employer?: string;
  /** The model's rules of the rates, where the model has one. */
  employeeRate?: string;
  employerRate?: string;
  /** The model's rule of the base; the contributions' base (`cotisations . assiette`) by default. */
  base?: string;
}

const C = 'salarié . cotisations';
const SVP = 'salarié . convention collective . SVP';
const INTERMITTENT = 'salarié . régimes spécifiques . intermittents du spectacle';

export const BASE = `${C} . assiette`;

export const LINE_RULES: readonly LineRule[] = [
  {
    code: `${C} . maladie`,
    label: 'Sécurité sociale – maladie, maternité, invalidité, décès',
    heading: 'Santé',
    organism: 'URSSAF',
    employee: `${C} . maladie . salarié`,
    employer: `${C} . maladie . employeur`,
    employeeRate: `${C} . maladie . salarié . taux`,
    employerRate: `${C} . maladie . employeur . taux`,
  },
  {
    code: `${C} . prévoyances . santé`,
    label: 'Complémentaire santé',
    heading: 'Santé',
    organism: 'AUDIENS',
    employee: `${C} . prévoyances . santé . salarié`,
    employer: `${C} . prévoyances . santé . employeur`,
  },
  {
    code: `${C} . prévoyances . incapacité invalidité décès`,
    label: 'Complémentaire incapacité, invalidité, décès',
    heading: 'Santé',
    organism: 'AUDIENS',
    employee: `${C} . prévoyances . incapacité invalidité décès . salarié`,
    employer: `${C} . prévoyances . incapacité invalidité décès . employeur`,
  },
  {
    code: `${C} . ATMP`,
    label: 'Accidents du travail – maladies professionnelles',
    heading: 'Accidents du travail – maladies professionnelles',
    organism: 'URSSAF',
    employer: `${C} . ATMP`,
    employerRate: `${C} . ATMP . taux`,
  },
  {
    code: `${C} . vieillesse . plafonnée`,
    label: 'Sécurité sociale plafonnée',
    heading: 'Retraite',
    organism: 'URSSAF',
    employee: `${C} . vieillesse . salarié . plafonnée`,
    employer: `${C} . vieillesse . employeur . plafonnée`,
    employeeRate: `${C} . vieillesse . salarié . plafonnée . taux`,
    employerRate: `${C} . vieillesse . employeur . plafonnée . taux`,
  },
  {
    code: `${C} . vieillesse . déplafonnée`,
    label: 'Sécurité sociale déplafonnée',
    heading: 'Retraite',
    organism: 'URSSAF',
    employee: `${C} . vieillesse . salarié . déplafonnée`,
    employer: `${C} . vieillesse . employeur . déplafonnée`,
    employeeRate: `${C} . vieillesse . salarié . déplafonnée . taux`,
    employerRate: `${C} . vieillesse . employeur . déplafonnée . taux`,
  },
  {
    code: `${C} . retraite complémentaire`,
    label: 'Complémentaire tranches 1 et 2',
    heading: 'Retraite',
    organism: 'AUDIENS',
    employee: `${C} . retraite complémentaire . salarié`,
    employer: `${C} . retraite complémentaire . employeur`,
  },
  {
    code: `${C} . CEG`,
    label: 'Contribution d\u2019équilibre général (CEG)',
    heading: 'Retraite',
    organism: 'AUDIENS',
    employee: `${C} . CEG . salarié`,
    employer: `${C} . CEG . employeur`,
  },
  {
    code: `${C} . CET`,
    label: 'Contribution d\u2019équilibre technique (CET)',
    heading: 'Retraite',
    organism: 'AUDIENS',
    employee: `${C} . CET . salarié`,
    employer: `${C} . CET . employeur`,
    employerRate: `${C} . CET . employeur . taux`,
  },
  {
    code: `${C} . allocations familiales`,
    label: 'Allocations familiales',
    heading: 'Famille',
    organism: 'URSSAF',
    employer: `${C} . allocations familiales`,
    employerRate: `${C} . allocations familiales . taux`,
  },
  {
    code: `${C} . chômage`,
    label: 'Chômage',
    heading: 'Assurance chômage',
    organism: 'URSSAF',
    intermittentOrganism: 'FRANCE_TRAVAIL',
    employer: `${C} . chômage`,
    employerRate: `${C} . chômage . taux`,
  },
  {
    code: `${INTERMITTENT} . chômage spécifique`,
    label: 'Contribution spécifique des intermittents (annexes VIII et X)',
    heading: 'Assurance chômage',
    organism: 'FRANCE_TRAVAIL',
    employee: `${INTERMITTENT} . chômage spécifique . salarié`,
    employer: `${INTERMITTENT} . chômage spécifique . employeur`,
    employeeRate: `${INTERMITTENT} . chômage spécifique . salarié . taux`,
    employerRate: `${INTERMITTENT} . chômage spécifique . employeur . taux`,
    base: `${INTERMITTENT} . chômage spécifique . assiette`,
  },
  {
    code: `${C} . AGS`,
    label: 'Garantie des salaires (AGS)',
    heading: 'Assurance chômage',
    organism: 'URSSAF',
    intermittentOrganism: 'FRANCE_TRAVAIL',
    employer: `${C} . AGS`,
    employerRate: `${C} . AGS . taux`,
  },
  {
    code: `${C} . APEC`,
    label: 'Apec',
    heading: 'Assurance chômage',
    organism: 'AUDIENS',
    employee: `${C} . APEC . salarié`,
    employer: `${C} . APEC . employeur`,
  },
  {
    code: `${C} . versement mobilité`,
    label: 'Versement mobilité',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . versement mobilité`,
  },
  {
    code: `${C} . FNAL`,
    label: 'Fonds national d\u2019aide au logement (FNAL)',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . FNAL`,
    employerRate: `${C} . FNAL . taux`,
  },
  {
    code: `${C} . CSA`,
    label: 'Contribution solidarité autonomie',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . CSA`,
    employerRate: `${C} . CSA . taux`,
  },
  {
    code: `${C} . forfait social`,
    label: 'Forfait social',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . forfait social`,
  },
  {
    code: `${C} . taxe d'apprentissage`,
    label: 'Taxe d\u2019apprentissage',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . taxe d'apprentissage`,
  },
  // The model's rate is inline; an intermittent's 2 % is a rule of the overlay (none otherwise).
  {
    code: `${C} . formation professionnelle`,
    label: 'Formation professionnelle',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . formation professionnelle`,
    employerRate: `${INTERMITTENT} . formation professionnelle . taux`,
  },
  {
    code: `${INTERMITTENT} . formation professionnelle conventionnelle`,
    label: 'Formation professionnelle des intermittents (conventionnelle)',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'AFDAS',
    employer: `${INTERMITTENT} . formation professionnelle conventionnelle`,
    employerRate: `${INTERMITTENT} . formation professionnelle conventionnelle . taux`,
  },
  {
    code: `${C} . CPF CDD`,
    label: 'Contribution CPF des CDD',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . CPF CDD`,
  },
  {
    code: `${C} . PEEC`,
    label: 'Participation à l\u2019effort de construction',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . PEEC`,
  },
  {
    code: `${C} . contribution au dialogue social`,
    label: 'Contribution au dialogue social',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'URSSAF',
    employer: `${C} . contribution au dialogue social`,
  },
  {
    code: `${INTERMITTENT} . caisse des congés spectacle`,
    label: 'Caisse des Congés Spectacles',
    heading: 'Autres contributions dues par l\u2019employeur',
    organism: 'CONGES_SPECTACLES',
    employer: `${INTERMITTENT} . caisse des congés spectacle`,
    employerRate: `${INTERMITTENT} . caisse des congés spectacle . taux`,
  },
  {
    code: `${SVP} . prévoyance`,
    label: 'Prévoyance conventionnelle (spectacle vivant privé)',
    heading: 'Cotisations statutaires ou prévues par la convention collective',
    organism: 'AUDIENS',
    employer: `${SVP} . prévoyance`,
  },
  {
    code: `${SVP} . CASC`,
    label: 'Comité d\u2019action sociale et culturelle (CASC-SVP)',
    heading: 'Cotisations statutaires ou prévues par la convention collective',
    organism: 'AUDIENS',
    employer: `${SVP} . CASC`,
    employerRate: `${SVP} . CASC . taux`,
  },
  {
    code: `${SVP} . FCAP`,
    label: 'Fonds commun d\u2019aide au paritarisme (FCAP-SVP)',
    heading: 'Cotisations statutaires ou prévues par la convention collective',
    organism: 'AUDIENS',
    employer: `${SVP} . FCAP`,
  },
  {
    code: `${C} . CSG-CRDS . CSG . déductible`,
    label: 'CSG déductible de l\u2019impôt sur le revenu',
    heading: 'CSG non imposable à l\u2019impôt sur le revenu',
    organism: 'URSSAF',
    employee: `${C} . CSG-CRDS . CSG . déductible`,
    employeeRate: `${C} . CSG-CRDS . CSG . déductible . taux`,
    base: `${C} . CSG-CRDS . assiette de base`,
  },
  {
    code: `${C} . CSG-CRDS . sur revenus non imposables`,
    label: 'CSG/CRDS sur les revenus non imposables',
    heading: 'CSG non imposable à l\u2019impôt sur le revenu',
    organism: 'URSSAF',
    employee: `${C} . CSG-CRDS . sur revenus non imposables`,
    base: `${C} . CSG-CRDS . assiette de base`,
  },
  {
    code: `${C} . CSG-CRDS . sur revenus imposables non déductible`,
    label: 'CSG/CRDS non déductible de l\u2019impôt sur le revenu',
    heading: 'CSG/CRDS imposable à l\u2019impôt sur le revenu',
    organism: 'URSSAF',
    employee: `${C} . CSG-CRDS . sur revenus imposables non déductible`,
    base: `${C} . CSG-CRDS . assiette de base`,
  },
  {
    code: `${C} . exonérations`,
    label: 'Exonérations et réductions de cotisations',
    heading: 'Exonérations et allègements',
    organism: 'URSSAF',
    employee: `${C} . exonérations . salarié`,
    employer: `${C} . exonérations . employeur`,
  },
];

/** The rules the model sums into its totals (checked in tests against the pinned model). */
export const EMPLOYEE_TOTAL = `${C} . salarié`;
export const EMPLOYER_TOTAL = `${C} . employeur`;
/** Exonerations are subtracted in the model's totals: their line amounts are negative. */
export const SUBTRACTED = `${C} . exonérations`;

export function organismOf(line: LineRule, intermittent: boolean): Organism {
  return intermittent && line.intermittentOrganism ? line.intermittentOrganism : line.organism;
}
