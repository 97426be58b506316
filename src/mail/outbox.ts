/**
 * The mail outbox. An e-mail is a row written in the same transaction as the
 * change that causes it: if the change rolls back, no e-mail; if it commits, the e-mail will
 * be delivered by the worker, however long SMTP is down.
 *
 * A row may carry several To and Cc addresses: `recipient` is the first To,
 * `extra_to` the others, `cc` the copies.
 */
import type { Database } from '../db/database.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface OutgoingMail extends RenderedMail {
  /** What the e-mail is, for logs and tests: `activation`, `access_updated`, `sign_in`, `invoice`. */
  kind: string;
  /** One address, or several (at least one). */
  to: string | readonly string[];
  /** Copies. */
  cc?: readonly string[];
  /** Where an answer goes (the `Reply-To` header), when not to the sender. */
  replyTo?: string;
}

/** The outbox row of an e-mail. */
export function outboxRow(mail: OutgoingMail) {
  const [recipient, ...extra] = typeof mail.to === 'string' ? [mail.to] : mail.to;
  if (recipient === undefined) throw new Error(`an e-mail (${mail.kind}) needs a recipient`);
  return {
    kind: mail.kind,
    recipient,
    extra_to: extra,
    cc: [...(mail.cc ?? [])],
    reply_to: mail.replyTo ?? null,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
  };
}

export async function enqueueMail(db: Database, mail: OutgoingMail): Promise<void> {
  await db.insertInto('mail_outbox').values(outboxRow(mail)).execute();
}

/** Rows per statement: 8 parameters each, well under PostgreSQL's 65,535. */
const BATCH = 1000;

/** Several e-mails in few statements (bulk notifications): one multi-row insert per thousand. */
export async function enqueueMails(db: Database, mails: readonly OutgoingMail[]): Promise<void> {
  for (let i = 0; i < mails.length; i += BATCH) {
    await db
      .insertInto('mail_outbox')
      .values(mails.slice(i, i + BATCH).map(outboxRow))
      .execute();
  }
}
