/**
 * The staff's view of the durable jobs (src/jobs): the failed ones with their reason, and a
 * retry, recorded as a module event of the organization the job is for.
 */
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import type { Database } from '../db/database.ts';
import type { JobStatus } from '../db/schema.ts';
import { fieldErrors } from '../http/errors.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { JOB_LABELS } from '../jobs/kinds.ts';
import * as jobs from '../jobs/jobs.repository.ts';
import { staffErrors } from './staff.errors.ts';

const STATUSES: readonly JobStatus[] = ['failed', 'pending', 'running', 'done'];

function jobView(row: Omit<jobs.JobListRow, 'org_name'> & { org_name?: string | null }) {
  return {
    id: row.id,
    kind: row.kind,
    label: JOB_LABELS[row.kind] ?? row.kind,
    org_id: row.org_id,
    org_name: row.org_name ?? null,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    status: row.status,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** `GET /api/staff/jobs?status=failed`: newest first. */
export async function listJobs(db: Database, query: { status?: string; limit?: string; cursor?: string }) {
  const status = (query.status ?? 'failed') as JobStatus;
  if (!STATUSES.includes(status)) throw fieldErrors.invalid('status', 'Le statut (failed, pending, running ou done)');
  const limit = parseLimit(query.limit);
  const rows = await jobs.listJobs(db, status, decodeCursor(query.cursor), limit);
  const page = keysetPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(jobView), next_cursor: page.next_cursor };
}

/** `POST /api/staff/jobs/{id}/retry`: a failed job due again at once; 404, or 409 `job_not_failed`. */
export async function retryJob(ctx: ChangeContext, caller: Pick<Caller, 'userId' | 'email'>, id: string) {
  if (!/^\d{1,18}$/.test(id)) throw staffErrors.jobNotFound();
  const retried = await applyChange(ctx, async (change) => {
    const job = await jobs.findJob(change.trx, id);
    if (!job) throw staffErrors.jobNotFound();
    const row = await jobs.retryJob(change.trx, id);
    if (!row) throw staffErrors.jobNotFailed();
    await change.event({
      org_id: job.org_id,
      action: 'job.retried',
      subject_type: 'job',
      subject_id: id,
      ...actorOf(caller),
      details: { kind: job.kind, subject_type: job.subject_type, subject_id: job.subject_id, attempts: job.attempts, last_error: job.last_error },
    });
    return row;
  });
  ctx.jobs?.nudge();
  const job = (await jobs.findJob(ctx.db, retried.id))!;
  return { ok: true as const, message: 'Travail relancé.', job: jobView(job) };
}
