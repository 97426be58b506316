/**
 * Invoices are issued in chronological order (French invoicing rules): a bulk creation reads
 * the latest issue date, under the series lock, before it numbers its invoices. This index
 * makes that read one index probe instead of a scan of every invoice ever issued.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index invoices_issue_date_idx on public.invoices (issue_date desc, number desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists public.invoices_issue_date_idx`.execute(db);
}
