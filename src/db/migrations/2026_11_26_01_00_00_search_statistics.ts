/**
 * The contracts grid's search (`search_text like '%term%'`) is planned from the column's
 * histogram: PostgreSQL counts the histogram values that contain the term. With the default 100
 * values, a term that one of them happens to contain is estimated at 1 % of the table (10,101
 * rows of 1,000,000 for one employee's 500 contracts), and the planner walks the grid's index in
 * order, filtering every row: 131-166 ms a page instead of 6 ms through the trigram index, and 2 s
 * under 32 connections (bench/README.md). With 1,000 values that floor is 0.1 %: the rare term
 * goes through the trigram index, a common one (half the contracts) still walks the index in
 * order. The price: `ANALYZE contracts` samples 300,000 rows instead of 30,000 (2 s instead of
 * 0.2 at 1,000,000 contracts), and planning a search takes about 0.1 ms more.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contracts alter column search_text set statistics 1000`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contracts alter column search_text set statistics -1`.execute(db);
}
