/** Dates as a French user types them. */

/** `1/3/2027` or `01/03/2027` → `2027-03-01`; anything else as it is, for the API to refuse. */
export function isoDate(value) {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return match ? `${match[3]}-${match[2].padStart(2, '0')}-${match[1].padStart(2, '0')}` : value.trim();
}

/** `3/2027` or `03/2027` → `2027-03`; anything else as it is, for the API to refuse. */
export function isoPeriod(value) {
  const match = /^(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return match ? `${match[2]}-${match[1].padStart(2, '0')}` : value.trim();
}
