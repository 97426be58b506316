/**
 * The rules of contribution calls as pure functions: the period, the due date, the
 * lines (organism and amount) and their total.
 */
import type { ContributionLine } from '../db/schema.ts';
import type { Static } from '@sinclair/typebox';
import { fieldErrors } from '../http/errors.ts';
import { absent } from '../http/input.ts';
import { isStorableMoney, moneyFromDb, parseMoney, subtractMoney, sumMoney, type Money } from '../money/money.ts';
import { checkField, checkPayrollPeriod } from '../schemas/fields.ts';
import { ContributionCallBody, ContributionLineInput } from '../schemas/invoices.ts';
import { contributionErrors } from './contribution.errors.ts';
import { ORGANISMS, type Organism } from './contribution.labels.ts';

/** The organisms usually called; any other name (1 to 100 characters) is accepted too. */
export const KNOWN_ORGANISMS: readonly Organism[] = ORGANISMS.map((o) => o.code);
// The limits of a body are its schema's (src/schemas/invoices.ts).
export { MAX_CALL_LINES as MAX_LINES } from '../schemas/invoices.ts';

export interface ContributionCallInput {
  org_id: string;
  period: string;
  due_date: string;
  lines: ContributionLine[];
  total: Money;
}

export function checkContributionCall(input: Static<typeof ContributionCallBody>): ContributionCallInput {
  const { properties } = ContributionCallBody;
  if (absent(input.org_id)) throw fieldErrors.missing('org_id', "L'organisation");
  const orgId = checkField(properties.org_id, input.org_id);
  const period = checkPayrollPeriod(input.period);
  if (absent(input.due_date)) throw fieldErrors.missing('due_date', "L'échéance");
  const dueDate = checkField(properties.due_date, input.due_date);
  const rawLines = input.lines;
  if (rawLines === undefined || rawLines === null || (Array.isArray(rawLines) && rawLines.length === 0))
    throw fieldErrors.missing('lines', 'La liste des lignes');
  const lines = checkField(properties.lines, rawLines).map((raw): ContributionLine => {
    const line = (raw ?? {}) as Static<typeof ContributionLineInput>;
    const organism = typeof line.organism === 'string' ? line.organism.trim() : line.organism;
    if (absent(organism)) throw fieldErrors.missing('organism', "L'organisme");
    const name = checkField(ContributionLineInput.properties.organism, organism);
    if (absent(line.amount)) throw fieldErrors.missing('amount', 'Le montant');
    return { organism: name, amount: parseMoney(checkField(ContributionLineInput.properties.amount, line.amount))! };
  });
  const total = sumMoney(lines.map((l) => l.amount as Money));
  if (!isStorableMoney(total)) throw contributionErrors.totalTooLarge();
  return { org_id: orgId.toLowerCase(), period, due_date: dueDate, lines, total };
}

/** The 15th of the month after the period. */
export function contributionDueDate(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const next = month === 12 ? { y: year + 1, m: 1 } : { y: year, m: month + 1 };
  return `${next.y}-${String(next.m).padStart(2, '0')}-15`;
}

/** What a payslip line owes an organism: its two shares (a computed, complementary or typed payslip's). */
export interface OwedLine {
  organism: string;
  employee_amount: Money | string | null;
  employer_amount: Money | string | null;
}

/** A share as stored (a JSON string, or nothing for a line without it). */
const share = (value: Money | string | null | undefined): Money =>
  value === null || value === undefined || value === '' ? ('0.00' as Money) : moneyFromDb(value);

/** One line per organism, the sum of the employee and employer amounts of its lines. */
export function contributionLines(payslipLines: ReadonlyArray<readonly OwedLine[]>): Array<{ organism: string; amount: Money }> {
  const byOrganism = new Map<string, Money[]>();
  for (const lines of payslipLines) {
    for (const line of lines) {
      const amounts = byOrganism.get(line.organism) ?? [];
      amounts.push(share(line.employee_amount), share(line.employer_amount));
      byOrganism.set(line.organism, amounts);
    }
  }
  return [...byOrganism].map(([organism, amounts]) => ({ organism, amount: sumMoney(amounts) })).filter((line) => line.amount !== '0.00');
}

/** A payslip counted out of the calls (cancelled after a paid call counted it): its lines with the opposite sign. */
export function withdrawnLines(lines: readonly OwedLine[]): OwedLine[] {
  const zero = '0.00' as Money;
  return lines.map((l) => ({
    organism: l.organism,
    employee_amount: subtractMoney(zero, share(l.employee_amount)),
    employer_amount: subtractMoney(zero, share(l.employer_amount)),
  }));
}
