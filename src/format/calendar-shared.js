// @ts-check
/**
 * The calendar rules that the pages' scripts need as much as the server: a day of the calendar,
 * dates and periods as a French user types them (`JJ/MM/AAAA`, `MM/AAAA`), a period in words.
 * A plain ES module: the server imports it (`calendar.ts`, `french.ts`), and the pages' scripts
 * load it as `/format/calendar-shared.js`, the URL their `../../format/` import resolves to
 * from `/assets/` as it resolves to this file from `src/pages/assets/`.
 */

/** The first year of a date or a period; the last year of a period. */
export const FIRST_YEAR = 1900;
export const LAST_PERIOD_YEAR = 2999;

const DATE_FR = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const PERIOD_FR = /^(\d{1,2})\/(\d{4})$/;
const DATE_ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const PERIOD_ISO = /^(\d{4})-(\d{2})$/;
const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];

/**
 * Whether a year, month (1 to 12) and day name a day of the calendar, in `FIRST_YEAR` or later.
 * @param {number} year @param {number} month @param {number} day
 */
export function isCalendarDay(year, month, day) {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= FIRST_YEAR && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * `YYYY-MM-DD` plus `days` (negative: minus).
 * @param {string} isoDate @param {number} days @returns {string}
 */
export function addDays(isoDate, days) {
  const [y, m, d] = /** @type {[number, number, number]} */ (isoDate.split('-').map(Number));
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * `YYYY-MM` plus `months` (negative: minus).
 * @param {string} period @param {number} months @returns {string}
 */
export function addMonths(period, months) {
  const [year, month] = /** @type {[number, number]} */ (period.split('-').map(Number));
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The parts of a date typed `JJ/MM/AAAA` (`1/3/2027` too), whether or not it is a day; else null.
 * @param {string} value @returns {{ year: number, month: number, day: number } | null}
 */
export function frDateParts(value) {
  const match = DATE_FR.exec(value.trim());
  return match ? { year: Number(match[3]), month: Number(match[2]), day: Number(match[1]) } : null;
}

/**
 * A date as a French user types it (`1/3/2027`, `01/03/2027`) in the API's form (`2027-03-01`);
 * anything else as it is (trimmed), for the API's check to answer.
 * @param {string} value @returns {string}
 */
export function isoFromFr(value) {
  const parts = frDateParts(value);
  return parts ? `${parts.year}-${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}` : value.trim();
}

/**
 * `2027-03-01` → `01/03/2027`; anything else as it is.
 * @param {string} isoDate @returns {string}
 */
export function frDate(isoDate) {
  const match = DATE_ISO.exec(isoDate);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : isoDate;
}

/**
 * `31/01/2027` → `01/02/2027`, the calendar's next day; null for what is not a day of it.
 * @param {string} value @returns {string | null}
 */
export function nextDayFr(value) {
  const parts = frDateParts(value);
  if (!parts || !isCalendarDay(parts.year, parts.month, parts.day)) return null;
  return frDate(addDays(isoFromFr(value), 1));
}

/**
 * A period as a French user types it (`3/2027`, `03/2027`) in the API's form (`2027-03`);
 * anything else as it is (trimmed).
 * @param {string} value @returns {string}
 */
export function periodFromFr(value) {
  const match = PERIOD_FR.exec(value.trim());
  return match ? `${match[2]}-${/** @type {string} */ (match[1]).padStart(2, '0')}` : value.trim();
}

/**
 * The API's period (`2027-03`) as a French user types it (`03/2027`), for a field's value or a link.
 * @param {string} period @returns {string}
 */
export function periodToFr(period) {
  return `${period.slice(5, 7)}/${period.slice(0, 4)}`;
}

/**
 * A pay period in words: `2027-03` → `mars 2027`; anything else as it is.
 * @param {string} period @returns {string}
 */
export function formatPeriodFr(period) {
  const match = PERIOD_ISO.exec(period);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${match[1]}` : period;
}
