/** SQL of contracts: contracts, their salaries by date, their notes, their numbers. */
import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { OrgPage } from '../org/scope.repository.ts';
import { executePrepared, preparedStatement, takeFirstPrepared, type Database } from '../db/database.ts';
import type { ModuleEvent } from '../audit/audit.repository.ts';
import { UUID_PATTERN } from '../http/input.ts';
import { json, jsonObject, type JsonText } from '../db/json-text.ts';
import { keyset, keysetJsonPage, keysetJsonPageRow, type CursorValue, type JsonPage, type KeysetOrder } from '../http/list.ts';
import type { ContractKind, ContractStatus, DB } from '../db/schema.ts';
import type { ContractDate, ContractFields } from './contract.rules.ts';

/** The action of an amendment's audit event: the contract's history holds its avenants. */
export const AMENDMENT_ACTION = 'contract.amended';

/** The columns of a contract as answers show it (the employee's name joined). */
function contractColumns(eb: ExpressionBuilder<DB, 'contracts' | 'employees'>) {
  return [
    'contracts.id',
    'contracts.org_id',
    'contracts.contract_number',
    'contracts.employee_id',
    'employees.first_name',
    'employees.last_name',
    'contracts.kind',
    'contracts.status',
    'contracts.job_title',
    'contracts.show_title',
    'contracts.idcc',
    'contracts.start_date',
    'contracts.end_date',
    'contracts.monthly_gross',
    'contracts.gross_total',
    eb('contracts.generated_pdf_id', 'is not', null).as('has_generated_pdf'),
    eb('contracts.signed_pdf_id', 'is not', null).as('has_signed_pdf'),
    'contracts.signed_at',
    'contracts.created_at',
    'contracts.updated_at',
  ] as const;
}

function selectContracts(db: Database) {
  return db.selectFrom('contracts').innerJoin('employees', 'employees.id', 'contracts.employee_id').select(contractColumns);
}

export type ContractRow = Awaited<ReturnType<typeof findContract>> & object;

/**
 * The contract, or undefined when there is none with this id in `orgId` (one of
 * another organization is answered as unknown). `orgId` null: any organization (staff routes).
 */
export function findContract(db: Database, orgId: string | null, id: string) {
  let query = selectContracts(db).where('contracts.id', '=', id);
  if (orgId !== null) query = query.where('contracts.org_id', '=', orgId);
  return takeFirstPrepared(db, 'contract', query);
}

/** The contract's dates in the order given, as one JSON array, each value as its text ("7.500"). */
const contractDates = () => sql<ContractDate[]>`(
  select coalesce(json_agg(json_build_object('date', d.date::text, 'nature', d.nature, 'quantity', d.quantity::text, 'amount', d.amount::text) order by d.position), '[]')
  from contract_dates d where d.contract_id = contracts.id)`;

/** The `details` of the contract's avenants (its `contract.amended` events), oldest first, as one JSON array. */
const amendmentDetails = () => sql<Record<string, unknown>[]>`(
  select coalesce(json_agg(e.details order by e.id), '[]')
  from module_events e
  where e.subject_type = 'contract' and e.subject_id = contracts.id::text and e.action = ${sql.lit(AMENDMENT_ACTION)})`;

/** The contract with its dates, in one statement; undefined as `findContract`. */
export function findContractWithDates(db: Database, orgId: string | null, id: string) {
  let query = selectContracts(db).select(contractDates().as('dates')).where('contracts.id', '=', id);
  if (orgId !== null) query = query.where('contracts.org_id', '=', orgId);
  return takeFirstPrepared(db, 'contract_with_dates', query);
}

/**
 * What a contract's PDF shows, in one statement: the contract, its dates, the employer (the
 * organization) and the employee's category; undefined when there is none with this id in `orgId`.
 */
export function findContractDocument(db: Database, orgId: string, id: string) {
  const query = selectContracts(db)
    .innerJoin('organizations', 'organizations.id', 'contracts.org_id')
    .select([
      'organizations.name as employer_name',
      'organizations.structure_api as employer_structure_api',
      'organizations.siret as employer_siret',
      'employees.category as employee_category',
    ])
    .select(contractDates().as('dates'))
    .select(amendmentDetails().as('amendments'))
    .where('contracts.id', '=', id)
    .where('contracts.org_id', '=', orgId);
  return takeFirstPrepared(db, 'contract_document', query);
}

/** The files of a contract of `orgId`, or undefined. */
export function findContractFiles(db: Database, orgId: string, id: string) {
  return db.selectFrom('contracts').select(['generated_pdf_id', 'signed_pdf_id']).where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
}

/** The state a change depends on, locked until the end of the transaction. */
export function lockContract(db: Database, orgId: string | null, id: string) {
  let query = db
    .selectFrom('contracts')
    .select([
      'id',
      'org_id',
      'contract_number',
      'employee_id',
      'kind',
      'status',
      'job_title',
      'show_title',
      'idcc',
      'start_date',
      'end_date',
      'monthly_gross',
      'generated_pdf_id',
      'signed_pdf_id',
    ])
    .where('id', '=', id)
    .forUpdate();
  if (orgId !== null) query = query.where('org_id', '=', orgId);
  return takeFirstPrepared(db, 'contract_lock', query);
}

/** The signed file of a contract and when it was signed (the row is locked by the caller). */
export function findSignature(db: Database, id: string) {
  return db.selectFrom('contracts').select(['signed_pdf_id', 'signed_at']).where('id', '=', id).where('signed_pdf_id', 'is not', null).executeTakeFirst();
}

export type LockedContract = Awaited<ReturnType<typeof lockContract>> & object;

/**
 * Points a contract of `orgId` at its new generated PDF, its row locked first so that the
 * previous PDF read is the one replaced (two generations at once each replace the other's);
 * the previous PDF's id, or undefined when the contract is not there.
 */
export function replaceGeneratedPdf(db: Database, orgId: string, id: string, fileId: string) {
  const previous = db.selectFrom('contracts').select(['id', 'generated_pdf_id']).where('id', '=', id).where('org_id', '=', orgId).forUpdate().as('previous');
  const query = db
    .updateTable('contracts')
    .from(previous)
    .set({ generated_pdf_id: fileId, updated_at: sql`now()` })
    .whereRef('contracts.id', '=', 'previous.id')
    .returning('previous.generated_pdf_id as previous_pdf_id');
  return takeFirstPrepared(db, 'contract_generated_pdf', query);
}

/**
 * `POST /api/generate-contract-pdf` in one statement, when the bytes are in the `files` row: the
 * rows of the general way (`files.put`, `replaceGeneratedPdf`, `files.delete` of the previous PDF,
 * the audit event of `applyChange`) in one round trip instead of six (BEGIN and COMMIT included);
 * at eight PDFs at once, each round trip woke the event loop and a PostgreSQL backend, which
 * `GET /api/access` then waited behind (bench/README.md). The contract's row is locked
 * first, as in `replaceGeneratedPdf`. The new file's id, or undefined when the contract of
 * `orgId` is not there (and nothing is written).
 */
export async function storeGeneratedPdf(
  db: Database,
  contractId: string,
  file: { orgId: string; filename: string; contentType: string; content: Buffer },
  event: ModuleEvent,
): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`${preparedStatement('store_generated_pdf')}
    with previous as (
      select id, generated_pdf_id from public.contracts where id = ${contractId}::uuid and org_id = ${file.orgId}::uuid for update
    ), stored as (
      insert into public.files (org_id, filename, content_type, size, content)
      select ${file.orgId}::uuid, ${file.filename}::text, ${file.contentType}::text, ${file.content.length}::integer, ${file.content}::bytea from previous
      returning id
    ), replaced as (
      update public.contracts c set generated_pdf_id = stored.id::text, updated_at = now()
        from previous, stored
       where c.id = previous.id
      returning previous.generated_pdf_id as previous_pdf_id, stored.id
    ), removed as (
      delete from public.files
       where id in (select previous_pdf_id::uuid from replaced where previous_pdf_id ~* ${UUID_PATTERN.source}::text)
    ), event as (
      insert into public.module_events (org_id, action, subject_type, subject_id, actor_user_id, actor_email, details)
      select ${event.org_id}::uuid, ${event.action}::text, ${event.subject_type}::text, ${event.subject_id}::text,
             ${event.actor_user_id ?? null}::uuid, ${event.actor_email ?? null}::text, ${JSON.stringify(event.details ?? {})}::jsonb
        from replaced
    )
    select id::text from replaced`.execute(db);
  return rows[0]?.id;
}

/** Replaces the dates of a contract. */
export async function replaceDates(db: Database, contractId: string, dates: readonly ContractDate[]): Promise<void> {
  await db.deleteFrom('contract_dates').where('contract_id', '=', contractId).execute();
  if (dates.length === 0) return;
  await db
    .insertInto('contract_dates')
    .values(dates.map((d, position) => ({ contract_id: contractId, position, date: d.date, nature: d.nature, quantity: d.quantity, amount: d.amount })))
    .execute();
}

export interface NewContract extends ContractFields {
  org_id: string;
  contract_number: string;
  employee_id: string;
  gross_total: string | null;
  search_text: string;
}

export async function insertContract(db: Database, contract: NewContract): Promise<string> {
  const row = await db.insertInto('contracts').values(contract).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface ContractChanges {
  fields?: ContractFields & { employee_id: string };
  gross_total?: string | null;
  search_text?: string;
  status?: ContractStatus;
  generated_pdf_id?: string | null;
  signed_pdf_id?: string | null;
  signed_at?: Date | null;
  /** An avenant's new period. */
  start_date?: string;
  end_date?: string | null;
}

export async function updateContract(db: Database, id: string, changes: ContractChanges): Promise<void> {
  const { fields, ...rest } = changes;
  // Prepared: one statement per set of changed columns (a PDF, a status, an edit of the fields).
  await executePrepared(
    db,
    'contract_update',
    db
      .updateTable('contracts')
      .set({ ...fields, ...rest, updated_at: sql`now()` })
      .where('id', '=', id),
  );
}

/** Employee names are searched on their contracts: keep the contracts' search text in step. */
export async function updateSearchTextOfEmployee(
  db: Database,
  employeeId: string,
  searchTextOf: (row: { contract_number: string; show_title: string | null }) => string,
): Promise<void> {
  const rows = await db.selectFrom('contracts').select(['id', 'contract_number', 'show_title']).where('employee_id', '=', employeeId).execute();
  for (const row of rows) {
    await db
      .updateTable('contracts')
      .set({ search_text: searchTextOf(row) })
      .where('id', '=', row.id)
      .execute();
  }
}

/** The grid's organization: null for every organization (the staff grid without `org_id`). */
type GridOrg = string | null | RawBuilder<string | null>;

/** The grid's filters (the organization aside). */
export interface GridFilters {
  status?: ContractStatus;
  kind?: ContractKind;
  employeeId?: string;
  /** Period overlap: the contract runs on at least one day of [from, to]. */
  from?: string;
  to?: string;
  /** Folded words, each contained in the search text. */
  terms: string[];
}

/** LIKE pattern matching `text` anywhere, with LIKE's wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The grid's order: newest start first, then number descending (unique). */
export const CONTRACT_ORDER = [
  { ref: 'contracts.start_date', direction: 'desc', kind: 'date' },
  { ref: 'contracts.contract_number', direction: 'desc', kind: 'text' },
] as const satisfies KeysetOrder;

/**
 * A grid item as JSON text, as `GET /api/contrats/{id}` shows the contract without its dates
 * (`summaryOf` in the service: same keys, same order, same formats).
 */
function gridItem(): JsonText {
  const c = (column: string) => sql.ref(`contracts.${column}`);
  return jsonObject({
    id: json.quoted(c('id')),
    org_id: json.quoted(c('org_id')),
    contract_number: json.text(c('contract_number')),
    employee_id: json.quoted(c('employee_id')),
    employee: jsonObject({ first_name: json.text(sql.ref('employees.first_name')), last_name: json.text(sql.ref('employees.last_name')) }),
    kind: json.quoted(c('kind')),
    status: json.quoted(c('status')),
    job_title: json.text(c('job_title')),
    show_title: json.text(c('show_title')),
    idcc: json.text(c('idcc')),
    start_date: json.quoted(c('start_date')),
    end_date: json.quoted(c('end_date')),
    monthly_gross: json.quoted(c('monthly_gross')),
    gross_total: json.quoted(c('gross_total')),
    has_generated_pdf: json.boolean(sql`${c('generated_pdf_id')} is not null`),
    has_signed_pdf: json.boolean(sql`${c('signed_pdf_id')} is not null`),
    signed_at: json.timestamp(c('signed_at')),
    created_at: json.timestamp(c('created_at')),
    updated_at: json.timestamp(c('updated_at')),
  });
}

/** The grid's rows as JSON text, filtered; the organization a value, or an expression (`readScopeWithPage`). */
function gridQuery(db: Database, orgId: GridOrg, filters: GridFilters) {
  let query = db.selectFrom('contracts').innerJoin('employees', 'employees.id', 'contracts.employee_id').select(gridItem().as('item'));
  if (orgId !== null) query = query.where('contracts.org_id', '=', orgId);
  if (filters.status) query = query.where('contracts.status', '=', filters.status);
  if (filters.kind) query = query.where('contracts.kind', '=', filters.kind);
  if (filters.employeeId) query = query.where('contracts.employee_id', '=', filters.employeeId);
  if (filters.to) query = query.where('contracts.start_date', '<=', filters.to);
  if (filters.from) {
    const from = filters.from;
    query = query.where((eb) => eb.or([eb('contracts.end_date', 'is', null), eb('contracts.end_date', '>=', from)]));
  }
  for (const term of filters.terms) {
    query = query.where('contracts.search_text', 'like', containsPattern(term));
  }
  return query;
}

/**
 * The name under which a grid statement is prepared, or undefined. Without a search or a
 * period, the plan does not depend on the values (an index scan in the grid's order): the
 * statement is prepared once per connection and its plan reused (planning costs about what
 * running it does). A search's plan depends on its words.
 */
export function gridStatementName(filters: GridFilters, name: string): string | undefined {
  return filters.terms.length === 0 && !filters.from && !filters.to ? name : undefined;
}

/** A page of the grid after `cursor` (`orgId` null: every organization), its items as JSON text. */
export function listContractsJson(db: Database, orgId: string | null, filters: GridFilters, cursor: CursorValue[] | null, limit: number): Promise<JsonPage> {
  return keysetJsonPage(db, gridQuery(db, orgId, filters), CONTRACT_ORDER, cursor, limit, gridStatementName(filters, 'contract_grid'));
}

/** The same page as one row, of an organization given as an expression: for the gate's statement (`readScopeWithPage`). */
export function contractGridPage(db: Database, filters: GridFilters, cursor: CursorValue[] | null, limit: number): OrgPage {
  return (orgId) => keysetJsonPageRow(gridQuery(db, orgId, filters), CONTRACT_ORDER, cursor, limit);
}

export function insertNote(db: Database, note: { contract_id: string; author_user_id: string; author_email: string; author_is_staff: boolean; text: string }) {
  return db.insertInto('contract_notes').values(note).returning(['id', 'author_email', 'author_is_staff', 'text', 'created_at']).executeTakeFirstOrThrow();
}

/** Notes newest first: the highest id first (an identity, unique). */
export const NOTE_ORDER = [{ ref: 'id', direction: 'desc', kind: 'integer' }] as const satisfies KeysetOrder;

/** A page of a contract's notes after `cursor`. */
export function listNotes(db: Database, contractId: string, cursor: CursorValue[] | null, limit: number) {
  const query = db.selectFrom('contract_notes').select(['id', 'author_email', 'author_is_staff', 'text', 'created_at']).where('contract_id', '=', contractId);
  return keyset(query, NOTE_ORDER, cursor, limit).execute();
}

/**
 * Who hears of a staff member's note: the organization's people who wrote a note on
 * the contract, as members still (not revoked), at their account's address today; by address.
 */
export async function noteWritersOf(db: Database, orgId: string, contractId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('contract_notes as n')
    .innerJoin('organization_members as m', (join) => join.onRef('m.user_id', '=', 'n.author_user_id').on('m.org_id', '=', orgId).on('m.revoked', '=', false))
    .innerJoin('auth.users as u', 'u.id', 'n.author_user_id')
    .select('u.email')
    .distinct()
    .where('n.contract_id', '=', contractId)
    .where('n.author_is_staff', '=', false)
    .orderBy('u.email')
    .execute();
  return rows.map((row) => row.email).filter((email): email is string => Boolean(email));
}

/** A contract's amendments (their audit events), oldest first: the PDF and the page list them. */
export function listAmendmentEvents(db: Database, contractId: string) {
  return db
    .selectFrom('module_events')
    .select(['id', 'details', 'created_at'])
    .where('subject_type', '=', 'contract')
    .where('subject_id', '=', contractId)
    .where('action', '=', AMENDMENT_ACTION)
    .orderBy('id')
    .execute();
}

/** A contract's history (its audit events), newest first, at most `limit`: the staff's view of the contract page. */
export function listContractEvents(db: Database, contractId: string, limit: number) {
  return db
    .selectFrom('module_events')
    .select(['id', 'action', 'actor_email', 'details', 'created_at'])
    .where('subject_type', '=', 'contract')
    .where('subject_id', '=', contractId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
