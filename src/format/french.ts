/**
 * French formats for documents (PDFs) and e-mails: the one place that writes an amount or a
 * date for a reader.
 *
 * Spaces: `Intl.NumberFormat('fr-FR')` groups thousands with U+202F (narrow no-break space),
 * which the standard PDF fonts (WinAnsi encoding) cannot draw and some mail clients show as a
 * box. We write U+00A0 (no-break space) both between thousands and before `€`: it is in WinAnsi,
 * in every mail client's fonts, and still keeps an amount on one line.
 */
import type { Money } from '../money/money.ts';

export const NBSP = '\u00a0';

/** `"1234.5"`-like canonical amount → `"1 234,50 €"` (no-break spaces, see above). */
export function formatEuros(value: Money): string {
  const negative = value.startsWith('-');
  const [whole, fraction] = (negative ? value.slice(1) : value).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, NBSP);
  return `${negative ? '-' : ''}${grouped},${fraction}${NBSP}€`;
}

/**
 * A decimal as a French reader writes it, its trailing decimal zeros dropped (a quantity, a
 * rate): `"7.500"` → `"7,5"`, `"1.000"` → `"1"`, `"10"` → `"10"`. Only zeros after a decimal
 * point are dropped: a stored `numeric(…,3)` quantity of one day reads "1", not "1,000".
 */
export function formatDecimalFr(value: string): string {
  return value
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '')
    .replace('.', ',');
}

/**
 * A percentage, its trailing decimal zeros dropped: `"20.00"` → `"20 %"`, `"5.50"` → `"5,5 %"`,
 * `"0.00"` → `"0 %"`, `"10"` → `"10 %"`: only zeros after a decimal point are dropped.
 */
export function formatRateFr(rate: string): string {
  return `${formatDecimalFr(rate)}${NBSP}%`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `"2027-03-12"` → `"12/03/2027"`. A date-only value: no time zone can shift it. */
export function formatDateFr(isoDate: string): string {
  const match = ISO_DATE.exec(isoDate);
  if (!match) throw new Error(`not a YYYY-MM-DD date: ${isoDate}`);
  return `${match[3]}/${match[2]}/${match[1]}`;
}

/** A pay period: `"2027-03"` → `"mars 2027"` (the pages' scripts write it too). */
export { formatPeriodFr } from './calendar-shared.js';

/** The operator's calendar: documents are dated, and numbers counted by year, in French time. */
export const OPERATOR_TIME_ZONE = 'Europe/Paris';

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An `Intl.DateTimeFormat`, made once per locale and options and then reused: making one costs
 * about 50 times what formatting a date with it does (0.15 ms against 0.003), which a page of
 * 200 dates, a PDF or 5,000 e-mails would pay on every date.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\n${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** Today in the operator's calendar, `YYYY-MM-DD` (the date written on documents). */
export function todayInFrance(now: Date = new Date()): string {
  return dateTimeFormat('en-CA', { timeZone: OPERATOR_TIME_ZONE }).format(now);
}

/** Words beginning with an aspirated h, before which "de" stays whole ("de Hollande"). */
const ASPIRATED_H = new Set([
  'hall',
  'halle',
  'halles',
  'hameau',
  'hangar',
  'hardi',
  'haut',
  'haute',
  'hauts',
  'hautes',
  'havre',
  'hollande',
  'hongrie',
  'huit',
  'hurlevent',
]);

/**
 * "de" before a name, a month or an e-mail address, as French writes it: elided before a
 * vowel or a mute h, contracted with a leading article. Every page, e-mail and PDF that writes
 * "de <something typed>" goes through it.
 *
 * @example ofFr('Élodie') // "d'Élodie"
 * @example ofFr('Marc') // "de Marc"
 * @example ofFr('avril 2027') // "d'avril 2027"
 * @example ofFr('Hélène') // "d'Hélène" (names: h is mute)
 * @example ofFr('Yann') // "de Yann" (y before a vowel is a consonant); ofFr('Yves') // "d'Yves"
 * @example ofFr('Le Chat Noir') // "du Chat Noir"; ofFr('Les Tréteaux') // "des Tréteaux"
 */
export function ofFr(word: string): string {
  const text = word.trim();
  const contracted = /^(le|les) (.+)$/iu.exec(text);
  if (contracted) return `${contracted[1]!.toLowerCase() === 'le' ? 'du' : 'des'} ${contracted[2]}`;
  const plain = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const first = plain[0] ?? '';
  const elided =
    'aeiouœæ'.includes(first) && first !== ''
      ? true
      : first === 'h'
        ? !ASPIRATED_H.has(plain.split(/[^a-z]/)[0]!)
        : first === 'y'
          ? !'aeiouy'.includes(plain[1] ?? 'a')
          : false;
  return elided ? `d'${text}` : `de ${text}`;
}
