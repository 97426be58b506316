/**
 * One payslip from the model: the situation is set, the model's outputs and
 * contributions are read in €/mois, each rounded half-up to the cent, and the bulletin is made
 * to add up: totals are the sums of the rounded lines, `net_before_tax = gross − employee
 * contributions`, `net_to_pay = net_before_tax − pas_amount`.
 */
import { sumMoney, type Money } from '../money/money.ts';
import type { PayrollModel, Read } from './model.ts';
import { BASE, LINE_RULES, organismOf, type Heading, type Organism } from './contribution-lines.ts';
import type { Situation } from './situation.ts';

export const OUTPUT_RULES = {
  gross: 'salarié . rémunération . brut',
  employee_contributions: 'salarié . cotisations . salarié',
  employer_contributions: 'salarié . cotisations . employeur',
  net_before_tax: 'salarié . rémunération . net . à payer avant impôt',
  net_taxable: 'salarié . rémunération . net . imposable',
  net_social: 'salarié . rémunération . montant net social',
  pas_amount: 'impôt . montant',
  pas_rate: "impôt . taux d'imposition",
  net_to_pay: 'salarié . rémunération . net . payé après impôt',
  employer_cost: 'salarié . coût total employeur',
} as const;

export interface PayslipLine {
  code: string;
  label: string;
  heading: Heading;
  organism: Organism;
  base: Money;
  employee_rate: string | null;
  employee_amount: Money;
  employer_rate: string | null;
  employer_amount: Money;
}

export interface ComputedPayslip {
  gross: Money;
  employee_contributions: Money;
  employer_contributions: Money;
  net_before_tax: Money;
  net_taxable: Money;
  net_social: Money;
  pas_rate: string;
  pas_amount: Money;
  net_to_pay: Money;
  employer_cost: Money;
  lines: PayslipLine[];
}

/** Why the model could not make a payslip: its own words, in French. */
export class NotComputable extends Error {}

/** A model figure rounded half-up (away from zero) to the cent. */
export function roundToCent(value: number): Money {
  const cents = Math.floor(Math.abs(Number((value * 100).toPrecision(12))) + 0.5);
  const text = String(cents).padStart(3, '0');
  const negative = value < 0 && cents !== 0;
  return `${negative ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}` as Money;
}

/** A percentage to at most four decimals (`"7"`, `"0.315"`). */
function rateText(value: number): string {
  return String(Number(value.toFixed(4)));
}

function subtract(a: Money, b: Money): Money {
  return sumMoney([a, (b.startsWith('-') ? b.slice(1) : `-${b}`) as Money]);
}

const monthly = (rule: string): Read => ({ rule, monthly: true });
const asIs = (rule: string): Read => ({ rule, monthly: false });

/**
 * Conditions of the overlay (law/spectacle) that a payslip must meet to be computed: when one is
 * false, the law is known but the model cannot apply it to this case, and the payslip is refused
 * with the reason rather than computed wrong.
 */
export const REFUSALS: ReadonlyArray<{ rule: string; message: string }> = [
  {
    rule: 'salarié . régimes spécifiques . intermittents du spectacle . artiste . DFS au taux',
    message:
      'La déduction forfaitaire spécifique de cet artiste serait bornée par le SMIC d\u2019un temps plein ou par le douzième du plafond annuel de 7 600 €, que le modèle applique sans tenir compte des engagements d\u2019un intermittent : le bulletin n\u2019est pas calculé. Retirez la déduction du salarié, ou saisissez ce bulletin.',
  },
  {
    rule: 'salarié . convention collective . SVP . CASC . taux connu',
    message:
      'Le taux du CASC-SVP avant janvier 2026 dépend de la date d\u2019extension de l\u2019accord de branche du 18 octobre 2024, qui n\u2019a pas été trouvée : le bulletin n\u2019est pas calculé. Saisissez-le.',
  },
];

/** Every figure `computePayslip` reads: what `compiledModel` compiles. */
export const PAYSLIP_READS: readonly Read[] = [
  ...REFUSALS.map(({ rule }) => asIs(rule)),
  monthly(BASE),
  ...LINE_RULES.flatMap((line) => [
    ...[line.employee, line.employer, line.base].filter((rule): rule is string => Boolean(rule)).map(monthly),
    ...[line.employeeRate, line.employerRate].filter((rule): rule is string => Boolean(rule)).map(asIs),
  ]),
  ...Object.values(OUTPUT_RULES).map((rule) => (rule === OUTPUT_RULES.pas_rate ? asIs(rule) : monthly(rule))),
];

/** A rule's value in €/mois: 0 when it does not apply, null when the model cannot give it. */
export function evaluateMonthly(model: PayrollModel, rule: string): number | null {
  const value = model.read(monthly(rule));
  return typeof value === 'number' ? value : value === null ? 0 : null;
}

function required(model: PayrollModel, rule: string): number {
  const value = evaluateMonthly(model, rule);
  if (value === null || !Number.isFinite(value)) throw new NotComputable(`Le modèle ne sait pas calculer « ${rule} » pour ce contrat.`);
  return value;
}

function optionalRate(model: PayrollModel, rule: string | undefined): string | null {
  if (!rule) return null;
  const value = model.read(asIs(rule));
  return typeof value === 'number' && Number.isFinite(value) ? rateText(value) : null;
}

/** The model's payslip for a situation; `NotComputable` when one of its figures is undefined. */
export function computePayslip(model: PayrollModel, situation: Situation): ComputedPayslip {
  model.setSituation(situation);
  // A rule that does not apply reads null; only a false one refuses.
  for (const refusal of REFUSALS) if (model.read(asIs(refusal.rule)) === false) throw new NotComputable(refusal.message);
  const intermittent = 'salarié . régimes spécifiques . intermittents du spectacle' in situation;
  const contributionsBase = required(model, BASE);
  const lines: PayslipLine[] = [];
  for (const rule of LINE_RULES) {
    const employee = rule.employee ? roundToCent(required(model, rule.employee)) : ('0.00' as Money);
    const employer = rule.employer ? roundToCent(required(model, rule.employer)) : ('0.00' as Money);
    if (employee === '0.00' && employer === '0.00') continue;
    // Exonerations are what the model subtracts from its totals: negative on the bulletin.
    const sign = rule.code.endsWith(' . exonérations') ? -1 : 1;
    lines.push({
      code: rule.code,
      label: rule.label,
      heading: rule.heading,
      organism: organismOf(rule, intermittent),
      base: roundToCent(rule.base ? required(model, rule.base) : contributionsBase),
      employee_rate: optionalRate(model, rule.employeeRate),
      employee_amount: sign < 0 ? subtract('0.00' as Money, employee) : employee,
      employer_rate: optionalRate(model, rule.employerRate),
      employer_amount: sign < 0 ? subtract('0.00' as Money, employer) : employer,
    });
  }
  const gross = roundToCent(required(model, OUTPUT_RULES.gross));
  const employeeContributions = sumMoney(lines.map((line) => line.employee_amount));
  const employerContributions = sumMoney(lines.map((line) => line.employer_amount));
  const netBeforeTax = subtract(gross, employeeContributions);
  const pasAmount = roundToCent(required(model, OUTPUT_RULES.pas_amount));
  const pasRate = model.read(asIs(OUTPUT_RULES.pas_rate));
  return {
    gross,
    employee_contributions: employeeContributions,
    employer_contributions: employerContributions,
    net_before_tax: netBeforeTax,
    net_taxable: roundToCent(required(model, OUTPUT_RULES.net_taxable)),
    net_social: roundToCent(required(model, OUTPUT_RULES.net_social)),
    pas_rate: typeof pasRate === 'number' ? rateText(pasRate) : '0',
    pas_amount: pasAmount,
    net_to_pay: subtract(netBeforeTax, pasAmount),
    employer_cost: roundToCent(required(model, OUTPUT_RULES.employer_cost)),
    lines,
  };
}
