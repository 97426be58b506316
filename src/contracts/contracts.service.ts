/**
 * Contracts (MODULES 4): creation, reading, a draft's edit, submit and cancel, the grid, the
 * staff's salaries by date, and notes. Every change is one `applyChange`: its writes, its
 * audit event and its e-mails in one transaction.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ContractStatus } from '../db/schema.ts';
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { fieldErrors } from '../http/errors.ts';
import { decodeCursor, invalidCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { contractNoteEmail } from '../mail/templates.ts';
import { moneyFromDb, parseQuantity, type Money } from '../money/money.ts';
import { isUuid } from '../org/resolution.ts';
import { findOrganization } from '../org/org.repository.ts';
import { findEmployee } from '../employees/employees.repository.ts';
import { contractErrors } from './contract.errors.ts';
import {
  assertDatesEditable,
  assertEditable,
  checkContractFields,
  checkDates,
  CONTRACT_KINDS,
  CONTRACT_NUMBER,
  CONTRACT_STATUSES,
  formatContractNumber,
  grossTotal,
  numberingYear,
  parseIsoDate,
  searchTerms,
  searchTextOf,
  statusAfterCancel,
  statusAfterSubmit,
  type ContractDate,
  type ContractFields,
  type ContractFieldsInput,
} from './contract.rules.ts';
import * as repo from './contracts.repository.ts';

export interface ContractContext extends ChangeContext {
  config: Config;
}

/** Who acts, and on which organization (`orgId` null: a staff route, any organization). */
export interface Actor {
  caller: Caller;
  orgId: string | null;
}

// ---------------------------------------------------------------------------------------
// Answers.

const money = (value: string | null): Money | null => (value === null ? null : moneyFromDb(value));

function summaryOf(row: repo.ContractRow) {
  return {
    id: row.id,
    org_id: row.org_id,
    contract_number: row.contract_number,
    employee_id: row.employee_id,
    employee: { first_name: row.first_name, last_name: row.last_name },
    kind: row.kind,
    status: row.status,
    job_title: row.job_title,
    show_title: row.show_title,
    idcc: row.idcc,
    start_date: row.start_date,
    end_date: row.end_date,
    monthly_gross: money(row.monthly_gross),
    gross_total: money(row.gross_total),
    has_generated_pdf: row.has_generated_pdf,
    has_signed_pdf: row.has_signed_pdf,
    signed_at: row.signed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type ContractSummary = ReturnType<typeof summaryOf>;
export type ContractView = ContractSummary & { dates: ContractDate[] };

function datesOf(dates: readonly ContractDate[]): ContractDate[] {
  // numeric(12,3) reads "7.500": shown in the canonical form the input was given in ("7.5").
  return dates.map((d) => ({ date: d.date, nature: d.nature, quantity: parseQuantity(d.quantity) ?? d.quantity, amount: moneyFromDb(d.amount) }));
}

/** The contract with its dates, as `GET /api/contrats/{id}` answers it; 404 when not in `orgId`. */
export async function readContract(db: Database, orgId: string | null, id: string): Promise<ContractView> {
  const row = isUuid(id) ? await repo.findContract(db, orgId, id) : undefined;
  if (!row) throw contractErrors.notFound();
  return { ...summaryOf(row), dates: datesOf(await repo.listDates(db, row.id)) };
}

// ---------------------------------------------------------------------------------------
// Changes.

/** The contract locked for a change, or 404 (unknown, or of another organization). */
async function lockOrNotFound(trx: Database, orgId: string | null, id: string) {
  const contract = isUuid(id) ? await repo.lockContract(trx, orgId, id) : undefined;
  if (!contract) throw contractErrors.notFound();
  return contract;
}

async function employeeOf(trx: Database, orgId: string, employeeId: unknown) {
  if (employeeId === undefined || employeeId === null || employeeId === '') throw fieldErrors.missing('employee_id', 'Le salarié');
  const employee = isUuid(employeeId) ? await findEmployee(trx, orgId, employeeId) : undefined;
  if (!employee) throw contractErrors.unknownEmployee();
  return employee;
}

export type ContractInput = ContractFieldsInput & { employee_id?: unknown; dates?: unknown };

/** `POST /api/contrats`: a new draft, numbered C-YYYY-NNNNNN in the year of creation. */
export async function createContract(ctx: ContractContext, actor: Actor & { orgId: string }, input: ContractInput): Promise<ContractView> {
  const id = await applyChange(ctx, async (change) => {
    const employee = await employeeOf(change.trx, actor.orgId, input.employee_id);
    const fields = checkContractFields(input);
    const dates = checkDates(input.dates, fields);
    const year = numberingYear(new Date());
    const contractNumber = formatContractNumber(year, await repo.nextInSeries(change.trx, 'contract', year));
    const contractId = await repo.insertContract(change.trx, {
      ...fields,
      org_id: actor.orgId,
      contract_number: contractNumber,
      employee_id: employee.id,
      gross_total: grossTotal(dates, fields.monthly_gross),
      search_text: searchTextOf({ contract_number: contractNumber, show_title: fields.show_title, employee }),
      created_by: actor.caller.userId,
    });
    await repo.replaceDates(change.trx, contractId, dates);
    await change.event({ org_id: actor.orgId, action: 'contract.created', subject_type: 'contract', subject_id: contractId, ...actorOf(actor.caller), details: { contract_number: contractNumber } });
    return contractId;
  });
  return readContract(ctx.db, actor.orgId, id);
}

/** `PATCH /api/contrats/{id}`: a draft's fields (those the body carries); its dates when given. */
export async function editContract(ctx: ContractContext, actor: Actor & { orgId: string }, id: string, input: ContractInput): Promise<ContractView> {
  await applyChange(ctx, async (change) => {
    const current = await lockOrNotFound(change.trx, actor.orgId, id);
    assertEditable(current.status);
    const employee = await employeeOf(change.trx, actor.orgId, input.employee_id ?? current.employee_id);
    const merged: ContractFieldsInput = {};
    for (const key of ['kind', 'job_title', 'show_title', 'idcc', 'start_date', 'end_date', 'monthly_gross'] as const) {
      merged[key] = input[key] === undefined ? current[key] : input[key];
    }
    const fields: ContractFields = checkContractFields(merged);
    // Dates left out are kept, and must still fall within the (possibly new) period.
    const dates = checkDates(input.dates === undefined ? await repo.listDates(change.trx, current.id) : input.dates, fields);
    await repo.updateContract(change.trx, current.id, {
      fields: { ...fields, employee_id: employee.id },
      gross_total: grossTotal(dates, fields.monthly_gross),
      search_text: searchTextOf({ contract_number: current.contract_number, show_title: fields.show_title, employee }),
    });
    await repo.replaceDates(change.trx, current.id, dates);
    await change.event({ org_id: actor.orgId, action: 'contract.updated', subject_type: 'contract', subject_id: current.id, ...actorOf(actor.caller) });
  });
  return readContract(ctx.db, actor.orgId, id);
}

/** `submit` and `cancel`: a status change by the rules of `contract.rules.ts`. */
async function changeStatus(ctx: ContractContext, actor: Actor & { orgId: string }, id: string, next: (status: ContractStatus) => ContractStatus, action: string): Promise<ContractView> {
  await applyChange(ctx, async (change) => {
    const current = await lockOrNotFound(change.trx, actor.orgId, id);
    const status = next(current.status);
    await repo.updateContract(change.trx, current.id, { status });
    await change.event({ org_id: actor.orgId, action, subject_type: 'contract', subject_id: current.id, ...actorOf(actor.caller), details: { from: current.status, to: status } });
  });
  return readContract(ctx.db, actor.orgId, id);
}

export const submitContract = (ctx: ContractContext, actor: Actor & { orgId: string }, id: string) =>
  changeStatus(ctx, actor, id, statusAfterSubmit, 'contract.submitted');

export const cancelContract = (ctx: ContractContext, actor: Actor & { orgId: string }, id: string) =>
  changeStatus(ctx, actor, id, statusAfterCancel, 'contract.cancelled');

/**
 * `PATCH /api/staff/contrats/{id}/salaires-par-date`: replaces the dates of a contract of any
 * organization, in any status but `annule`, and recomputes the total in the same transaction.
 */
export async function replaceContractDates(ctx: ContractContext, caller: Caller, id: string, input: unknown) {
  return applyChange(ctx, async (change) => {
    const current = await lockOrNotFound(change.trx, null, id);
    assertDatesEditable(current.status);
    if (input === undefined || input === null) throw fieldErrors.missing('dates', 'La liste des dates');
    const dates = checkDates(input, current);
    const total = grossTotal(dates, current.monthly_gross === null ? null : moneyFromDb(current.monthly_gross));
    await repo.replaceDates(change.trx, current.id, dates);
    await repo.updateContract(change.trx, current.id, { gross_total: total });
    await change.event({ org_id: current.org_id, action: 'contract.dates_replaced', subject_type: 'contract', subject_id: current.id, ...actorOf(caller), details: { gross_total: total, count: dates.length } });
    return { gross_total: total, dates };
  });
}

// ---------------------------------------------------------------------------------------
// The grid.

export interface GridQuery {
  limit?: string;
  cursor?: string;
  status?: string;
  kind?: string;
  employee_id?: string;
  from?: string;
  to?: string;
  q?: string;
}

function gridFilters(orgId: string | null, query: GridQuery): repo.GridFilters {
  const filters: repo.GridFilters = { orgId, terms: searchTerms(query.q) };
  if (query.status) {
    if (!(CONTRACT_STATUSES as readonly string[]).includes(query.status)) throw fieldErrors.invalid('status', 'Le statut');
    filters.status = query.status as ContractStatus;
  }
  if (query.kind) {
    if (!(CONTRACT_KINDS as readonly string[]).includes(query.kind)) throw fieldErrors.invalid('kind', 'Le type de contrat');
    filters.kind = query.kind as repo.GridFilters['kind'] & string;
  }
  if (query.employee_id) {
    // An id that names nothing matches nothing: an empty page, not an error.
    filters.employeeId = isUuid(query.employee_id) ? query.employee_id : '00000000-0000-0000-0000-000000000000';
  }
  for (const bound of ['from', 'to'] as const) {
    if (query[bound]) {
      const date = parseIsoDate(query[bound]);
      if (!date) throw contractErrors.invalidDate();
      filters[bound] = date;
    }
  }
  return filters;
}

/** `GET /api/contrats` and `GET /api/staff/contrats` (orgId null: every organization). */
export async function listGrid(db: Database, orgId: string | null, query: GridQuery) {
  const limit = parseLimit(query.limit);
  const after = decodeCursor(query.cursor);
  // A cursor is opaque to clients but not to us: what it holds goes into SQL, so check it.
  if (after !== null && (after.length !== 2 || parseIsoDate(after[0]) === null || typeof after[1] !== 'string' || !CONTRACT_NUMBER.test(after[1]))) {
    throw invalidCursor();
  }
  const rows = await repo.listContracts(db, gridFilters(orgId, query), after as [string, string] | null, limit);
  const page = keysetPage(rows, limit, (row) => [row.start_date, row.contract_number]);
  return { items: page.items.map(summaryOf), next_cursor: page.next_cursor };
}

/** `GET /api/staff/contrats`: every organization, or the one `org_id` names. */
export function listStaffGrid(db: Database, query: GridQuery & { org_id?: string }) {
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  return listGrid(db, query.org_id || null, query);
}

// ---------------------------------------------------------------------------------------
// Notes.

/**
 * `POST /api/contrats/{id}/notes`. A client's note (not staff's) e-mails the payroll mailbox
 * in the same transaction (MODULES 4, SPEC 6).
 */
export async function addNote(ctx: ContractContext, actor: Actor & { orgId: string }, id: string, rawText: unknown) {
  const text = typeof rawText === 'string' ? rawText.trim() : '';
  if (!text) throw fieldErrors.missing('text', 'Le texte de la note');
  return applyChange(ctx, async (change) => {
    const contract = isUuid(id) ? await repo.findContract(change.trx, actor.orgId, id) : undefined;
    if (!contract) throw contractErrors.notFound();
    const note = await repo.insertNote(change.trx, { contract_id: contract.id, author_user_id: actor.caller.userId, author_email: actor.caller.email, text });
    await change.event({ org_id: actor.orgId, action: 'contract.note_added', subject_type: 'contract', subject_id: contract.id, ...actorOf(actor.caller), details: { note_id: note.id } });
    if (!actor.caller.isStaff) {
      const org = await findOrganization(change.trx, actor.orgId);
      await change.mail({
        kind: 'contract_note',
        to: ctx.config.payrollEmail,
        ...contractNoteEmail({
          orgName: org?.name ?? '',
          structureApi: org?.structure_api ?? null,
          contractNumber: contract.contract_number,
          author: { name: actor.caller.firstName, email: actor.caller.email },
          text,
          contractUrl: `${ctx.config.publicUrl}/staff/contrats/${contract.id}`,
        }),
      });
    }
    return note;
  });
}

/** `GET /api/contrats/{id}/notes`: newest first. */
export async function listNotes(db: Database, orgId: string, id: string, query: { limit?: string; cursor?: string }) {
  const limit = parseLimit(query.limit);
  const after = decodeCursor(query.cursor);
  const contract = isUuid(id) ? await repo.findContract(db, orgId, id) : undefined;
  if (!contract) throw contractErrors.notFound();
  const before = after === null ? null : String(after[0]);
  if (before !== null && !/^\d{1,18}$/.test(before)) throw invalidCursor();
  const rows = await repo.listNotes(db, contract.id, before, limit);
  return keysetPage(rows, limit, (row) => [row.id]);
}
