/**
 * Every change of the service's data is made the same way: its
 * writes, its audit events and its e-mails in one transaction, the e-mails delivered after
 * commit. `applyChange` is that way, for the API, the pages and the command line alike:
 *
 * ```ts
 * await applyChange(ctx, async (change) => {
 *   await members.revokeMembership(change.trx, orgId, userId);
 *   await change.audit({ org_id: orgId, action: 'revoked', ...actorOf(caller), ... });
 *   await change.mail({ kind: 'access_updated', to, ...rendered });
 * });
 * ```
 *
 * If anything throws, nothing is written: no event and no e-mail for a change that did not
 * happen. After commit, the mail worker is nudged when the change queued an
 * e-mail, so that it leaves at once rather than at the next poll; the job worker likewise
 * after a change that queued a job (`change.jobs`: a bulletin to render, a document to make).
 *
 * One change is written otherwise, with the same guarantees: an invitation of an address that
 * has no account is a single statement (`inviteNewAccount` in access.service.ts).
 */
import type { Database } from '../db/database.ts';
import type { OutgoingMail } from '../mail/outbox.ts';
import { transactionWithMail, type MailContext } from '../mail/mail-transaction.ts';
import { enqueueJobs, type OutgoingJob } from '../jobs/queue.ts';
import { moduleEventRow, recordModuleEvents, type AccessEvent, type ModuleEvent } from './audit.repository.ts';

export interface ChangeContext extends MailContext {
  /**
   * The job worker of this process, nudged after a commit that queued a job. Absent in the
   * command line: the server's worker runs its jobs at its next poll.
   */
  jobs?: { nudge(): void };
}

export interface Change {
  /** The transaction: every write of the change goes through it. */
  trx: Database;
  /** Records an audit event in the change's transaction (written before commit). */
  audit(event: AccessEvent): Promise<void>;
  /** Records an audit event of the payroll modules (contracts, employees…) in the change's transaction. */
  event(event: ModuleEvent): Promise<void>;
  /** Several module events in few statements (bulk changes). */
  events(events: readonly ModuleEvent[]): Promise<void>;
  /** Queues an e-mail (the outbox) in the change's transaction; it leaves after commit. */
  mail(mail: OutgoingMail): Promise<void>;
  /** Queues several e-mails in few statements (bulk notifications). */
  mails(mails: readonly OutgoingMail[]): Promise<void>;
  /** Queues durable jobs (src/jobs) in the change's transaction; a worker runs them after commit. */
  jobs(jobs: readonly OutgoingJob[]): Promise<void>;
}

/**
 * Single audit events and e-mails are held until the work is done, then written together in
 * one statement before commit (an invitation: one round trip instead of two).
 */
export async function applyChange<T>(ctx: ChangeContext, work: (change: Change) => Promise<T>): Promise<T> {
  const audits: AccessEvent[] = [];
  const events: ModuleEvent[] = [];
  let queuedJobs = false;
  const result = await transactionWithMail(
    ctx,
    ({ trx, mail, mails }) =>
      work({
        trx,
        mail,
        mails,
        events: (many) => recordModuleEvents(trx, many),
        audit: async (event) => void audits.push(event),
        event: async (event) => void events.push(event),
        jobs: async (jobs) => {
          await enqueueJobs(trx, jobs);
          if (jobs.length > 0) queuedJobs = true;
        },
      }),
    () => [
      { table: 'access_events', rows: audits },
      { table: 'module_events', rows: events.map(moduleEventRow) },
    ],
  );
  if (queuedJobs) ctx.jobs?.nudge();
  return result;
}
