/**
 * The mail outbox (CONTRACT 6). An e-mail is a row written in the same transaction as the
 * change that causes it: if the change rolls back, no e-mail; if it commits, the e-mail will
 * be delivered by the worker, however long SMTP is down.
 */
import type { Database } from '../db/database.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface OutgoingMail extends RenderedMail {
  /** What the e-mail is, for logs and tests: `activation`, `access_updated`, `sign_in`. */
  kind: string;
  to: string;
}

export async function enqueueMail(db: Database, mail: OutgoingMail): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({ kind: mail.kind, recipient: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html })
    .execute();
}
