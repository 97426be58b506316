/**
 * One contribution call per organization and month, revised: a call gets a reference number
 * (AC-YYYY-NNNNNN, the gap-free number series), says whether the payroll made it (`paie`, from
 * published payslips) or staff typed it (`saisi`), names the month's first call when it is a
 * complementary one, and lists the payslips it covers (`contribution_call_payslips`: a payslip
 * published, or one cancelled after a paid call had covered it). A complementary call may be a
 * credit, so the total may be negative.
 *
 * Calls made before: numbered in the order they were made; a call made by a validation is
 * linked to the payslips that validation published (same organization, month and transaction
 * time) and becomes `paie`; any other stays `saisi`.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table public.contribution_calls
    add column number text,
    add column origin text not null default 'saisi'
      constraint contribution_calls_origin_check check (origin in ('paie', 'saisi')),
    add column first_call_id uuid references public.contribution_calls(id),
    add column updated_at timestamptz not null default now(),
    drop constraint if exists contribution_calls_total_check`.execute(db);

  await sql`with numbered as (
      select id,
             extract(year from created_at at time zone 'Europe/Paris')::int as year,
             row_number() over (partition by extract(year from created_at at time zone 'Europe/Paris') order by created_at, id)::int as n
        from public.contribution_calls
    )
    update public.contribution_calls c
       set number = 'AC-' || numbered.year || '-' || lpad(numbered.n::text, 6, '0')
      from numbered
     where numbered.id = c.id`.execute(db);
  await sql`insert into public.number_series (series, year, last_value)
    select 'AC', year, count(*)::int
      from (select extract(year from created_at at time zone 'Europe/Paris')::int as year from public.contribution_calls) as calls
     group by year
    on conflict (series, year) do update set last_value = greatest(public.number_series.last_value, excluded.last_value)`.execute(db);
  await sql`alter table public.contribution_calls
    alter column number set not null,
    add constraint contribution_calls_number_check check (number ~ '^AC-[0-9]{4}-[0-9]{6}$')`.execute(db);
  await sql`create unique index contribution_calls_number_key on public.contribution_calls (number)`.execute(db);

  // A payslip counts once as published and once as withdrawn, whichever call holds it.
  await sql`create table public.contribution_call_payslips (
     payslip_id uuid not null references public.payslips(id),
     effect text not null check (effect in ('publie', 'annule')),
     call_id uuid not null references public.contribution_calls(id) on delete cascade,
     org_id uuid not null references public.organizations(id) on delete cascade,
     created_at timestamptz not null default now(),
     primary key (payslip_id, effect)
   )`.execute(db);
  await sql`create index contribution_call_payslips_call_idx on public.contribution_call_payslips (call_id)`.execute(db);

  await sql`insert into public.contribution_call_payslips (payslip_id, effect, call_id, org_id)
    select distinct on (p.id) p.id, 'publie', c.id, c.org_id
      from public.contribution_calls c
      join public.payslips p on p.org_id = c.org_id and p.period = c.period and p.published_at = c.created_at
     where p.status in ('publie', 'annule')
     order by p.id, c.created_at`.execute(db);
  await sql`update public.contribution_calls c set origin = 'paie'
     where exists (select 1 from public.contribution_call_payslips l where l.call_id = c.id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists public.contribution_call_payslips`.execute(db);
  await sql`delete from public.number_series where series = 'AC'`.execute(db);
  await sql`drop index if exists public.contribution_calls_number_key`.execute(db);
  await sql`alter table public.contribution_calls
    drop constraint if exists contribution_calls_number_check,
    drop column if exists updated_at,
    drop column if exists first_call_id,
    drop column if exists origin,
    drop column if exists number`.execute(db);
}
