/**
 * What is sent to the model, as pure functions: the month's pay of one contract,
 * then the situation of the model's rules. The README's table is this file; test/payroll
 * checks every key against the pinned model's rule names.
 */
import { addDays, addMonths as addPeriodMonths, periodBounds } from '../format/calendar.ts';
import { moneyFromDb, sumMoney, type Money } from '../money/money.ts';

export type Convention = 'SVP' | 'droit_commun';
export type CategorieJuridique = 'association' | 'SARL' | 'SAS' | 'SELARL' | 'SELAS' | 'EI' | 'autre';
export type EmployeeCategory = 'artiste' | 'technicien' | 'permanent';
/** An artist's consent to the flat professional deduction, with the model's profession it falls under. */
export type DfsProfession = 'artiste_musicien' | 'artiste_dramatique';

export interface PayrollOrg {
  effectif: number;
  convention: Convention;
  categorie_juridique: CategorieJuridique;
  /** A percentage (`"1.50"`), or null for the model's default. */
  taux_at: string | null;
}

export interface PayrollEmployee {
  category: EmployeeCategory | null;
  cadre: boolean;
  /** A percentage (`"7.50"`), or null for the neutral grid. */
  pas_rate: string | null;
  /** The flat professional deduction the artist agreed to, or null (none). */
  dfs?: DfsProfession | null;
}

export interface PayrollContract {
  kind: 'CDDU' | 'CDD' | 'CDI';
  start_date: string;
  end_date: string | null;
  monthly_gross: string | null;
  dates: ReadonlyArray<{ date: string; amount: string; nature?: string; quantity?: string | number }>;
}

/** Why a contract gets no payslip this month (the run's `skipped` reasons decided before the model). */
export type SkipReason = 'cdd_not_computed' | 'no_date_in_period';

export type MonthPay =
  | {
      kind: 'CDDU';
      gross: Money;
      days: number;
      dates: string[];
      /** Hours paid: the quantities of the period's dates counted in hours (a technician's). */
      hours: string;
      /** True when some date of the period is not counted in hours. */
      dates_not_in_hours: boolean;
      /** Calendar days of the engagement, from the contract's start to its end. */
      engagement_days: number;
      /** The contract runs, date to date, for three months at most. */
      three_months_at_most: boolean;
      /** The contract's length in months, date to date ("2" from 1 October to 30 November), to the hundredth. */
      months: string;
    }
  | { kind: 'CDI'; gross: Money; covered_days: number; month_days: number }
  | { skip: SkipReason };

/**
 * The month's gross of a contract: a CDDU's dates in the period, a CDI's monthly
 * gross prorated to the calendar days it covers (rounded half-up to the cent), a CDD skipped.
 */
export function monthPay(contract: PayrollContract, period: string): MonthPay {
  if (contract.kind === 'CDD') return { skip: 'cdd_not_computed' };
  if (contract.kind === 'CDDU') {
    const inPeriod = contract.dates.filter((d) => d.date.startsWith(`${period}-`));
    if (inPeriod.length === 0) return { skip: 'no_date_in_period' };
    const dates = [...new Set(inPeriod.map((d) => d.date))].sort();
    const end = contract.end_date ?? dates[dates.length - 1]!;
    return {
      kind: 'CDDU',
      gross: sumMoney(inPeriod.map((d) => moneyFromDb(d.amount))),
      days: dates.length,
      dates,
      hours: sumQuantities(inPeriod.filter((d) => d.nature === 'heures')),
      dates_not_in_hours: inPeriod.some((d) => d.nature !== 'heures'),
      engagement_days: calendarDays(contract.start_date, end),
      three_months_at_most: end < addMonths(contract.start_date, 3),
      months: monthsBetween(contract.start_date, end),
    };
  }
  const { first, last } = periodBounds(period);
  const monthDays = Number(last.slice(8));
  // biome-ignore lint/complexity/useMathMinMax: ISO dates compared as strings, not numbers.
  const from = contract.start_date > first ? contract.start_date : first;
  const to = contract.end_date !== null && contract.end_date < last ? contract.end_date : last;
  if (from > to) return { skip: 'no_date_in_period' };
  const covered = Number(to.slice(8)) - Number(from.slice(8)) + 1;
  const monthly = moneyFromDb(contract.monthly_gross ?? '0');
  return { kind: 'CDI', gross: prorate(monthly, covered, monthDays), covered_days: covered, month_days: monthDays };
}

/** Days from `from` to `to`, both included. */
function calendarDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The same day `months` later (the last day of a shorter month): "date à date". */
function addMonths(isoDate: string, months: number): string {
  const { last } = periodBounds(addPeriodMonths(isoDate.slice(0, 7), months));
  const day = isoDate.slice(8, 10);
  return day < last.slice(8) ? `${last.slice(0, 8)}${day}` : last;
}

/** Whole months from `from` to the day after `to`, date to date, plus the rest's share of its month, to the hundredth. */
function monthsBetween(from: string, to: string): string {
  const after = addDays(to, 1);
  let whole = 0;
  while (addMonths(from, whole + 1) <= after) whole += 1;
  const start = addMonths(from, whole);
  const rest = calendarDays(start, after) - 1;
  const monthDays = calendarDays(start, addMonths(from, whole + 1)) - 1;
  return String(Math.round((whole + rest / monthDays) * 100) / 100);
}

/** The sum of decimal quantities (hours to the hundredth), as a decimal text. */
function sumQuantities(dates: ReadonlyArray<{ quantity?: string | number }>): string {
  const hundredths = dates.reduce((sum, d) => sum + Math.round(Number(d.quantity ?? 0) * 100), 0);
  return String(hundredths / 100);
}

/** `monthly × covered / days`, rounded half-up to the cent, exactly (no float). */
function prorate(monthly: Money, covered: number, days: number): Money {
  const cents = BigInt(monthly.replace('.', ''));
  const quotient = (2n * cents * BigInt(covered) + BigInt(days)) / (2n * BigInt(days));
  const text = quotient.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}` as Money;
}

/** A publicodes string literal. */
const literal = (value: string) => `'${value}'`;
/** `"7.50"` → `7.5 %`. */
const percent = (rate: string) => `${Number(rate)} %`;

const INTERMITTENT = 'salarié . régimes spécifiques . intermittents du spectacle';

/** The model's name for our `convention`. */
const CONVENTION_IN_MODEL: Record<Convention, string> = { SVP: 'SVP', droit_commun: 'droit commun' };

export type Situation = Record<string, string>;

/**
 * docs/payroll.md's table, for a contract's `monthPay` that is not skipped. A CDDU is an artist's when
 * the employee's category is `artiste`, a technician's otherwise; the caller refuses a CDDU
 * whose employee has no category before this (`not_computable`).
 */
export function situationFor(period: string, org: PayrollOrg, employee: PayrollEmployee, pay: Exclude<MonthPay, { skip: SkipReason }>): Situation {
  const [year, month] = period.split('-');
  const situation: Situation = {
    date: literal(`01/${month}/${year}`),
    dirigeant: 'non',
    'entreprise . catégorie juridique': literal(org.categorie_juridique),
    'salarié . contrat . salaire brut': `${pay.gross} €/mois`,
    'entreprise . salariés . effectif': `${org.effectif} employé`,
    'salarié . contrat . statut cadre': employee.cadre ? 'oui' : 'non',
  };
  if (employee.pas_rate !== null) {
    situation['impôt . méthode de calcul'] = literal('taux personnalisé');
    situation['impôt . taux personnalisé'] = percent(employee.pas_rate);
  } else {
    situation['impôt . méthode de calcul'] = literal('taux neutre');
  }
  if (org.taux_at !== null) situation['salarié . cotisations . ATMP . taux'] = percent(org.taux_at);
  if (pay.kind === 'CDI') {
    situation['salarié . contrat'] = literal('CDI');
    situation['salarié . convention collective'] = literal(CONVENTION_IN_MODEL[org.convention]);
    return situation;
  }
  situation['salarié . contrat'] = literal('CDD');
  situation['salarié . contrat . CDD . motif'] = literal('classique . usage');
  situation['salarié . convention collective'] = literal('SVP');
  const artist = employee.category === 'artiste';
  situation[INTERMITTENT] = literal(artist ? 'artiste' : 'technicien');
  situation[`${INTERMITTENT} . CDDU de trois mois au plus`] = pay.three_months_at_most ? 'oui' : 'non';
  // The withholding's allowance of a contract of two months at most reads the contract's length.
  situation['salarié . contrat . CDD . durée'] = `${pay.months} mois`;
  if (artist) {
    // The engagement is the contract's period, whatever the number of dates in it (CA Paris, 11/09/2008).
    situation[`${INTERMITTENT} . artiste . nombre jours travaillés`] = `${pay.engagement_days} jour`;
    situation[`${INTERMITTENT} . artiste . engagements de moins de cinq jours`] = pay.engagement_days < 5 ? 'oui' : 'non';
    situation[`${INTERMITTENT} . artiste . jours de travail`] = `${pay.days} jour/mois`;
    situation[`${INTERMITTENT} . artiste . activité accessoire`] = 'non';
    situation[`${INTERMITTENT} . artiste . acteur de complément`] = 'non';
    if (employee.dfs) {
      situation['salarié . régimes spécifiques . DFS'] = 'oui';
      situation['salarié . régimes spécifiques . DFS . profession'] = literal(DFS_IN_MODEL[employee.dfs]);
    }
  } else {
    situation[`${INTERMITTENT} . heures rémunérées`] = `${pay.hours} heure/mois`;
  }
  return situation;
}

const DFS_IN_MODEL: Record<DfsProfession, string> = { artiste_musicien: 'artiste musicien', artiste_dramatique: 'artiste dramatique' };

/**
 * What an intermittent's payslip needs and the contract does not say, in French; null when
 * nothing is missing. A technician's reduction of contributions counts the hours paid: each of
 * the month's dates must be counted in hours.
 */
export function missingIntermittentInput(employee: PayrollEmployee, pay: Exclude<MonthPay, { skip: SkipReason }>): string | null {
  if (pay.kind !== 'CDDU') return null;
  if (employee.category === null)
    return 'La catégorie du salarié (artiste ou technicien) n\u2019est pas renseignée : le régime des intermittents ne peut pas être choisi.';
  if (employee.category !== 'artiste' && pay.dates_not_in_hours) {
    return 'Les dates d\u2019un technicien se comptent en heures : indiquez, pour chaque date du mois, la nature « heures » et le nombre d\u2019heures rémunérées (la réduction générale en dépend).';
  }
  return null;
}
