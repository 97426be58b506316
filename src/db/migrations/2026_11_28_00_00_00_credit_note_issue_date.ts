/**
 * A credit note is dated no earlier than the last one issued: its creation reads the
 * latest credit note under the series lock. Credit notes are a few rows among the invoices, and
 * `invoices_issue_date_idx` walked from its newest entry meets every invoice before the first of
 * them; this partial index holds the credit notes alone, so that read is one probe. Invoices pay
 * nothing for it: rows of kind 'facture' are not in it.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index invoices_credit_notes_issue_date_idx on public.invoices (issue_date desc, number desc) where kind = 'avoir'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists public.invoices_credit_notes_issue_date_idx`.execute(db);
}
