/**
 * What a payslip of the month is computed from, and the complementary payslip, as pure
 * functions: the same preparation of a contract for the runner and for the validation's stale
 * check, the hash of its inputs, and the difference between a month recomputed whole and what
 * its published payslips already paid, line by line.
 */
import crypto from 'node:crypto';
import { compareMoney, subtractMoney, sumMoney, type Money } from '../money/money.ts';
import type { ComputedPayslip, PayslipLine } from './compute.ts';
import { SKIP_MESSAGES, type SkipReasonCode } from './payroll.errors.ts';
import { missingIntermittentInput, monthPay, situationFor, type PayrollContract, type PayrollOrg, type Situation } from './situation.ts';

export interface MonthContract extends PayrollContract {
  contract_number: string;
  category: 'artiste' | 'technicien' | 'permanent' | null;
  cadre: boolean;
  pas_rate: string | null;
  dfs: 'artiste_musicien' | 'artiste_dramatique' | null;
}

/** A skip's message naming its contract: `Contrat C-2027-000042 : le net à payer…`. */
export const aboutContract = (contract: { contract_number: string }, message: string) =>
  `Contrat ${contract.contract_number} : ${message.charAt(0).toLowerCase()}${message.slice(1)}`;

export type Prepared = { situation: Situation; hash: string } | { skip: SkipReasonCode; message: string };

/** A contract's month as the model will see it (its situation and inputs' hash), or why it is skipped. */
export function prepareContract(org: PayrollOrg, contract: MonthContract, period: string): Prepared {
  const pay = monthPay(contract, period);
  if ('skip' in pay) return { skip: pay.skip, message: SKIP_MESSAGES[pay.skip] };
  const employee = { category: contract.category, cadre: contract.cadre, pas_rate: contract.pas_rate, dfs: contract.dfs };
  const missing = missingIntermittentInput(employee, pay);
  if (missing !== null) return { skip: 'not_computable', message: aboutContract(contract, missing) };
  const situation = situationFor(period, org, employee, pay);
  return {
    situation,
    hash: inputsHash(
      situation,
      contract.dates.filter((d) => d.date.startsWith(`${period}-`)),
    ),
  };
}

/**
 * The hash of what a payslip is computed from: the model's situation, and the month's dates as
 * the bulletin prints them (two dates swapped for the same total change the bulletin).
 */
export function inputsHash(situation: Situation, dates: PayrollContract['dates']): string {
  const canonical = {
    situation: Object.fromEntries(Object.entries(situation).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    dates: dates.map((d) => [d.date, d.nature ?? null, d.quantity === undefined ? null : String(Number(d.quantity)), String(d.amount)]),
  };
  return crypto.createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** The figures of a payslip that a complementary one carries as differences. */
export const DIFFERENCE_FIGURES = [
  'gross',
  'employee_contributions',
  'employer_contributions',
  'net_before_tax',
  'net_taxable',
  'net_social',
  'pas_amount',
  'net_to_pay',
  'employer_cost',
] as const satisfies ReadonlyArray<keyof ComputedPayslip>;

const ZERO = '0.00' as Money;
const lineKey = (line: Pick<PayslipLine, 'code' | 'organism'>) => `${line.code}\u0000${line.organism}`;

export type Complement = { payslip: ComputedPayslip } | { skip: 'already_published' | 'complement_negative'; message: string };

/**
 * The month recomputed whole minus what was published, figure by figure and line by line (a
 * line's base and amounts; its rates are the whole month's, or the published ones for a line
 * the month no longer has). Nothing left to pay: `already_published`. Less to pay than was
 * paid (dates removed, a higher withholding): `complement_negative`, never a negative payslip.
 */
export function complementOf(whole: ComputedPayslip, published: readonly ComputedPayslip[]): Complement {
  const paid = (key: (typeof DIFFERENCE_FIGURES)[number]) => sumMoney(published.map((p) => p[key]));
  const figures = Object.fromEntries(DIFFERENCE_FIGURES.map((key) => [key, subtractMoney(whole[key], paid(key))])) as Record<
    (typeof DIFFERENCE_FIGURES)[number],
    Money
  >;
  const lines = new Map<string, PayslipLine>();
  for (const line of whole.lines) lines.set(lineKey(line), { ...line });
  for (const line of published.flatMap((p) => p.lines)) {
    const current = lines.get(lineKey(line)) ?? { ...line, base: ZERO, employee_amount: ZERO, employer_amount: ZERO };
    lines.set(lineKey(line), {
      ...current,
      base: subtractMoney(current.base, line.base),
      employee_amount: subtractMoney(current.employee_amount, line.employee_amount),
      employer_amount: subtractMoney(current.employer_amount, line.employer_amount),
    });
  }
  const changed = [...lines.values()].filter((l) => l.base !== ZERO || l.employee_amount !== ZERO || l.employer_amount !== ZERO);
  if (changed.length === 0 && DIFFERENCE_FIGURES.every((key) => figures[key] === ZERO)) {
    return { skip: 'already_published', message: SKIP_MESSAGES.already_published };
  }
  if (compareMoney(figures.gross, ZERO) < 0 || compareMoney(figures.net_to_pay, ZERO) < 0 || compareMoney(figures.net_to_pay, figures.gross) > 0) {
    return { skip: 'complement_negative', message: SKIP_MESSAGES.complement_negative };
  }
  return { payslip: { ...figures, pas_rate: whole.pas_rate, lines: changed } };
}
