/**
 * Corrections of the pinned `modele-social` (PAYROLL 3): each changes the rules object before
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
  if (!rule || typeof rule !== 'object') throw new Error(`modele-social: the rule "${name}" a correction applies to is gone; review src/payroll/model-corrections.ts`);
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
];

/** A deep copy of the rules with every correction applied (the package's object is left as it is). */
export function correctedRules(rules: RawRules): RawRules {
  const copy = structuredClone(rules);
  for (const correction of MODEL_CORRECTIONS) correction.apply(copy);
  return copy;
}
