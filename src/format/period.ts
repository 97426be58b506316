/**
 * A pay period `YYYY-MM` (MODULES 1): the one rule for every module that reads one (payslips,
 * contribution calls, their list filters). Month 01 to 12, year 1900 to 2999: `0000-01` or
 * `9999-12` is a typing mistake, never a payroll month, and a bank or an organism would refuse
 * a document dated so.
 */
const PERIOD = /^(19|2\d)\d{2}-(0[1-9]|1[0-2])$/;

/** The period when `raw` is one, else null. @example parsePeriod('2027-01') // '2027-01' */
export function parsePeriod(raw: unknown): string | null {
  return typeof raw === 'string' && PERIOD.test(raw) ? raw : null;
}
