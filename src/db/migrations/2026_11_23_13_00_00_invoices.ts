/**
 * Invoices and contribution calls, and e-mails to several addresses.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const statements = [
  // An outbox row may carry several To and Cc addresses. `recipient` stays the
  // first To (every existing reader and writer keeps working); the others are added.
  `alter table public.mail_outbox
     add column extra_to text[] not null default '{}',
     add column cc text[] not null default '{}'`,

  // Numbers F-YYYY-NNNNNN come from number_series ('invoice', year of issue_date),
  // reserved in the creating transaction: continuous, no gap, no duplicate. The lines are
  // kept as they were issued (jsonb: an invoice is written once and never changes).
  `create table public.invoices (
     id uuid primary key default gen_random_uuid(),
     number text not null unique check (number ~ '^F-[0-9]{4}-[0-9]{6}$'),
     org_id uuid not null references public.organizations(id) on delete restrict,
     invoice_type text not null check (invoice_type in ('paie_mensuelle', 'frais_ouverture', 'prestation')),
     payment_method text not null check (payment_method in ('prelevement', 'virement')),
     period_label text not null default '',
     issue_date date not null,
     due_date date not null,
     lines jsonb not null check (jsonb_typeof(lines) = 'array'),
     total_ht numeric(12,2) not null check (total_ht >= 0),
     total_vat numeric(12,2) not null check (total_vat >= 0),
     total_ttc numeric(12,2) not null check (total_ttc = total_ht + total_vat),
     notified boolean not null default false,
     notified_at timestamptz,
     pdf_id text,
     created_by uuid references auth.users(id) on delete set null,
     created_at timestamptz not null default now(),
     check (due_date >= issue_date),
     check (substr(number, 3, 4)::int = extract(year from issue_date)::int),
     check (notified = (notified_at is not null))
   )`,
  // Lists: newest number first, for one organization or all; the staff filter on notified.
  `create index invoices_org_idx on public.invoices (org_id, number desc)`,
  `create index invoices_notified_idx on public.invoices (notified, number desc)`,
  // French law: an issued invoice is never deleted (a credit note would cancel it).
  `create function public.invoices_forbid_delete() returns trigger language plpgsql as $$
   begin
     raise exception 'an issued invoice is never deleted (%)', old.number using errcode = 'restrict_violation';
   end
   $$`,
  `create trigger invoices_no_delete before delete on public.invoices
     for each row execute function public.invoices_forbid_delete()`,

  // Contribution calls (appels de cotisations) of an organization.
  `create table public.contribution_calls (
     id uuid primary key default gen_random_uuid(),
     org_id uuid not null references public.organizations(id) on delete cascade,
     period text not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
     due_date date not null,
     lines jsonb not null check (jsonb_typeof(lines) = 'array'),
     total numeric(12,2) not null check (total >= 0),
     status text not null default 'a_payer' check (status in ('a_payer', 'paye')),
     created_by uuid references auth.users(id) on delete set null,
     created_at timestamptz not null default now()
   )`,
  `create index contribution_calls_org_idx on public.contribution_calls (org_id, period desc, id desc)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of [
    'drop table if exists public.contribution_calls',
    'drop table if exists public.invoices',
    'drop function if exists public.invoices_forbid_delete()',
    'alter table public.mail_outbox drop column if exists extra_to, drop column if exists cc',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
