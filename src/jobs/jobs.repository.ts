/** The jobs table's SQL: claim, renew, finish, fail, retry, and the staff's list. */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { JobStatus } from '../db/schema.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  org_id: string | null;
  subject_type: string | null;
  subject_id: string | null;
  attempts: number;
  max_attempts: number;
}

const lease = (leaseMs: number) => sql<Date>`now() + ${leaseMs}::double precision * interval '1 millisecond'`;

/**
 * Takes the oldest due job of these kinds: pending and due, or running under a lease that ran
 * out (its worker died). One statement: the row lock of `FOR UPDATE SKIP LOCKED` lasts until it
 * commits, the lease keeps the others away after. The attempt is counted here, so that a job
 * that kills its process still stops being retried.
 */
export async function claimJob(db: Database, kinds: readonly string[], owner: string, leaseMs: number): Promise<ClaimedJob | undefined> {
  if (kinds.length === 0) return undefined;
  const { rows } = await sql<ClaimedJob>`
    with due as (
      select id from public.jobs
       where status in ('pending', 'running')
         and kind in (${sql.join(kinds)})
         and ((status = 'pending' and run_after <= now()) or (status = 'running' and lease_until < now()))
       order by run_after, id
       limit 1
       for update skip locked
    )
    update public.jobs j
       set status = 'running', lease_owner = ${owner}, lease_until = ${lease(leaseMs)},
           attempts = j.attempts + 1, updated_at = now()
      from due
     where j.id = due.id
    returning j.id, j.kind, j.payload, j.org_id, j.subject_type, j.subject_id, j.attempts, j.max_attempts`.execute(db);
  return rows[0];
}

/** The heartbeat: renews the leases still this owner's; the ids renewed. */
export async function renewLeases(db: Database, ids: readonly string[], owner: string, leaseMs: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('jobs')
    .set({ lease_until: lease(leaseMs) })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Marks the job done if it is still this owner's; false when it was not (its commit must roll back). */
export async function finishJob(db: Database, id: string, owner: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'done', lease_owner: null, lease_until: null, last_error: null, finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An attempt failed: due again after `delayMs`, or failed for good (`delayMs` null); false when the job was no longer this owner's. */
export async function failAttempt(db: Database, id: string, owner: string, reason: string, delayMs: number | null): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: delayMs === null ? 'failed' : 'pending',
      run_after: delayMs === null ? sql`run_after` : lease(delayMs),
      lease_owner: null,
      lease_until: null,
      last_error: reason,
      updated_at: sql`now()`,
      ...(delayMs === null ? { finished_at: sql`now()` } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A stopping worker hands a job back: claimable at once, the attempt not counted. */
export async function releaseJob(db: Database, id: string, owner: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'pending', lease_owner: null, lease_until: null, run_after: sql`now()`, attempts: sql`greatest(attempts - 1, 0)`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .execute();
}

const LISTED = [
  'id',
  'kind',
  'org_id',
  'subject_type',
  'subject_id',
  'status',
  'attempts',
  'max_attempts',
  'last_error',
  'created_at',
  'updated_at',
  'finished_at',
] as const;

export const JOB_ORDER = [{ ref: 'jobs.id', direction: 'desc', kind: 'integer' }] as const satisfies KeysetOrder;

/** Jobs of a status, newest first, with their organization's name (`limit + 1` rows, see `keyset`). */
export function listJobs(db: Database, status: JobStatus, cursor: CursorValue[] | null, limit: number) {
  const query = db
    .selectFrom('jobs')
    .leftJoin('organizations', 'organizations.id', 'jobs.org_id')
    .select([...LISTED.map((c) => `jobs.${c}` as const), 'organizations.name as org_name'])
    .where('jobs.status', '=', status);
  return keyset(query, JOB_ORDER, cursor, limit).execute();
}
export type JobListRow = Awaited<ReturnType<typeof listJobs>>[number];

export function findJob(db: Database, id: string) {
  return db
    .selectFrom('jobs')
    .select([...LISTED])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A failed job made due again, its attempts counted anew; undefined when it is not failed (or
 * another live job of its subject was queued since: that one does the work).
 */
export async function retryJob(db: Database, id: string) {
  const row = await db.selectFrom('jobs').select(['id', 'kind', 'subject_id', 'status']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (row?.status !== 'failed') return undefined;
  if (row.subject_id !== null) {
    const live = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', row.kind)
      .where('subject_id', '=', row.subject_id)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    if (live) return undefined;
  }
  return db
    .updateTable('jobs')
    .set({ status: 'pending', attempts: 0, run_after: sql`now()`, finished_at: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(['id', 'kind', 'org_id', 'subject_type', 'subject_id'])
    .executeTakeFirst();
}

/** The live or last job of a subject (its document's state, for an answer that waits on it). */
export function latestJobOf(db: Database, kind: string, subjectId: string) {
  return db
    .selectFrom('jobs')
    .select(['id', 'status', 'last_error'])
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
