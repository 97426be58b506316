/** Dates as a French user types them. */

/** `1/3/2027` or `01/03/2027` → `2027-03-01`; anything else as it is, for the API to refuse. */
export function isoDate(value) {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return match ? `${match[3]}-${match[2].padStart(2, '0')}-${match[1].padStart(2, '0')}` : value.trim();
}

/** `31/01/2027` → `01/02/2027`, the calendar's next day; null for what is not a day of it. */
export function nextDayFr(value) {
  if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(value.trim())) return null;
  const iso = isoDate(value);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return null;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (day.toISOString().slice(0, 10) !== iso) return null;
  day.setUTCDate(day.getUTCDate() + 1);
  const [y, m, d] = day.toISOString().slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

/** `3/2027` or `03/2027` → `2027-03`; anything else as it is, for the API to refuse. */
export function isoPeriod(value) {
  const match = /^(\d{1,2})\/(\d{4})$/.exec(value.trim());
  return match ? `${match[2]}-${match[1].padStart(2, '0')}` : value.trim();
}
