/**
 * Corrections of the pinned `modele-social`: each changes the rules object before
 * the engine is built, names the rule, says why, and is tested (test/payroll/model.test.ts).
 * None of them is a rate, a ceiling or a threshold: every figure stays the model's.
 */

/** The rules object as `modele-social` exports it: rule name → raw publicodes rule. */
export type RawRules = Record<string, Record<string, unknown> | string | number | null>;

const ARTIST = 'salarié . régimes spécifiques . intermittents du spectacle . artiste';

export interface ModelCorrection {
  rule: string;
  reason: string;
  apply(rules: RawRules): void;
}

function rawRule(rules: RawRules, name: string): Record<string, unknown> {
  const rule = rules[name];
  if (!rule || typeof rule !== 'object')
    throw new Error(`modele-social: the rule "${name}" a correction applies to is gone; review src/payroll/model-corrections.ts`);
  return rule;
}

export const MODEL_CORRECTIONS: readonly ModelCorrection[] = [
  {
    rule: `${ARTIST} . acteur de complément`,
    reason:
      "Its default is spelled `par defaut` (no accent), which publicodes does not read: the question has no default, so every artist's computation misses it. Renamed `par défaut`; the value stays the model's (`non`).",
    apply(rules) {
      const rule = rawRule(rules, this.rule);
      if (!('par defaut' in rule)) return;
      rule['par défaut'] = rule['par defaut'];
      delete rule['par defaut'];
    },
  },
  {
    rule: `${ARTIST} . réduction de taux . cotisations allocations familiales taux`,
    reason:
      "It replaces `cotisations . allocations familiales . taux` by that same rule × the artist's reduction. The replaced rule chooses between its `taux réduit` and `taux plein` through `éligible taux réduit`, a child whose applicability makes publicodes evaluate the parent contribution again, which goes back through the replacement: a cycle, and the employer's contributions and cost of every artist evaluate to nothing. The same reduction is applied one level down instead, to `taux plein` and `taux réduit` within `allocations familiales . taux` only: the same product, without the cycle.",
    apply(rules) {
      const reduction = rawRule(rules, `${ARTIST} . réduction de taux`);
      const replacements = reduction.avec as Record<string, unknown> | undefined;
      if (!replacements || !('cotisations allocations familiales taux' in replacements)) return;
      delete replacements['cotisations allocations familiales taux'];
      for (const rate of ['taux plein', 'taux réduit']) {
        replacements[`cotisations allocations familiales ${rate}`] = {
          remplace: { 'références à': `cotisations . allocations familiales . ${rate}`, dans: 'cotisations . allocations familiales . taux' },
          valeur: `cotisations . allocations familiales . ${rate} * réduction de taux`,
        };
      }
    },
  },
  {
    rule: 'impôt . revenu imposable . abattement contrat court',
    reason:
      "The allowance of a contract of two months at most is half the month's net SMIC, taken off each month's base (BOFiP BOI-IR-PAS-20-20-30-10, n° 230: 748 € in 2026). The model writes `50% * SMIC . net imposable * 1 mois/an`, which turns the month's amount into one a year: 62.58 € a month instead of 748 €. The factor is removed; the figure stays the model's SMIC.",
    apply(rules) {
      const rule = rawRule(rules, this.rule);
      const formula = rule.formule as { valeur?: unknown } | undefined;
      if (formula?.valeur !== '50% * SMIC . net imposable * 1 mois/an') return;
      formula.valeur = '50% * SMIC . net imposable';
    },
  },
  {
    rule: 'impôt . montant',
    reason:
      "The withholding is the month's base × the rate (CGI art. 204 H), to the cent on the payslip. The model rounds a year's amount to the euro (`arrondi: oui` in €/an) before the month is taken from it, a few cents off each month; the payslip rounds the month's amount half-up to the cent instead.",
    apply(rules) {
      delete rawRule(rules, this.rule).arrondi;
    },
  },
  {
    rule: 'salarié . rémunération . net . imposable',
    reason:
      "Only the employer's share of the company health plan is taxable income (CGI art. 83, 1° quater, since the 2013 income; BOI-RSA-BASE-30-10-20); its provident contributions (a cadre's 1.50 %) are not. The model adds all of `cotisations . prévoyances . employeur` to the taxable net; the health plan's employer share alone is added instead.",
    apply(rules) {
      const rule = rawRule(rules, this.rule);
      const without = (rule.avec as Record<string, { somme?: string[] }> | undefined)?.['sans déductions'];
      const terms = without?.somme;
      if (!terms) return;
      const at = terms.indexOf('cotisations . prévoyances . employeur');
      if (at >= 0) terms[at] = 'cotisations . prévoyances . santé . employeur';
    },
  },
  {
    rule: 'salarié . régimes spécifiques . DFS . profession . journaliste . abattement fiscal',
    reason:
      "The 7 650 € allowance on the taxable net is the journalists' (BOI-RSA-CHAMP-20-50-10-30), but the rule applies with any profession's flat deduction: an artist's taxable net lost 637.50 € a month. It applies when the profession is `journaliste` only.",
    apply(rules) {
      const formula = rawRule(rules, this.rule).formule as { abattement?: unknown } | undefined;
      if (!formula || formula.abattement === undefined) return;
      // In the allowance rather than in the rule's applicability, which publicodes evaluates in the
      // contexts of `SMIC . net imposable` and finds cyclic there.
      formula.abattement = { variations: [{ si: "régimes spécifiques . DFS . profession = 'journaliste'", alors: formula.abattement }, { sinon: '0 €/an' }] };
    },
  },
];

/** A deep copy of the rules with every correction applied (the package's object is left as it is). */
export function correctedRules(rules: RawRules): RawRules {
  const copy = structuredClone(rules);
  for (const correction of MODEL_CORRECTIONS) correction.apply(copy);
  return copy;
}
