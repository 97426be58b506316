/**
 * A salary is published once: at most one payslip that is not cancelled pays a
 * contract for a month, and at most one without contracts exists per employee and month. The
 * database holds the rule, whatever the application does:
 *
 * - `payslip_contracts` links a payslip to the contracts it pays, with its period and whether
 *   the payslip is cancelled; a partial unique index allows one live link per contract and
 *   period (a contract's month is paid once, even by payslips naming other contracts too).
 *   `payslips.contract_ids` stays the answer's list, in the order given; the links repeat it
 *   for the index and are written in the same transaction.
 * - a partial unique index on `payslips (employee_id, period)` among live payslips without
 *   contracts.
 * - `net_to_pay <= gross`, for new rows (`not valid`: a row written before is not refused, the
 *   application refuses new ones with 400 `invalid_net_to_pay`).
 *
 * Duplicates written before this migration do not make it fail: of payslips that would break
 * an index, the one a batch of transfers holds is kept, else the oldest; the others are
 * cancelled, each with a `payslip.cancelled` audit event (no actor: the migration) naming the
 * payslip kept. Should two payslips both be held by live batches, the later one is cancelled all
 * the same and its event says `in_transfer: true`: the staff must cancel that batch.
 *
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

interface Candidate {
  id: string;
  org_id: string;
  employee_id: string;
  period: string;
  contracts: string[];
  held: boolean;
}

/** Cancels the later payslips of each duplicate set; those involved only are read. */
async function cancelDuplicates(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<Candidate>`
    select p.id, p.org_id, p.employee_id, p.period,
           array(select c.id::text from public.contracts c
                 where c.id::text = any (select lower(x) from unnest(p.contract_ids) x) and c.org_id = p.org_id
                 order by c.id) as contracts,
           exists (select 1 from public.transfer_items ti where ti.payslip_id = p.id and not ti.released) as held
      from public.payslips p
     where p.status = 'publie'
       and exists (select 1 from public.payslips q
                    where q.id <> p.id and q.status = 'publie' and q.employee_id = p.employee_id and q.period = p.period
                      and (q.contract_ids && p.contract_ids or (q.contract_ids = '{}' and p.contract_ids = '{}')))
     order by held desc, p.created_at, p.id`.execute(db);
  // Greedy, in the order above: a payslip is kept unless one kept before already pays one of
  // its months (a chain A–B–C where only B meets both: B goes, A and C stay).
  const keptBy = new Map<string, string>();
  const cancelled: Array<{ row: Candidate; kept: string }> = [];
  for (const row of rows) {
    const keys = row.contracts.length > 0 ? row.contracts.map((c) => `c:${c}:${row.period}`) : [`e:${row.employee_id}:${row.period}`];
    const kept = keys.map((key) => keptBy.get(key)).find((id) => id !== undefined);
    if (kept) cancelled.push({ row, kept });
    else for (const key of keys) keptBy.set(key, row.id);
  }
  for (const { row, kept } of cancelled) {
    await sql`update public.payslips set status = 'annule', updated_at = now() where id = ${row.id}`.execute(db);
    const details = JSON.stringify({
      reason: 'duplicate',
      kept_payslip_id: kept,
      period: row.period,
      in_transfer: row.held,
      by: 'migration 2026_11_27_00_00_00',
    });
    await sql`insert into public.module_events (org_id, action, subject_type, subject_id, details)
              values (${row.org_id}, 'payslip.cancelled', 'payslip', ${row.id}, ${details}::jsonb)`.execute(db);
  }
}

const statements = [
  `create table public.payslip_contracts (
     payslip_id uuid not null,
     org_id uuid not null,
     contract_id uuid not null references public.contracts(id),
     period text not null,
     cancelled boolean not null default false,
     primary key (payslip_id, contract_id),
     foreign key (org_id, payslip_id) references public.payslips (org_id, id) on delete cascade
   )`,
  `insert into public.payslip_contracts (payslip_id, org_id, contract_id, period, cancelled)
   select distinct p.id, p.org_id, c.id, p.period, p.status = 'annule'
     from public.payslips p
     cross join lateral unnest(p.contract_ids) as x(contract_id)
     join public.contracts c on c.id::text = lower(x.contract_id) and c.org_id = p.org_id`,
  `create unique index payslip_contracts_one_live_key on public.payslip_contracts (contract_id, period) where not cancelled`,
  `create unique index payslips_one_live_without_contracts_key on public.payslips (employee_id, period)
     where status = 'publie' and contract_ids = '{}'`,
  `alter table public.payslips add constraint payslips_net_within_gross check (net_to_pay <= gross) not valid`,
];

export async function up(db: Kysely<any>): Promise<void> {
  await cancelDuplicates(db);
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of [
    'alter table public.payslips drop constraint if exists payslips_net_within_gross',
    'drop index if exists public.payslips_one_live_without_contracts_key',
    'drop table if exists public.payslip_contracts',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
