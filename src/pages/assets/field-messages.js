/**
 * What a page says when a value typed in one of its fields is refused: it speaks of
 * what the person typed, in the format the field asks for (JJ/MM/AAAA, MM/AAAA), and says which
 * rule the value breaks (a day that does not exist, a date outside the contract's period, an
 * execution date in the past). The API keeps its own messages (ISO formats, for API users);
 * pages translate its refusal here, in one place: the pages' scripts import this module, and the
 * server-rendered filters use it through `src/pages/field-messages.ts`. Pure functions, no DOM.
 */

import { addDays, FIRST_YEAR, frDate, frDateParts, isCalendarDay, LAST_PERIOD_YEAR } from '../../format/calendar-shared.js';

export { frDate };

/** Examples the messages give. */
export const DATE_EXAMPLE = '15/03/2027';
export const PERIOD_EXAMPLE = '03/2027';

const DATE_ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const PERIOD_FR = /^(\d{1,2})\/(\d{4})$/;
const PERIOD_ISO = /^(\d{4})-(\d{2})$/;

/**
 * The parts of a date typed `JJ/MM/AAAA` (or `AAAA-MM-JJ`, the API's form), or null.
 * @param {string} value @returns {{ year: number, month: number, day: number } | null}
 */
function dateParts(value) {
  const fr = frDateParts(value);
  if (fr) return fr;
  const iso = DATE_ISO.exec(value);
  return iso ? { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) } : null;
}

/**
 * A date as typed (`1/3/2027`, `01/03/2027`, `2027-03-01`) as `2027-03-01` when it is a day of the calendar, else null.
 * @param {string | null | undefined} typed @returns {string | null}
 */
export function isoOfTyped(typed) {
  const parts = dateParts(String(typed ?? '').trim());
  if (!parts) return null;
  const { year, month, day } = parts;
  if (!isCalendarDay(year, month, day)) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * What is wrong with a date as typed, in the field's format; '' when it is a day of the
 * calendar. `31/02/2026` → "Le 31/02/2026 n'existe pas : saisissez une date au format JJ/MM/AAAA."
 * @param {string | null | undefined} typed @returns {string}
 */
export function dateProblem(typed) {
  const value = String(typed ?? '').trim();
  if (!value) return 'Indiquez une date au format JJ/MM/AAAA.';
  const parts = dateParts(value);
  if (!parts) return `« ${value} » n'est pas une date au format JJ/MM/AAAA (par exemple ${DATE_EXAMPLE}).`;
  if (parts.year < FIRST_YEAR) return `L'année de ${value} est trop ancienne : saisissez une date au format JJ/MM/AAAA, en ${FIRST_YEAR} ou après.`;
  if (!isoOfTyped(value)) return `Le ${value} n'existe pas : saisissez une date au format JJ/MM/AAAA.`;
  return '';
}

/**
 * What is wrong with a period as typed (`MM/AAAA`, or `AAAA-MM`), in the field's format; '' when it is one.
 * @param {string | null | undefined} typed @returns {string}
 */
export function periodProblem(typed) {
  const value = String(typed ?? '').trim();
  if (!value) return `Indiquez une période au format MM/AAAA (par exemple ${PERIOD_EXAMPLE}).`;
  const fr = PERIOD_FR.exec(value);
  const iso = fr ? null : PERIOD_ISO.exec(value);
  /** @type {[month: number, year: number] | null} */
  const parts = fr ? [Number(fr[1]), Number(fr[2])] : iso ? [Number(iso[2]), Number(iso[1])] : null;
  if (!parts) return `« ${value} » n'est pas une période au format MM/AAAA (par exemple ${PERIOD_EXAMPLE}).`;
  const [month, year] = parts;
  if (month < 1 || month > 12) return `${value} n'existe pas : le mois va de 01 à 12. Saisissez une période au format MM/AAAA.`;
  if (year < FIRST_YEAR || year > LAST_PERIOD_YEAR)
    return `L'année de ${value} n'est pas acceptée (de ${FIRST_YEAR} à ${LAST_PERIOD_YEAR}) : saisissez une période au format MM/AAAA.`;
  return '';
}

/**
 * "du 01/03/2027 au 31/03/2027", or "à partir du 01/03/2027" (no end).
 * @param {{ start_date: string, end_date: string | null }} period ISO dates
 * @returns {string}
 */
export function periodText(period) {
  return period.end_date ? `du ${frDate(period.start_date)} au ${frDate(period.end_date)}` : `à partir du ${frDate(period.start_date)}`;
}

/** How far ahead an execution date may be (the API's rule, src/transfers/transfer.rules.ts). */
export const EXECUTION_DAYS_AHEAD = 366;

/**
 * The page's message for a field the API refused.
 * @param {object} refusal
 * @param {string} refusal.code the API's `error`
 * @param {string} refusal.message the API's message: said as it is when nothing better is known
 * @param {'date' | 'period' | 'execution_date' | 'contract_date' | 'other'} refusal.kind what the field takes
 * @param {string} [refusal.typed] what the person typed
 * @param {{ start_date: string, end_date: string | null }} [refusal.period] a contract's period (`contract_date`), ISO
 * @param {string} [refusal.today] today (`execution_date`), ISO
 * @returns {string}
 */
export function fieldMessage({ code, message, kind, typed = '', period, today }) {
  const missing = code.startsWith('missing_');
  if (kind === 'period') return periodProblem(missing ? '' : typed) || message;
  if (kind !== 'date' && kind !== 'execution_date' && kind !== 'contract_date') return message;
  const problem = dateProblem(missing ? '' : typed);
  if (problem) return kind === 'execution_date' && missing ? "Indiquez la date d'exécution au format JJ/MM/AAAA." : problem;
  const iso = /** @type {string} */ (isoOfTyped(typed));
  if (kind === 'execution_date' && today) {
    if (iso < today) return `La date d'exécution est passée : choisissez aujourd'hui (${frDate(today)}) ou une date à venir, au format JJ/MM/AAAA.`;
    const last = addDays(today, EXECUTION_DAYS_AHEAD);
    if (iso > last) return `La date d'exécution est trop lointaine : choisissez une date jusqu'au ${frDate(last)} au plus tard, au format JJ/MM/AAAA.`;
  }
  if (kind === 'contract_date' && period && (iso < period.start_date || (period.end_date && iso > period.end_date))) {
    return `Le ${frDate(iso)} est en dehors de la période du contrat (${periodText(period)}) : choisissez une date dans cette période.`;
  }
  return message;
}
