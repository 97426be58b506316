/**
 * Payslips and salary transfers: the payslips the operator publishes, the SEPA
 * credit transfer batches that pay them, and each batch's lines as made (the employee's name
 * and IBAN at commit). Frozen in time: it takes `Kysely<any>` and imports nothing from the
 * application.
 */
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table public.payslips (
     id uuid primary key default gen_random_uuid(),
     org_id uuid not null references public.organizations(id) on delete cascade,
     employee_id uuid not null,
     period text not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
     gross numeric(12,2) not null check (gross >= 0),
     net_to_pay numeric(12,2) not null check (net_to_pay >= 0),
     contract_ids text[] not null default '{}',
     pdf_id text,
     status text not null default 'publie' check (status in ('publie', 'annule')),
     created_by uuid references auth.users(id) on delete set null,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     foreign key (org_id, employee_id) references public.employees (org_id, id),
     unique (org_id, id)
   )`,
  // The list: one organization, newest period first (keyset on period, name, id).
  `create index payslips_org_period_idx on public.payslips (org_id, period desc, id)`,
  `create index payslips_employee_idx on public.payslips (employee_id, period desc)`,

  // A batch: one organization, numbered VIR-YYYY-NNNNNN (its SEPA message id).
  `create table public.transfers (
     id uuid primary key default gen_random_uuid(),
     org_id uuid not null references public.organizations(id) on delete cascade,
     reference text not null unique check (reference ~ '^VIR-[0-9]{4}-[0-9]{6}$'),
     execution_date date not null,
     status text not null default 'genere' check (status in ('genere', 'execute', 'annule')),
     count integer not null check (count > 0),
     total numeric(12,2) not null check (total > 0),
     created_by uuid references auth.users(id) on delete set null,
     created_at timestamptz not null default now(),
     executed_at timestamptz,
     cancelled_at timestamptz,
     updated_at timestamptz not null default now(),
     unique (org_id, id)
   )`,
  `create index transfers_org_idx on public.transfers (org_id, execution_date desc, id desc)`,
  `create index transfers_all_idx on public.transfers (execution_date desc, id desc)`,

  // A batch's lines, as made: the payee's name, IBAN and BIC at commit, so that the SEPA
  // file is always the batch as it was made. "released" is set when the batch is cancelled.
  `create table public.transfer_items (
     transfer_id uuid not null,
     org_id uuid not null,
     payslip_id uuid not null,
     position integer not null check (position >= 0),
     creditor_name text not null,
     iban text not null,
     bic text,
     amount numeric(12,2) not null check (amount > 0),
     period text not null,
     released boolean not null default false,
     primary key (transfer_id, payslip_id),
     unique (transfer_id, position),
     foreign key (org_id, transfer_id) references public.transfers (org_id, id) on delete cascade,
     foreign key (org_id, payslip_id) references public.payslips (org_id, id)
   )`,
  // The guarantee against paying a payslip twice: at most one batch that is not cancelled per
  // payslip, whatever the application does. Two batches racing for one payslip: the second
  // waits on the first's row and fails here if it got that far.
  `create unique index transfer_items_one_live_batch_key on public.transfer_items (payslip_id) where not released`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of ['drop table if exists public.transfer_items', 'drop table if exists public.transfers', 'drop table if exists public.payslips']) {
    await sql.raw(statement).execute(db);
  }
}
