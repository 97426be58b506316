/**
 * The first payroll modules: the organization fields they use, employees,
 * contracts with their salaries by date and notes, and the yearly number series.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const statements = [
  // Trigram indexes make the grid's substring search (`q`) fast on a large organization.
  // PGlite loads the extension's code at start-up (src/db/database.ts); PostgreSQL ships it
  // in contrib, and it is a trusted extension: the database owner may create it.
  `create extension if not exists pg_trgm`,

  // The columns existed untyped and nothing wrote them: the address lists become
  // arrays (a comma- or semicolon-separated value is split), the transfer mode a closed set.
  `alter table public.organizations
     alter column email_notifs type text[]
       using coalesce(regexp_split_to_array(nullif(btrim(email_notifs), ''), '\\s*[,;]\\s*'), '{}'),
     alter column email_notifs set default '{}',
     alter column email_notifs_cc type text[]
       using coalesce(regexp_split_to_array(nullif(btrim(email_notifs_cc), ''), '\\s*[,;]\\s*'), '{}'),
     alter column email_notifs_cc set default '{}'`,
  `update public.organizations
      set virements_salaires = case when lower(btrim(virements_salaires)) = 'odentas' then 'Odentas' else 'client' end`,
  `alter table public.organizations
     alter column email_notifs set not null,
     alter column email_notifs_cc set not null,
     alter column virements_salaires set default 'client',
     alter column virements_salaires set not null,
     add constraint organizations_virements_salaires_check check (virements_salaires in ('Odentas', 'client')),
     add constraint organizations_documents_slug_check check (documents_slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
     add column siret text constraint organizations_siret_check check (siret ~ '^[0-9]{14}$')`,
  `create unique index organizations_documents_slug_key on public.organizations (documents_slug)`,

  // The IBAN is kept in its electronic form (no spaces, upper case).
  `create table public.employees (
     id uuid primary key default gen_random_uuid(),
     org_id uuid not null references public.organizations(id) on delete cascade,
     first_name text not null check (first_name <> ''),
     last_name text not null check (last_name <> ''),
     email text,
     category text check (category in ('artiste', 'technicien', 'permanent')),
     iban text,
     bic text,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (org_id, id)
   )`,
  // The list's order (last name, first name), read by keyset.
  `create index employees_org_name_idx on public.employees (org_id, last_name, first_name, id)`,

  // Yearly number series (C-YYYY-NNNNNN, and later F-YYYY-NNNNNN): one row per series and
  // year, incremented in the transaction that uses the number.
  `create table public.number_series (
     series text not null,
     year integer not null,
     last_value integer not null check (last_value > 0),
     primary key (series, year)
   )`,

  // The employee belongs to the contract's organization (composite key).
  `create table public.contracts (
     id uuid primary key default gen_random_uuid(),
     org_id uuid not null references public.organizations(id) on delete cascade,
     contract_number text not null unique check (contract_number ~ '^C-[0-9]{4}-[0-9]{6}$'),
     employee_id uuid not null,
     kind text not null check (kind in ('CDDU', 'CDD', 'CDI')),
     status text not null default 'brouillon' check (status in ('brouillon', 'a_signer', 'signe', 'annule')),
     job_title text,
     show_title text,
     idcc text check (idcc ~ '^[0-9]{4}$'),
     start_date date not null,
     end_date date,
     monthly_gross numeric(12,2) check (monthly_gross >= 0),
     gross_total numeric(12,2) check (gross_total >= 0),
     generated_pdf_id text,
     signed_pdf_id text,
     signed_at timestamptz,
     -- Employee name, number and show folded (lower case, no accents) by the application,
     -- for the grid's search on both databases (PGlite has no unaccent dictionary files).
     search_text text not null,
     created_by uuid references auth.users(id) on delete set null,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     foreign key (org_id, employee_id) references public.employees (org_id, id),
     check (end_date is null or end_date >= start_date),
     check (kind <> 'CDDU' or show_title is not null),
     check ((kind = 'CDI') = (end_date is null))
   )`,
  // The grid: one organization, newest start first, then number descending (keyset).
  `create index contracts_grid_idx on public.contracts (org_id, start_date desc, contract_number desc)`,
  `create index contracts_status_grid_idx on public.contracts (org_id, status, start_date desc, contract_number desc)`,
  `create index contracts_employee_idx on public.contracts (employee_id, start_date desc, contract_number desc)`,
  // The staff grid across every organization.
  `create index contracts_all_grid_idx on public.contracts (start_date desc, contract_number desc)`,
  `create index contracts_search_idx on public.contracts using gin (search_text gin_trgm_ops)`,

  `create table public.contract_dates (
     contract_id uuid not null references public.contracts(id) on delete cascade,
     position integer not null,
     date date not null,
     nature text not null check (nature in ('representation', 'repetition', 'service', 'heures')),
     quantity numeric(12,3) not null check (quantity > 0),
     amount numeric(12,2) not null check (amount >= 0),
     primary key (contract_id, position)
   )`,

  // Newest first is highest id first: one key for the keyset, no two notes equal on it.
  `create table public.contract_notes (
     id bigint generated always as identity primary key,
     contract_id uuid not null references public.contracts(id) on delete cascade,
     author_user_id uuid references auth.users(id) on delete set null,
     author_email text not null,
     text text not null check (char_length(text) between 1 and 5000),
     created_at timestamptz not null default clock_timestamp()
   )`,
  `create index contract_notes_contract_idx on public.contract_notes (contract_id, id desc)`,

  // The audit trail of the modules' changes (written in the change's transaction).
  // The access API keeps its own (access_events), which its routes list.
  `create table public.module_events (
     id bigint generated always as identity primary key,
     org_id uuid references public.organizations(id) on delete cascade,
     action text not null,
     subject_type text not null,
     subject_id text not null,
     actor_user_id uuid references auth.users(id) on delete set null,
     actor_email text,
     details jsonb not null default '{}'::jsonb,
     created_at timestamptz not null default clock_timestamp()
   )`,
  `create index module_events_subject_idx on public.module_events (subject_type, subject_id, id desc)`,
  `create index module_events_org_idx on public.module_events (org_id, id desc)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of [
    'drop table if exists public.module_events',
    'drop table if exists public.contract_notes',
    'drop table if exists public.contract_dates',
    'drop table if exists public.contracts',
    'drop table if exists public.number_series',
    'drop table if exists public.employees',
    'drop index if exists public.organizations_documents_slug_key',
    `alter table public.organizations
       drop constraint if exists organizations_virements_salaires_check,
       drop constraint if exists organizations_documents_slug_check,
       drop column if exists siret,
       alter column virements_salaires drop not null,
       alter column virements_salaires drop default,
       alter column email_notifs drop default,
       alter column email_notifs drop not null,
       alter column email_notifs type text using nullif(array_to_string(email_notifs, ','), ''),
       alter column email_notifs_cc drop default,
       alter column email_notifs_cc drop not null,
       alter column email_notifs_cc type text using nullif(array_to_string(email_notifs_cc, ','), '')`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
