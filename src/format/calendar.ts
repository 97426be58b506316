/**
 * The calendar of the payroll: ISO dates, pay periods, the numbering year. One rule each, for
 * every module.
 */
import { AppError, fieldErrors } from '../http/errors.ts';
import { absent } from '../http/input.ts';
import { addDays, addMonths, isCalendarDay } from './calendar-shared.js';
import { dateTimeFormat, formatPeriodFr, OPERATOR_TIME_ZONE, todayInFrance } from './french.ts';

export { addDays, addMonths };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date `YYYY-MM-DD` (1900 or later) as given, or null. */
export function parseIsoDate(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const match = ISO_DATE.exec(raw);
  if (!match) return null;
  return isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3])) ? raw : null;
}

/**
 * A pay period `YYYY-MM`: payslips, contribution calls and their list filters.
 * Month 01 to 12, year 1900 to 2999: `0000-01` or `9999-12` is a typing mistake, never a payroll
 * month, and a bank or an organism would refuse a document dated so.
 */
export const PERIOD_PATTERN = '^(19|2\\d)\\d{2}-(0[1-9]|1[0-2])$';
const PERIOD = new RegExp(PERIOD_PATTERN);

/** The period when `raw` is one, else null. @example parsePeriod('2027-01') // '2027-01' */
export function parsePeriod(raw: unknown): string | null {
  return typeof raw === 'string' && PERIOD.test(raw) ? raw : null;
}

/** 400 `invalid_period`: a period that is not one, in the one wording of every module. */
export const INVALID_PERIOD = { code: 'invalid_period', message: 'Période invalide : format AAAA-MM attendu (ex. 2027-01).' } as const;
export const invalidPeriod = () => new AppError(400, INVALID_PERIOD.code, INVALID_PERIOD.message);

/** A list filter's period: none (absent or empty), or a well-formed one, else 400 `invalid_period`. */
export function parsePeriodFilter(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const period = parsePeriod(raw);
  if (!period) throw invalidPeriod();
  return period;
}

/**
 * How far back and ahead a payroll month may be computed, validated, typed or called: back to
 * the salary's three-year limitation period (a back-pay payslip is still made then), ahead one
 * year (contracts signed for next season). Outside it, a period is a typing mistake that the
 * model, a bank and the organisms would take at its word (1900, 2999).
 */
export const PAYROLL_MONTHS_BACK = 36;
export const PAYROLL_MONTHS_AHEAD = 12;

/** The first and last months accepted at `now` (the operator's calendar). */
export function payrollPeriodWindow(now: Date = new Date()): { first: string; last: string } {
  const current = todayInFrance(now).slice(0, 7);
  return { first: addMonths(current, -PAYROLL_MONTHS_BACK), last: addMonths(current, PAYROLL_MONTHS_AHEAD) };
}

/**
 * The one period rule of the payroll's writes (a run, its validation, a typed payslip, a
 * contribution call): 400 `missing_period`, or `invalid_period` for a malformed period or one
 * outside `payrollPeriodWindow`, the message saying the months accepted. List filters take
 * any well-formed period (`parsePeriod`): old documents stay listed.
 */
export function requirePayrollPeriod(raw: unknown, now: Date = new Date()): string {
  if (absent(raw)) throw fieldErrors.missing('period', 'La période');
  const period = parsePeriod(raw);
  if (!period) throw invalidPeriod();
  return inPayrollWindow(period, now);
}

/** `period` when within `payrollPeriodWindow`, else 400 `invalid_period` saying the months accepted. */
export function inPayrollWindow(period: string, now: Date = new Date()): string {
  const { first, last } = payrollPeriodWindow(now);
  if (period < first || period > last) {
    throw new AppError(
      400,
      'invalid_period',
      `La période ${formatPeriodFr(period)} est hors de celles acceptées : de ${formatPeriodFr(first)} à ${formatPeriodFr(last)} (trois ans en arrière, un an en avance).`,
    ).withDetails({ field: 'period' });
  }
  return period;
}

/** The first and last days of a period `YYYY-MM`. */
export function periodBounds(period: string): { first: string; last: string } {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { first: `${period}-01`, last: `${period}-${String(lastDay).padStart(2, '0')}` };
}

/**
 * The last working day of a period: its last Monday to Friday. Public holidays are not
 * skipped (the service keeps no calendar of them): staff choose another day when it is one.
 */
export function lastWorkingDay(period: string): string {
  let day = periodBounds(period).last;
  for (;;) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return day;
    day = addDays(day, -1);
  }
}

/** Numbers (C-, F-, V-YYYY-NNNNNN) are counted per year, in the operator's (French) calendar. */
export const NUMBERING_TIME_ZONE = OPERATOR_TIME_ZONE;

/** The year a document made at `now` is numbered in. */
export function numberingYear(now: Date): number {
  return Number(dateTimeFormat('en', { year: 'numeric', timeZone: NUMBERING_TIME_ZONE }).format(now));
}
