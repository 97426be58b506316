/**
 * A transaction that may queue e-mails: its writes and its outbox rows commit together, and
 * the mail worker is nudged after commit when it queued any, so that they leave at once rather
 * than at the next poll. `applyChange` (src/audit) builds on it, adding the audit trail; code
 * below the audit layer (sign-in links) uses it directly. No caller nudges the worker itself.
 *
 * Single e-mails are held until the work is done and written in one statement with the
 * caller's other records (`records`: the audit events), just before commit.
 */
import type { Database } from '../db/database.ts';
import { insertAll, type PendingRows } from '../db/insert-all.ts';
import { enqueueMails, outboxRow, type OutgoingMail } from './outbox.ts';

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
  /** Queues an e-mail (the outbox) in the transaction, written before commit; it leaves after commit. */
  mail(mail: OutgoingMail): Promise<void>;
  /** Queues several e-mails at once, in few statements (bulk notifications). */
  mails(mails: readonly OutgoingMail[]): Promise<void>;
}

export async function transactionWithMail<T>(
  ctx: MailContext,
  work: (tx: MailingTransaction) => Promise<T>,
  records: () => readonly PendingRows[] = () => [],
): Promise<T> {
  let queuedMail = false;
  const result = await ctx.db.transaction().execute(async (trx) => {
    const pending: OutgoingMail[] = [];
    const value = await work({
      trx,
      async mail(mail) {
        outboxRow(mail); // refuses an e-mail without a recipient now, where it was queued
        pending.push(mail);
      },
      async mails(mails) {
        await enqueueMails(trx, mails);
        if (mails.length > 0) queuedMail = true;
      },
    });
    await insertAll(trx, [{ table: 'mail_outbox', rows: pending.map(outboxRow) }, ...records()]);
    if (pending.length > 0) queuedMail = true;
    return value;
  });
  if (queuedMail) ctx.mail?.nudge();
  return result;
}
