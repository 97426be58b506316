/**
 * A transaction that may queue e-mails: its writes and its outbox rows commit together, and
 * the mail worker is nudged after commit when it queued any, so that they leave at once rather
 * than at the next poll. `applyChange` (src/audit) builds on it, adding the audit trail; code
 * below the audit layer (sign-in links) uses it directly. No caller nudges the worker itself.
 */
import type { Database } from '../db/database.ts';
import { enqueueMail, enqueueMails, type OutgoingMail } from './outbox.ts';

export interface MailContext {
  db: Database;
  /**
   * The mail worker of this process, nudged after commit. Absent in the command line: its
   * e-mails are sent by the server's worker at its next poll.
   */
  mail?: { nudge(): void };
}

export interface MailingTransaction {
  /** The transaction: every write goes through it. */
  trx: Database;
  /** Queues an e-mail (the outbox) in the transaction; it leaves after commit. */
  mail(mail: OutgoingMail): Promise<void>;
  /** Queues several e-mails in few statements (bulk notifications). */
  mails(mails: readonly OutgoingMail[]): Promise<void>;
}

export async function transactionWithMail<T>(ctx: MailContext, work: (tx: MailingTransaction) => Promise<T>): Promise<T> {
  let queuedMail = false;
  const result = await ctx.db.transaction().execute((trx) =>
    work({
      trx,
      async mail(mail) {
        await enqueueMail(trx, mail);
        queuedMail = true;
      },
      async mails(mails) {
        await enqueueMails(trx, mails);
        if (mails.length > 0) queuedMail = true;
      },
    }),
  );
  if (queuedMail) ctx.mail?.nudge();
  return result;
}
