/**
 * An e-mail of the outbox may name a Reply-To: the contract-note e-mail to the payroll
 * mailbox answers its author, not the operator's no-reply sender. Null: no Reply-To header.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.mail_outbox add column reply_to text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.mail_outbox drop column reply_to`.execute(db);
}
