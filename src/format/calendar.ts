/**
 * The calendar of the payroll: ISO dates, pay periods, the numbering year. One rule each, for
 * every module (MODULES 1).
 */
import { dateTimeFormat, OPERATOR_TIME_ZONE } from './french.ts';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date `YYYY-MM-DD` (1900 or later) as given, or null. */
export function parseIsoDate(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const match = ISO_DATE.exec(raw);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? raw : null;
}

/** `YYYY-MM-DD` plus `days` (negative: minus). */
export function addDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * A pay period `YYYY-MM` (MODULES 1): payslips, contribution calls and their list filters.
 * Month 01 to 12, year 1900 to 2999: `0000-01` or `9999-12` is a typing mistake, never a payroll
 * month, and a bank or an organism would refuse a document dated so.
 */
const PERIOD = /^(19|2\d)\d{2}-(0[1-9]|1[0-2])$/;

/** The period when `raw` is one, else null. @example parsePeriod('2027-01') // '2027-01' */
export function parsePeriod(raw: unknown): string | null {
  return typeof raw === 'string' && PERIOD.test(raw) ? raw : null;
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
