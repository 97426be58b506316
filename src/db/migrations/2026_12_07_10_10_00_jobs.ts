/**
 * The durable jobs (docs/jobs.md): work that must happen after a commit (a bulletin's PDF, an
 * invoice's Factur-X document) is a row written in that commit, taken by one worker of any
 * instance under a lease its heartbeat renews, retried with backoff, and shown to staff when it
 * fails. An invoice remembers that its notification waits for its document.
 *
 * The work already owed when this runs is queued too: published computed payslips without their
 * bulletin, invoices and credit notes without their documents.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table public.jobs (
    id bigint generated always as identity primary key,
    kind text not null check (char_length(kind) between 1 and 60),
    payload jsonb not null default '{}',
    org_id uuid references public.organizations(id) on delete cascade,
    subject_type text,
    subject_id text,
    status text not null default 'pending' check (status in ('pending', 'running', 'done', 'failed')),
    attempts integer not null default 0,
    max_attempts integer not null default 5 check (max_attempts between 1 and 100),
    run_after timestamptz not null default now(),
    lease_owner text,
    lease_until timestamptz,
    last_error text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    finished_at timestamptz
  )`.execute(db);
  // What a worker looks for: due pending jobs, and running ones whose lease ran out.
  await sql`create index jobs_due_idx on public.jobs (run_after, id) where status in ('pending', 'running')`.execute(db);
  await sql`create index jobs_failed_idx on public.jobs (updated_at desc, id) where status = 'failed'`.execute(db);
  // One live job per subject and kind: queuing it twice (a retry, a second request) is a no-op.
  await sql`create unique index jobs_one_live_key on public.jobs (kind, subject_id) where status in ('pending', 'running')`.execute(db);
  await sql`alter table public.invoices add column notify_pending boolean not null default false`.execute(db);
  await sql`insert into public.jobs (kind, payload, org_id, subject_type, subject_id)
    select 'payroll.bulletin', jsonb_build_object('payslip_id', id), org_id, 'payslip', id::text
      from public.payslips where source = 'calcule' and status = 'publie' and pdf_id is null`.execute(db);
  await sql`insert into public.jobs (kind, payload, org_id, subject_type, subject_id)
    select 'invoice.document', jsonb_build_object('invoice_id', id), org_id, 'invoice', id::text
      from public.invoices where pdf_id is null or xml_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table public.invoices drop column if exists notify_pending`.execute(db);
  await sql`drop table if exists public.jobs`.execute(db);
}
