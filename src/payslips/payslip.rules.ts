/**
 * The rules of payslips (MODULES 5) as pure functions: a period, the amounts and the
 * contracts a creation may carry, checked and normalized.
 */
import { requirePayrollPeriod } from '../format/calendar.ts';
import { fieldErrors } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import { compareMoney, MAX_PAYSLIP_AMOUNT, requireMoney, type Money } from '../money/money.ts';
import { payslipErrors } from './payslip.errors.ts';

export const PAYSLIP_STATUSES = ['publie', 'annule'] as const;

/** The largest amount one SEPA credit transfer carries (pain.001: 999 999 999,99). */
export const MAX_TRANSFER_AMOUNT = MAX_PAYSLIP_AMOUNT;

/** A required period, within the months the payroll accepts: 400 `missing_period` or `invalid_period`. */
export function requirePeriod(raw: unknown): string {
  return requirePayrollPeriod(raw);
}

/** A payslip amount: MODULES 1's money, at most what one transfer may carry. */
export function requirePayslipAmount(raw: unknown, field: 'gross' | 'net_to_pay', label: string): Money {
  if (raw === undefined || raw === null || raw === '') throw fieldErrors.missing(field, label);
  const amount = requireMoney(raw);
  if (compareMoney(amount, MAX_TRANSFER_AMOUNT) > 0) throw payslipErrors.amountTooLarge();
  return amount;
}

/** Issue 32 H: the net to pay is at most the gross (400 `invalid_net_to_pay`). */
export function checkNetWithinGross(gross: Money, netToPay: Money): void {
  if (compareMoney(netToPay, gross) > 0) throw payslipErrors.netAboveGross();
}

/** `contract_ids`: absent or null is none; else a list of ids (lower case, without repeats). */
export function parseContractIds(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > 100 || !raw.every(isUuid)) throw payslipErrors.invalidContractIds();
  return [...new Set(raw.map((id: string) => id.toLowerCase()))];
}
