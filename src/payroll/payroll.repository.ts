/** The payroll run's SQL: its inputs, its page (`payroll_runs`), its drafts. */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { PayrollRunStatus } from '../db/schema.ts';
import { COMPUTED_FIGURES } from '../payslips/payslip.rules.ts';

// ---- Inputs.

export function findPayrollOrg(db: Database, orgId: string) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name', 'siret', 'effectif', 'convention', 'categorie_juridique', 'taux_at'])
    .where('id', '=', orgId)
    .executeTakeFirst();
}
export type PayrollOrgRow = NonNullable<Awaited<ReturnType<typeof findPayrollOrg>>>;

/**
 * The contracts that may pay something in the period: `a_signer` or `signe`, covering part of
 * it or with a date in it (a CDDU covering it without a date is then `no_date_in_period`).
 * Each with its employee and, for a CDDU, its dates in the period.
 */
export async function contractsOfPeriod(db: Database, orgId: string, first: string, last: string) {
  const contracts = await db
    .selectFrom('contracts')
    .innerJoin('employees', 'employees.id', 'contracts.employee_id')
    .select([
      'contracts.id',
      'contracts.contract_number',
      'contracts.kind',
      'contracts.job_title',
      'contracts.start_date',
      'contracts.end_date',
      'contracts.monthly_gross',
      'contracts.employee_id',
      'employees.first_name',
      'employees.last_name',
      'employees.category',
      'employees.cadre',
      'employees.pas_rate',
      'employees.dfs',
    ])
    .where('contracts.org_id', '=', orgId)
    .where('contracts.status', 'in', ['a_signer', 'signe'])
    .where((eb) =>
      eb.or([
        // A CDDU's dates may fall outside its stated dates: any of them in the period counts.
        eb.exists(
          eb
            .selectFrom('contract_dates')
            .select('contract_id')
            .whereRef('contract_dates.contract_id', '=', 'contracts.id')
            .where('contract_dates.date', '>=', first)
            .where('contract_dates.date', '<=', last),
        ),
        eb.and([eb('contracts.start_date', '<=', last), eb.or([eb('contracts.end_date', 'is', null), eb('contracts.end_date', '>=', first)])]),
      ]),
    )
    .orderBy('employees.last_name')
    .orderBy('employees.first_name')
    .orderBy('contracts.contract_number')
    .execute();
  const ids = contracts.filter((c) => c.kind === 'CDDU').map((c) => c.id);
  const dates =
    ids.length === 0
      ? []
      : await db
          .selectFrom('contract_dates')
          .select(['contract_id', sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'), 'nature', 'quantity', 'amount'])
          .where('contract_id', 'in', ids)
          .where('date', '>=', first)
          .where('date', '<=', last)
          .orderBy('contract_id')
          .orderBy('position')
          .execute();
  const byContract = new Map<string, typeof dates>();
  for (const d of dates) byContract.set(d.contract_id, [...(byContract.get(d.contract_id) ?? []), d]);
  return contracts.map((c) => ({
    ...c,
    start_date: String(c.start_date),
    end_date: c.end_date === null ? null : String(c.end_date),
    dates: byContract.get(c.id) ?? [],
  }));
}
export type PeriodContract = Awaited<ReturnType<typeof contractsOfPeriod>>[number];

/** The contracts of the period already paid by a published payslip (kept as they are by a run). */
export async function publishedContracts(db: Database, orgId: string, period: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('payslip_contracts')
    .innerJoin('payslips', 'payslips.id', 'payslip_contracts.payslip_id')
    .select('payslip_contracts.contract_id')
    .where('payslip_contracts.org_id', '=', orgId)
    .where('payslip_contracts.period', '=', period)
    .where('payslip_contracts.cancelled', '=', false)
    .where('payslips.status', '=', 'publie')
    .execute();
  return new Set(rows.map((r) => r.contract_id));
}

/**
 * The live published payslips of the period, by contract: what a new computation of the month
 * must not pay again (a computed one's figures and lines, subtracted line by line; a typed one
 * has none). Oldest first.
 */
export async function publishedOfPeriod(db: Database, orgId: string, period: string) {
  const rows = await db
    .selectFrom('payslip_contracts')
    .innerJoin('payslips', 'payslips.id', 'payslip_contracts.payslip_id')
    .select([
      'payslip_contracts.contract_id',
      'payslips.id',
      'payslips.source',
      'payslips.kind',
      'payslips.inputs_hash',
      'payslips.lines',
      'payslips.pas_rate',
      'payslips.gross',
      'payslips.net_to_pay',
      ...COMPUTED_FIGURES,
    ])
    .where('payslip_contracts.org_id', '=', orgId)
    .where('payslip_contracts.period', '=', period)
    .where('payslip_contracts.cancelled', '=', false)
    .where('payslips.status', '=', 'publie')
    .orderBy('payslips.published_at')
    .orderBy('payslips.created_at')
    .orderBy('payslips.id')
    .execute();
  const byContract = new Map<string, typeof rows>();
  for (const row of rows) byContract.set(row.contract_id, [...(byContract.get(row.contract_id) ?? []), row]);
  return byContract;
}
export type PublishedRow = Awaited<ReturnType<typeof publishedOfPeriod>> extends Map<string, Array<infer T>> ? T : never;

/**
 * Serializes, per organization and period, the commit of a run's drafts and a validation (a
 * transaction-level advisory lock): one waits for the other and then sees what it did, so that
 * neither fails on the other's rows.
 */
export async function lockMonth(db: Database, orgId: string, period: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`payroll-month:${orgId}:${period}`}, 0))`.execute(db);
}

// ---- The run's page (its job is a row of `jobs`).

const RUN_COLUMNS = ['id', 'org_id', 'period', 'status', 'done', 'total', 'payslip_ids', 'skipped', 'message', 'created_at', 'finished_at'] as const;

/** A new run `en_cours`, or undefined when one already runs for this organization and period. */
export function insertRun(db: Database, orgId: string, period: string, createdBy: string | null) {
  return db
    .insertInto('payroll_runs')
    .values({ org_id: orgId, period, created_by: createdBy })
    .onConflict((oc) => oc.columns(['org_id', 'period']).where('status', '=', 'en_cours').doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function findRunningRun(db: Database, orgId: string, period: string) {
  return db
    .selectFrom('payroll_runs')
    .select('id')
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .where('status', '=', 'en_cours')
    .executeTakeFirst();
}

export function findRun(db: Database, id: string) {
  return db.selectFrom('payroll_runs').select(RUN_COLUMNS).where('id', '=', id).executeTakeFirst();
}
export type RunRow = NonNullable<Awaited<ReturnType<typeof findRun>>>;

/**
 * The run its job computes: `en_cours`; or `echoue` and made `en_cours` again, its failed job
 * retried by staff, unless another run of its month computes meanwhile. Undefined otherwise.
 */
export async function openRun(db: Database, id: string) {
  await db
    .updateTable('payroll_runs as r')
    .set({ status: 'en_cours', message: null, done: 0, finished_at: null, updated_at: sql`now()` })
    .where('r.id', '=', id)
    .where('r.status', '=', 'echoue')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('payroll_runs as other')
            .select('other.id')
            .whereRef('other.org_id', '=', 'r.org_id')
            .whereRef('other.period', '=', 'r.period')
            .where('other.status', '=', 'en_cours'),
        ),
      ),
    )
    .execute();
  return db.selectFrom('payroll_runs').select(['id', 'org_id', 'period']).where('id', '=', id).where('status', '=', 'en_cours').executeTakeFirst();
}

/** Progress, written only while the run's job is still this worker's; false when it is not. */
export async function reportProgress(db: Database, id: string, job: { id: string; owner: string }, values: { done: number; total: number }): Promise<boolean> {
  const result = await db
    .updateTable('payroll_runs')
    .set({ done: values.done, total: values.total, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'en_cours')
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('jobs').select('jobs.id').where('jobs.id', '=', job.id).where('jobs.lease_owner', '=', job.owner).where('jobs.status', '=', 'running')),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Locks the run if it is still running (the commit of its drafts, after its job's row). */
export function lockRunningRun(db: Database, id: string) {
  return db.selectFrom('payroll_runs').select(['id']).where('id', '=', id).where('status', '=', 'en_cours').forUpdate().executeTakeFirst();
}

/** Its job failed for good: the run `echoue` with the reason, unless it ended otherwise. */
export async function failRun(db: Database, id: string, message: string): Promise<void> {
  await db
    .updateTable('payroll_runs')
    .set({ status: 'echoue', message, finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'en_cours')
    .execute();
}

export async function finishRun(
  db: Database,
  id: string,
  outcome: {
    status: Exclude<PayrollRunStatus, 'en_cours'>;
    payslip_ids?: string[];
    skipped?: unknown[];
    message?: string | null;
    done?: number;
    total?: number;
  },
): Promise<void> {
  await db
    .updateTable('payroll_runs')
    .set({
      status: outcome.status,
      ...(outcome.payslip_ids ? { payslip_ids: JSON.stringify(outcome.payslip_ids) } : {}),
      ...(outcome.skipped ? { skipped: JSON.stringify(outcome.skipped) } : {}),
      ...(outcome.done !== undefined ? { done: outcome.done } : {}),
      ...(outcome.total !== undefined ? { total: outcome.total } : {}),
      message: outcome.message ?? null,
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

// ---- Drafts.

/** Deletes the organization's drafts of the period (their contract links go with them). */
export async function deleteDrafts(db: Database, orgId: string, period: string): Promise<number> {
  const result = await db.deleteFrom('payslips').where('org_id', '=', orgId).where('period', '=', period).where('status', '=', 'brouillon').executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface DraftRow {
  org_id: string;
  employee_id: string;
  contract_id: string;
  period: string;
  run_id: string;
  model_version: string;
  situation: Record<string, string>;
  lines: unknown[];
  gross: string;
  net_to_pay: string;
  employee_contributions: string;
  employer_contributions: string;
  net_before_tax: string;
  net_taxable: string;
  net_social: string;
  pas_rate: string;
  pas_amount: string;
  employer_cost: string;
  inputs_hash: string;
  kind: 'normal' | 'complementaire';
  complements_id: string | null;
  complement_basis: string[] | null;
}

/**
 * Drafts inserted per statement. A run's hundred drafts in one statement held the event loop 7 to
 * 18 ms on an idle machine while Kysely compiled and pg encoded their 2,000 parameters and half a
 * megabyte of lines, longer than `GET /api/access`'s idle p99; in statements of ten, the requests
 * arriving meanwhile are answered between two of them (bench/README.md).
 */
const DRAFTS_PER_STATEMENT = 10;

/** The drafts and their contract links (in statements of `DRAFTS_PER_STATEMENT`); their ids in order. */
export async function insertDrafts(db: Database, drafts: readonly DraftRow[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < drafts.length; start += DRAFTS_PER_STATEMENT) {
    const batch = drafts.slice(start, start + DRAFTS_PER_STATEMENT);
    const rows = await db
      .insertInto('payslips')
      .values(
        batch.map(({ contract_id, situation, lines, ...draft }) => ({
          ...draft,
          contract_ids: [contract_id],
          status: 'brouillon' as const,
          source: 'calcule' as const,
          situation: JSON.stringify(situation),
          lines: JSON.stringify(lines),
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('payslip_contracts')
      .values(
        batch.map((draft, i) => ({
          payslip_id: rows[i]!.id,
          org_id: draft.org_id,
          contract_id: draft.contract_id,
          period: draft.period,
          complementary: draft.kind === 'complementaire',
        })),
      )
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/** The organization's drafts of the period, locked (the validation). */
export function lockDrafts(db: Database, orgId: string, period: string) {
  return db
    .selectFrom('payslips')
    .select(['id', 'employee_id', 'lines', 'contract_ids', 'inputs_hash', 'kind', 'complements_id', 'complement_basis'])
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .where('status', '=', 'brouillon')
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function publishDrafts(db: Database, ids: readonly string[], paymentDate: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('payslips')
    .set({ status: 'publie', published_at: sql`now()`, payment_date: paymentDate, updated_at: sql`now()` })
    .where('id', 'in', ids)
    .execute();
}

/** What the bulletin of a computed payslip needs, read after validation. */
export function findBulletinSource(db: Database, payslipId: string) {
  return db
    .selectFrom('payslips')
    .innerJoin('organizations', 'organizations.id', 'payslips.org_id')
    .innerJoin('employees', 'employees.id', 'payslips.employee_id')
    .innerJoin('payslip_contracts', 'payslip_contracts.payslip_id', 'payslips.id')
    .innerJoin('contracts', 'contracts.id', 'payslip_contracts.contract_id')
    .select([
      'payslips.id',
      'payslips.org_id',
      'payslips.period',
      'payslips.status',
      'payslips.pdf_id',
      'payslips.published_at',
      'payslips.payment_date',
      'payslips.gross',
      'payslips.net_to_pay',
      ...COMPUTED_FIGURES,
      'payslips.lines',
      'payslips.kind as payslip_kind',
      'payslips.complements_id',
      'organizations.name as org_name',
      'organizations.siret',
      'organizations.convention',
      'organizations.address_line as org_address_line',
      'organizations.postcode as org_postcode',
      'organizations.city as org_city',
      'organizations.ape_code',
      'organizations.urssaf',
      'employees.first_name',
      'employees.last_name',
      'employees.category',
      'employees.cadre',
      'employees.address_line',
      'employees.postcode',
      'employees.city',
      'employees.classification',
      'contracts.id as contract_id',
      'contracts.contract_number',
      'contracts.kind',
      'contracts.job_title',
      'contracts.start_date',
      'contracts.end_date',
    ])
    .where('payslips.id', '=', payslipId)
    .where('payslips.source', '=', 'calcule')
    .executeTakeFirst();
}

export function contractDatesIn(db: Database, contractId: string, first: string, last: string) {
  return db
    .selectFrom('contract_dates')
    .select([sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date'), 'nature', 'quantity'])
    .where('contract_id', '=', contractId)
    .where('date', '>=', first)
    .where('date', '<=', last)
    .orderBy('position')
    .execute();
}

/** Locks the payslip when it still has no PDF; undefined when it has one. */
export function lockBulletinFree(db: Database, payslipId: string) {
  return db.selectFrom('payslips').select('id').where('id', '=', payslipId).where('pdf_id', 'is', null).forUpdate().executeTakeFirst();
}

/** Stores the bulletin unless one is there already; false when it was. */
export async function setBulletin(db: Database, payslipId: string, fileId: string): Promise<boolean> {
  const result = await db
    .updateTable('payslips')
    .set({ pdf_id: fileId, updated_at: sql`now()` })
    .where('id', '=', payslipId)
    .where('pdf_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The contracts a run skipped, as the staff's page names them: number and employee. */
export function contractsNamed(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('contracts')
    .innerJoin('employees', 'employees.id', 'contracts.employee_id')
    .select(['contracts.id', 'contracts.contract_number', 'contracts.kind', 'employees.first_name', 'employees.last_name'])
    .where('contracts.id', 'in', ids)
    .execute();
}

/** Of these ids, those a run of the organization's period made as drafts (the validation's "replaced since"). */
export async function madeByRuns(db: Database, orgId: string, period: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('payroll_runs')
    .select(sql<string>`jsonb_array_elements_text(payslip_ids)`.as('id'))
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .execute();
  const made = new Set(rows.map((r) => r.id));
  return ids.filter((id) => made.has(id));
}

/** The organization's last run of the period, whatever its status (the month's page). */
export function findLastRun(db: Database, orgId: string, period: string) {
  return db
    .selectFrom('payroll_runs')
    .select(RUN_COLUMNS)
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The last finished run of the period (its skipped contracts are the month's). */
export function findLastFinishedRun(db: Database, orgId: string, period: string) {
  return db
    .selectFrom('payroll_runs')
    .select(RUN_COLUMNS)
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .where('status', '=', 'termine')
    .orderBy('finished_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The ids of the organization's current drafts of the period, oldest run first. */
export async function draftIdsOf(db: Database, orgId: string, period: string): Promise<string[]> {
  const rows = await db
    .selectFrom('payslips')
    .select('id')
    .where('org_id', '=', orgId)
    .where('period', '=', period)
    .where('status', '=', 'brouillon')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** What a complementary bulletin says of its original. */
export function findOriginal(db: Database, payslipId: string) {
  return db.selectFrom('payslips').select(['id', 'payment_date', 'net_to_pay']).where('id', '=', payslipId).executeTakeFirst();
}

/** The months a contract's live published payslips pay, oldest first. */
export async function publishedPeriodsOf(db: Database, contractId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('payslip_contracts')
    .innerJoin('payslips', 'payslips.id', 'payslip_contracts.payslip_id')
    .select('payslip_contracts.period')
    .distinct()
    .where('payslip_contracts.contract_id', '=', contractId)
    .where('payslip_contracts.cancelled', '=', false)
    .where('payslips.status', '=', 'publie')
    .orderBy('payslip_contracts.period')
    .execute();
  return rows.map((r) => r.period);
}
