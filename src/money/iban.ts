/** IBANs as people read them. */

/** "FR7630006000011234567890189" → "FR76 3000 6000 0112 3456 7890 189" (as printed for people). */
export function ibanForReading(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/** What answers show of an IBAN: its last four characters. */
export function ibanLast4(iban: string | null): string | null {
  return iban ? iban.slice(-4) : null;
}
