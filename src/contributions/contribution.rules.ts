/**
 * The rules of contribution calls (MODULES 6) as pure functions: the period, the due date, the
 * lines (organism and amount) and their total.
 */
import { orgErrors } from '../org/org.errors.ts';
import type { ContributionLine } from '../db/schema.ts';
import { parseIsoDate, requirePayrollPeriod } from '../format/calendar.ts';
import { fieldErrors } from '../http/errors.ts';
import { hasUnsafeCharacters, isUuid } from '../http/input.ts';
import { isStorableMoney, requireMoney, sumMoney, type Money } from '../money/money.ts';
import { contributionErrors } from './contribution.errors.ts';

/** The organisms usually called; any other name (1 to 100 characters) is accepted too. */
export const KNOWN_ORGANISMS = ['URSSAF', 'AUDIENS', 'CONGES_SPECTACLES', 'FRANCE_TRAVAIL', 'AFDAS'] as const;
export const MAX_LINES = 50;
const ORGANISM_MAX = 100;

const absent = (value: unknown) => value === undefined || value === null || value === '';

export interface ContributionCallInput {
  org_id: string;
  period: string;
  due_date: string;
  lines: ContributionLine[];
  total: Money;
}

export function checkContributionCall(input: Record<string, unknown>): ContributionCallInput {
  if (absent(input.org_id)) throw fieldErrors.missing('org_id', "L'organisation");
  if (!isUuid(input.org_id)) throw orgErrors.orgInBodyNotFound();
  const period = requirePayrollPeriod(input.period);
  if (absent(input.due_date)) throw fieldErrors.missing('due_date', "L'échéance");
  const dueDate = parseIsoDate(input.due_date);
  if (!dueDate) throw contributionErrors.invalidDate();
  const rawLines = input.lines;
  if (rawLines === undefined || rawLines === null || (Array.isArray(rawLines) && rawLines.length === 0)) throw fieldErrors.missing('lines', 'La liste des lignes');
  if (!Array.isArray(rawLines) || rawLines.length > MAX_LINES) throw fieldErrors.invalid('lines', `La liste des lignes (${MAX_LINES} au plus)`);
  const lines = rawLines.map((raw): ContributionLine => {
    const line = (raw ?? {}) as Record<string, unknown>;
    const organism = typeof line.organism === 'string' ? line.organism.trim() : line.organism;
    if (absent(organism)) throw fieldErrors.missing('organism', "L'organisme");
    if (typeof organism !== 'string' || organism.length > ORGANISM_MAX || hasUnsafeCharacters(organism)) throw fieldErrors.invalid('organism', "L'organisme");
    if (absent(line.amount)) throw fieldErrors.missing('amount', 'Le montant');
    return { organism, amount: requireMoney(line.amount) };
  });
  const total = sumMoney(lines.map((l) => l.amount as Money));
  if (!isStorableMoney(total)) throw contributionErrors.totalTooLarge();
  return { org_id: input.org_id.toLowerCase(), period, due_date: dueDate, lines, total };
}
