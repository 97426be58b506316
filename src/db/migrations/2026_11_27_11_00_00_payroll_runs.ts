/**
 * The computed payroll: payslips gain their source, the model's figures, lines
 * and situation, and a draft status; a run of the computation is a durable job.
 *
 * - `payslips.status` gains `brouillon` (computed, not yet validated). A draft holds its
 *   contract's month like any live payslip (`payslip_contracts_one_live_key`), so a contract
 *   has at most one payslip per period that is not cancelled, whoever made it.
 * - `payroll_runs`: one row per computation, with its progress (`done`/`total`), its lease
 *   (`lease_owner`, `lease_until`: the instance computing it, renewed as it goes) and its
 *   outcome. At most one run `en_cours` per organization and period (a partial unique index):
 *   a second request gets the running one.
 *
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table public.payslips drop constraint if exists payslips_status_check`,
  `alter table public.payslips add constraint payslips_status_check check (status in ('brouillon', 'publie', 'annule'))`,
  `alter table public.payslips
     add column source text not null default 'saisi' check (source in ('calcule', 'saisi')),
     add column model_version text,
     add column situation jsonb,
     add column lines jsonb,
     add column employee_contributions numeric(12,2),
     add column employer_contributions numeric(12,2),
     add column net_before_tax numeric(12,2),
     add column net_taxable numeric(12,2),
     add column net_social numeric(12,2),
     add column pas_rate numeric(7,4),
     add column pas_amount numeric(12,2),
     add column employer_cost numeric(12,2),
     add column run_id uuid,
     add column published_at timestamptz`,
  `create index payslips_org_period_status_idx on public.payslips (org_id, period, status)`,
  `create table public.payroll_runs (
     id uuid primary key default gen_random_uuid(),
     org_id uuid not null references public.organizations(id) on delete cascade,
     period text not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
     status text not null default 'en_cours' check (status in ('en_cours', 'termine', 'echoue')),
     done integer not null default 0,
     total integer not null default 0,
     payslip_ids jsonb not null default '[]',
     skipped jsonb not null default '[]',
     message text,
     attempts integer not null default 0,
     lease_owner text,
     lease_until timestamptz,
     created_by uuid references auth.users(id) on delete set null,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     finished_at timestamptz
   )`,
  `create unique index payroll_runs_one_running_key on public.payroll_runs (org_id, period) where status = 'en_cours'`,
  `create index payroll_runs_due_idx on public.payroll_runs (created_at) where status = 'en_cours'`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of [
    'drop table if exists public.payroll_runs',
    'drop index if exists public.payslips_org_period_status_idx',
    `alter table public.payslips drop column if exists source, drop column if exists model_version, drop column if exists situation,
       drop column if exists lines, drop column if exists employee_contributions, drop column if exists employer_contributions,
       drop column if exists net_before_tax, drop column if exists net_taxable, drop column if exists net_social,
       drop column if exists pas_rate, drop column if exists pas_amount, drop column if exists employer_cost,
       drop column if exists run_id, drop column if exists published_at`,
    `delete from public.payslips where status = 'brouillon'`,
    'alter table public.payslips drop constraint if exists payslips_status_check',
    `alter table public.payslips add constraint payslips_status_check check (status in ('publie', 'annule'))`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
