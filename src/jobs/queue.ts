/**
 * Queuing a job: a row written in the transaction of the change that needs it, like an e-mail
 * in the outbox. If the change rolls back, no job; once it commits, some worker will run it.
 * A job naming a subject is queued once while it is live (pending or running): queuing it again
 * is a no-op, so that a retry or a second request never makes the work twice.
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

export interface OutgoingJob {
  /** Which handler runs it: `payroll.bulletin`, `invoice.document`. */
  kind: string;
  /** What the handler needs, as JSON (ids, never a document). */
  payload: Record<string, unknown>;
  /** The organization it is for, shown to staff when it fails. */
  orgId?: string | null;
  /** What it works on (`payslip`, `invoice`) and its id: shown to staff, one live job per subject. */
  subject?: { type: string; id: string };
  /** @default 5 */
  maxAttempts?: number;
}

/** Rows per statement: 6 parameters each, well under PostgreSQL's 65,535. */
const BATCH = 1000;

export async function enqueueJobs(db: Database, jobs: readonly OutgoingJob[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += BATCH) {
    const rows = jobs.slice(i, i + BATCH).map((job) => ({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      org_id: job.orgId ?? null,
      subject_type: job.subject?.type ?? null,
      subject_id: job.subject?.id ?? null,
      ...(job.maxAttempts !== undefined ? { max_attempts: job.maxAttempts } : {}),
    }));
    await db
      .insertInto('jobs')
      .values(rows)
      .onConflict((oc) => oc.columns(['kind', 'subject_id']).where(sql<boolean>`status in ('pending', 'running')`).doNothing())
      .execute();
  }
}
