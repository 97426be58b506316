/**
 * Yearly number series (`number_series`): contract numbers C-YYYY-NNNNNN, invoice numbers
 * F-YYYY-NNNNNN. One row per series and year, counted in the caller's transaction by one
 * `insert … on conflict do update … returning`: the row stays locked until that transaction
 * ends, so concurrent creations of one series wait for each other and never get the same
 * number, and a rolled-back creation gives its numbers back to the next one. Numbers are
 * therefore continuous: no gap, no duplicate (French invoicing rules).
 */
import { sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * Reserves `count` consecutive numbers of the series `series` for `year`; answers the first
 * (the range is `first … first + count - 1`). Call it inside the creating transaction.
 */
export async function reserveInSeries(db: Database, series: string, year: number, count = 1): Promise<number> {
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`cannot reserve ${count} numbers`);
  const row = await db
    .insertInto('number_series')
    .values({ series, year, last_value: count })
    .onConflict((oc) => oc.columns(['series', 'year']).doUpdateSet({ last_value: sql`number_series.last_value + ${count}::int` }))
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return row.last_value - count + 1;
}

/**
 * Locks every year of the series `series` until the end of the transaction, in year order (two
 * callers never deadlock), before a reservation: a rule that reads across the years of a series
 * (invoices are issued in chronological order, whatever the year) then holds under concurrency,
 * since every creation of the series waits here for the one before to commit. A year not yet
 * created is serialized by `reserveInSeries`' insert.
 */
export async function lockSeries(db: Database, series: string): Promise<void> {
  await db.selectFrom('number_series').select('year').where('series', '=', series).orderBy('year').forUpdate().execute();
}

/** The next number of a series (one reserved). */
export function nextInSeries(db: Database, series: string, year: number): Promise<number> {
  return reserveInSeries(db, series, year, 1);
}

/**
 * `prefix-YYYY-NNNNNN`, six digits.
 * @example formatSeriesNumber('F', 2027, 42) // 'F-2027-000042'
 */
export function formatSeriesNumber(prefix: string, year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999_999) {
    throw new Error(`number ${sequence} of ${prefix}-${year} does not fit in six digits`);
  }
  return `${prefix}-${year}-${String(sequence).padStart(6, '0')}`;
}
