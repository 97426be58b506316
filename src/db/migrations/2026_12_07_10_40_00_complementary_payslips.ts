/**
 * Drafts that know what they were computed from, and complementary payslips:
 *
 * - `payslips.inputs_hash`: a computed payslip's inputs (the model's situation and the
 *   contract's dates of the month), hashed. Validation refuses a draft whose contract no longer
 *   gives the same hash; the next run leaves alone a published month whose hash has not changed.
 * - `payslips.kind`: `normal`, or `complementaire` (a published month paid again for the
 *   difference after its contract changed), with `complements_id` (the original payslip) and,
 *   while it is a draft, `complement_basis` (the published payslips it subtracts).
 * - `payslip_contracts.complementary`: a complementary payslip's links to its contract do not
 *   take the contract's month (the one-live-link index is limited to the others).
 *
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table public.payslips
     add column inputs_hash text,
     add column kind text not null default 'normal' constraint payslips_kind_check check (kind in ('normal', 'complementaire')),
     add column complements_id uuid references public.payslips(id),
     add column complement_basis text[],
     add constraint payslips_complement_check check ((kind = 'complementaire') = (complements_id is not null))`,
  `alter table public.payslip_contracts add column complementary boolean not null default false`,
  `drop index if exists public.payslip_contracts_one_live_key`,
  `create unique index payslip_contracts_one_live_key on public.payslip_contracts (contract_id, period) where not cancelled and not complementary`,
  `create index payslips_complements_idx on public.payslips (complements_id) where complements_id is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `delete from public.payslips where kind = 'complementaire'`,
    'drop index if exists public.payslip_contracts_one_live_key',
    'create unique index payslip_contracts_one_live_key on public.payslip_contracts (contract_id, period) where not cancelled',
    'alter table public.payslip_contracts drop column if exists complementary',
    'drop index if exists public.payslips_complements_idx',
    `alter table public.payslips drop constraint if exists payslips_complement_check, drop column if exists complement_basis,
       drop column if exists complements_id, drop column if exists kind, drop column if exists inputs_hash`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
