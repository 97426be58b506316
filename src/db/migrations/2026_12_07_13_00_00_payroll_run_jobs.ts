/**
 * The payroll run becomes a durable job (docs/jobs.md): a `payroll.run` job is queued with each
 * run, and its lease, attempts and heartbeat are the job's. `payroll_runs` keeps what the staff
 * read (status, progress, drafts, skipped contracts, message) and loses its own lease.
 *
 * The runs waiting when this runs get their job, their interruptions counted so far carried over.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into public.jobs (kind, payload, org_id, subject_type, subject_id, max_attempts, attempts)
    select 'payroll.run', jsonb_build_object('run_id', id), org_id, 'payroll_run', id::text, 3, least(attempts, 3)
      from public.payroll_runs where status = 'en_cours'
    on conflict do nothing`.execute(db);
  await sql`drop index if exists public.payroll_runs_due_idx`.execute(db);
  await sql`alter table public.payroll_runs drop column attempts, drop column lease_owner, drop column lease_until`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.payroll_runs add column attempts integer not null default 0, add column lease_owner text, add column lease_until timestamptz`.execute(
    db,
  );
  await sql`create index payroll_runs_due_idx on public.payroll_runs (created_at) where status = 'en_cours'`.execute(db);
  await sql`delete from public.jobs where kind = 'payroll.run'`.execute(db);
}
