/**
 * What a SEPA credit transfer may carry, shared by employees (the IBAN and name typed), payslips
 * (the payslips available for a transfer) and transfers (the batch and its file): the zone, from
 * `ibantools`' country table, and the EPC's Latin character set.
 *
 * A bank refuses a `<SvcLvl>SEPA</SvcLvl>` transfer to an account outside the zone (Brazil,
 * Saudi Arabia, Turkey, Mauritius…), however valid its IBAN, and refuses or mangles a name
 * outside the character set: names are transliterated (`any-ascii`: "Ñúñez-Łódź" →
 * "Nunez-Lodz", "Дворжак" → "Dvorzhak"), never reduced to nothing.
 */
import anyAscii from 'any-ascii';
import { getCountrySpecifications, isSEPACountry, isValidIBAN } from 'ibantools';

/** The two-letter IBAN prefixes of the SEPA zone, sorted (for SQL: `left(iban, 2) in (…)`). */
export const SEPA_COUNTRIES: readonly string[] = Object.entries(getCountrySpecifications())
  .filter(([, spec]) => spec.SEPA === true)
  .map(([country]) => country)
  .sort();

/** An IBAN (electronic form) that is valid and of the SEPA zone: one a salary transfer can pay. */
export function isSepaIban(iban: string | null | undefined): iban is string {
  return typeof iban === 'string' && isValidIBAN(iban) && isSEPACountry(iban.slice(0, 2));
}

/**
 * Pictographs and what joins or modifies them: dropped before transliteration, which would
 * otherwise write "😀" as ":grinning:" in a bank file.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the joiners and selectors are listed on purpose, to be dropped one by one.
const PICTOGRAPHS = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d\ufe0e\ufe0f\u20e3\u{e0020}-\u{e007f}]/gu;

function foldToSepa(text: string): string {
  return anyAscii(text.replace(PICTOGRAPHS, ' '))
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A text as a SEPA file should carry it: transliterated to Latin letters, then kept to the
 * EPC's character set (letters without accents, digits, `/ - ? : ( ) . , ' +` and space), at
 * most `max` characters. "Hélène Lefèvre" → "Helene Lefevre", "山田 太郎" → "ShanTian TaiLang".
 * A text that leaves nothing is written `-` (a creditor name never gets there: see
 * `isSepaWritable`).
 */
export function sepaText(text: string, max = 70): string {
  return (foldToSepa(text) || '-').slice(0, max).trim();
}

/** Whether the text leaves at least one letter or digit once written for a SEPA file. */
export function isSepaWritable(text: string): boolean {
  return /[A-Za-z0-9]/.test(foldToSepa(text).slice(0, 70));
}
