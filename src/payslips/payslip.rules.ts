/**
 * The rules of payslips as pure functions: a period, the amounts and the
 * contracts a creation may carry, checked and normalized.
 */
import type { Static } from '@sinclair/typebox';
import { fieldErrors } from '../http/errors.ts';
import { absent } from '../http/input.ts';
import { compareMoney, MAX_PAYSLIP_AMOUNT, parseMoney, requireMoney, sumMoney, type Money } from '../money/money.ts';
import { checkField, CheckedMoney, checkPayrollPeriod, fieldRefusal } from '../schemas/fields.ts';
import { PayslipBody, PayslipContractId, TypedContributionInput } from '../schemas/payslips.ts';
import { payslipErrors } from './payslip.errors.ts';

export const PAYSLIP_STATUSES = ['publie', 'annule'] as const;

/** The figures of a computed payslip (null for one typed in), as columns: the answer's and the bulletin's. */
export const COMPUTED_FIGURES = [
  'payslips.employee_contributions',
  'payslips.employer_contributions',
  'payslips.net_before_tax',
  'payslips.net_taxable',
  'payslips.net_social',
  'payslips.pas_rate',
  'payslips.pas_amount',
  'payslips.employer_cost',
] as const;

/** The largest amount one SEPA credit transfer carries (pain.001: 999 999 999,99). */
export const MAX_TRANSFER_AMOUNT = MAX_PAYSLIP_AMOUNT;

/** A required period, within the months the payroll accepts: 400 `missing_period` or `invalid_period`. */
export function requirePeriod(raw: unknown): string {
  return checkPayrollPeriod(raw);
}

/** A payslip amount: money as docs/modules.md defines it, at most what one transfer may carry. */
export function requirePayslipAmount(raw: unknown, field: 'gross' | 'net_to_pay', label: string): Money {
  if (raw === undefined || raw === null || raw === '') throw fieldErrors.missing(field, label);
  const amount = requireMoney(raw);
  if (compareMoney(amount, MAX_TRANSFER_AMOUNT) > 0) throw payslipErrors.amountTooLarge();
  return amount;
}

/** The net to pay is at most the gross (400 `invalid_net_to_pay`). */
export function checkNetWithinGross(gross: Money, netToPay: Money): void {
  if (compareMoney(netToPay, gross) > 0) throw payslipErrors.netAboveGross();
}

/** `contract_ids`: absent or null is none; else a list of ids (lower case, without repeats). */
export function parseContractIds(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const ids = checkField(PayslipBody.properties.contract_ids, raw).map((id) => checkField(PayslipContractId, id));
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** A typed payslip's contributions, stored as its lines so that its call reads them as a computed payslip's. */
export interface TypedLine {
  code: 'saisie';
  label: string;
  heading: string;
  organism: string;
  base: Money;
  employee_rate: null;
  employee_amount: Money;
  employer_rate: null;
  employer_amount: Money;
}

export const TYPED_HEADING = 'Cotisations saisies';

/**
 * `contributions`: absent or null is none; else 1 to 20 `{ organism, employee_amount?,
 * employer_amount? }` (organism as a contribution call names it, amounts as docs/modules.md says,
 * each organism once: `PayslipBody`), so that a payslip made elsewhere is called like a computed one.
 */
export function parseTypedContributions(raw: unknown): { lines: TypedLine[]; employee: Money; employer: Money } | null {
  if (raw === undefined || raw === null) return null;
  const { properties } = TypedContributionInput;
  const seen = new Set<string>();
  const lines = checkField(PayslipBody.properties.contributions, raw).map((item): TypedLine => {
    const line = (item ?? {}) as Static<typeof TypedContributionInput>;
    const given = typeof line.organism === 'string' ? line.organism.trim() : line.organism;
    if (absent(given)) throw fieldErrors.missing('organism', "L'organisme");
    const organism = checkField(properties.organism, given);
    if (seen.has(organism)) throw fieldRefusal(properties.organism);
    seen.add(organism);
    const share = (value: unknown) => (absent(value) ? ('0.00' as Money) : parseMoney(checkField(CheckedMoney, value))!);
    const employee = share(line.employee_amount);
    const employer = share(line.employer_amount);
    for (const amount of [employee, employer]) if (compareMoney(amount, MAX_TRANSFER_AMOUNT) > 0) throw payslipErrors.amountTooLarge();
    return {
      code: 'saisie',
      label: `Cotisations ${organism}`,
      heading: TYPED_HEADING,
      organism,
      base: '0.00' as Money,
      employee_rate: null,
      employee_amount: employee,
      employer_rate: null,
      employer_amount: employer,
    };
  });
  return { lines, employee: sumMoney(lines.map((l) => l.employee_amount)), employer: sumMoney(lines.map((l) => l.employer_amount)) };
}
