/**
 * Contracts: creation, reading, a draft's edit, submit and cancel, the grid, the
 * staff's salaries by date, and notes. Every change is one `applyChange`: its writes, its
 * audit event and its e-mails in one transaction.
 */
import type { Config } from '../config.ts';
import type { FileStore } from '../files/file-store.ts';
import type { Database } from '../db/database.ts';
import type { ContractStatus } from '../db/schema.ts';
import { nextInSeries } from '../db/number-series.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { fieldErrors } from '../http/errors.ts';
import { decodeCursor, keysetPage, parseLimit, type JsonPage } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { contractNoteEmail, staffNoteEmail } from './contract.mail.ts';
import { moneyFromDb, parseQuantity, type Money } from '../money/money.ts';
import { isUuid } from '../org/resolution.ts';
import { findOrganization } from '../org/org.repository.ts';
import { generatingPdf, renderPdf } from '../pdf/render.ts';
import { todayInFrance } from '../format/french.ts';
import { contractDocument, type ContractAmendment } from './contract.pdf.ts';
import { findEmployeeOfOrg, whenEmployeeRenamed } from '../employees/employees.service.ts';
import { employeeErrors } from '../employees/employee.errors.ts';
import { contractErrors } from './contract.errors.ts';
import { numberingYear, parseIsoDate } from '../format/calendar.ts';
import {
  assertDatesEditable,
  assertEditable,
  checkAmendment,
  checkContractFields,
  checkDates,
  CONTRACT_KINDS,
  CONTRACT_STATUSES,
  formatContractNumber,
  grossTotal,
  searchTerms,
  searchTextOf,
  statusAfterCancel,
  statusAfterSigning,
  statusAfterSubmit,
  statusAfterUnsigning,
  type AmendmentInput,
  type ContractDate,
  type ContractFields,
  type ContractFieldsInput,
} from './contract.rules.ts';
import * as repo from './contracts.repository.ts';

export interface ContractContext extends ChangeContext {
  config: Config;
  files: FileStore;
}

/** Who a change is recorded as made by. */
export type ActorCaller = Pick<Caller, 'userId' | 'email'>;

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

// A contract is found by its employee's name: when an employee is renamed, the search text of
// their contracts follows, in the rename's transaction.
whenEmployeeRenamed((trx, employee) => repo.updateSearchTextOfEmployee(trx, employee.id, (contract) => searchTextOf({ ...contract, employee })));

/** The contract with its dates, as `GET /api/contrats/{id}` answers it; 404 when not in `orgId`. */
export async function readContract(db: Database, orgId: string | null, id: string): Promise<ContractView> {
  const row = isUuid(id) ? await repo.findContractWithDates(db, orgId, id) : undefined;
  if (!row) throw contractErrors.notFound();
  return { ...summaryOf(row), dates: datesOf(row.dates) };
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
  const employee = isUuid(employeeId) ? await findEmployeeOfOrg(trx, orgId, employeeId) : undefined;
  if (!employee) throw employeeErrors.unknownEmployee();
  return employee;
}

export type ContractInput = ContractFieldsInput & { employee_id?: unknown; dates?: unknown };

/** A new draft in the change's transaction, numbered C-YYYY-NNNNNN in the year of creation; its id. */
export async function insertNewContract(change: Change, actor: { caller: ActorCaller; orgId: string }, input: ContractInput): Promise<string> {
  const employee = await employeeOf(change.trx, actor.orgId, input.employee_id);
  const fields = checkContractFields(input);
  const dates = checkDates(input.dates, fields);
  const year = numberingYear(new Date());
  const contractNumber = formatContractNumber(year, await nextInSeries(change.trx, 'contract', year));
  const contractId = await repo.insertContract(change.trx, {
    ...fields,
    org_id: actor.orgId,
    contract_number: contractNumber,
    employee_id: employee.id,
    gross_total: grossTotal(dates, fields.monthly_gross),
    search_text: searchTextOf({ contract_number: contractNumber, show_title: fields.show_title, employee }),
  });
  await repo.replaceDates(change.trx, contractId, dates);
  await change.event({
    org_id: actor.orgId,
    action: 'contract.created',
    subject_type: 'contract',
    subject_id: contractId,
    ...actorOf(actor.caller),
    details: { contract_number: contractNumber },
  });
  return contractId;
}

/** `POST /api/contrats`. */
export async function createContract(ctx: ContractContext, actor: Actor & { orgId: string }, input: ContractInput): Promise<ContractView> {
  const id = await applyChange(ctx, (change) => insertNewContract(change, actor, input));
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
    // The row is locked: it is there, dates included.
    const kept = input.dates === undefined ? (await repo.findContractWithDates(change.trx, actor.orgId, current.id))!.dates : input.dates;
    const dates = checkDates(kept, fields);
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

/** A status change by the rules of `contract.rules.ts`, in the change's transaction. */
export async function applyStatusChange(
  change: Change,
  actor: { caller: ActorCaller; orgId: string },
  id: string,
  next: (status: ContractStatus) => ContractStatus,
  action: string,
): Promise<void> {
  const current = await lockOrNotFound(change.trx, actor.orgId, id);
  const status = next(current.status);
  await repo.updateContract(change.trx, current.id, { status });
  await change.event({
    org_id: actor.orgId,
    action,
    subject_type: 'contract',
    subject_id: current.id,
    ...actorOf(actor.caller),
    details: { from: current.status, to: status },
  });
}

export async function submitContract(ctx: ContractContext, actor: Actor & { orgId: string }, id: string): Promise<ContractView> {
  await applyChange(ctx, async (change) => {
    // A CDDU's contributions depend on its employee's category (artist or technician): out for
    // signature, it must be one the payroll can compute.
    const current = await lockOrNotFound(change.trx, actor.orgId, id);
    if (current.status === 'brouillon' && current.kind === 'CDDU') {
      const employee = await findEmployeeOfOrg(change.trx, actor.orgId, current.employee_id);
      if (employee && employee.category === null) throw contractErrors.employeeCategoryMissing(employee);
    }
    await applyStatusChange(change, actor, id, statusAfterSubmit, 'contract.submitted');
  });
  // Out for signature, the contract needs its document to sign (and the payroll already counts
  // it): rendered once the change is committed, as `POST /api/generate-contract-pdf` would.
  await generatingPdf(() => readRenderAndStore(ctx, actor, id));
  return readContract(ctx.db, actor.orgId, id);
}

export async function cancelContract(ctx: ContractContext, actor: Actor & { orgId: string }, id: string): Promise<ContractView> {
  await applyChange(ctx, (change) => applyStatusChange(change, actor, id, statusAfterCancel, 'contract.cancelled'));
  return readContract(ctx.db, actor.orgId, id);
}

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
    await change.event({
      org_id: current.org_id,
      action: 'contract.dates_replaced',
      subject_type: 'contract',
      subject_id: current.id,
      ...actorOf(caller),
      details: { gross_total: total, count: dates.length },
    });
    return { gross_total: total, dates };
  });
}

/**
 * `POST /api/contrats/{id}/avenants`: an avenant extends the contract's period (an
 * earlier start, a later end) and adds its dates, in one transaction with the total recomputed;
 * the audit event `contract.amended` records it (its number, the period before and after, the
 * dates added), and the contract's PDF lists it. In any status but `annule`. An avenant is a
 * document to sign: a signed contract goes back to `a_signer` (its signed PDF is no longer the
 * contract as it stands), the signed file kept and named in the event (`unsigned`: its file and
 * signing time), and the PDF to sign, when the contract has one or was signed, is rendered
 * again with the avenant once the change is committed.
 */
export async function amendContract(ctx: ContractContext, actor: Actor & { orgId: string }, id: string, input: AmendmentInput): Promise<ContractView> {
  const toSign = await applyChange(ctx, async (change) => {
    const current = await lockOrNotFound(change.trx, actor.orgId, id);
    // The row is locked: it is there, dates included.
    const kept = datesOf((await repo.findContractWithDates(change.trx, actor.orgId, current.id))!.dates);
    const amendment = checkAmendment({ ...current, dateCount: kept.length }, input);
    const dates = [...kept, ...amendment.dates].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const total = grossTotal(dates, current.monthly_gross === null ? null : moneyFromDb(current.monthly_gross));
    const number = (await repo.listAmendmentEvents(change.trx, current.id)).length + 1;
    const wasSigned = current.status === 'signe';
    const signed = wasSigned ? await repo.findSignature(change.trx, current.id) : undefined;
    await repo.updateContract(change.trx, current.id, {
      start_date: amendment.start_date,
      end_date: amendment.end_date,
      gross_total: total,
      // The signed file is not deleted: the history (this event) keeps it.
      ...(wasSigned ? { status: 'a_signer' as const, signed_pdf_id: null, signed_at: null } : {}),
    });
    await repo.replaceDates(change.trx, current.id, dates);
    const details: AmendmentDetails = {
      number,
      on: todayInFrance(),
      previous: { start_date: current.start_date, end_date: current.end_date },
      start_date: amendment.start_date,
      end_date: amendment.end_date,
      dates: amendment.dates,
      gross_total: total,
      ...(wasSigned ? { from: 'signe' as const, to: 'a_signer' as const } : {}),
      ...(signed ? { unsigned: { signed_pdf_id: signed.signed_pdf_id!, signed_at: signed.signed_at ? new Date(signed.signed_at).toISOString() : null } } : {}),
    };
    await change.event({
      org_id: actor.orgId,
      action: repo.AMENDMENT_ACTION,
      subject_type: 'contract',
      subject_id: current.id,
      ...actorOf(actor.caller),
      details: { ...details },
    });
    return current.generated_pdf_id !== null || wasSigned;
  });
  if (toSign) await generatingPdf(() => readRenderAndStore(ctx, actor, id));
  return readContract(ctx.db, actor.orgId, id);
}

/** What the audit event of an avenant holds (`details` of `contract.amended`); `unsigned`: the signed PDF it set aside. */
export type AmendmentDetails = ContractAmendment & {
  gross_total: Money | null;
  unsigned?: { signed_pdf_id: string; signed_at: string | null };
  from?: 'signe';
  to?: 'a_signer';
};

/** A contract's avenants, oldest first, from its history. */
export async function listAmendments(db: Database, contractId: string): Promise<AmendmentDetails[]> {
  const rows = await repo.listAmendmentEvents(db, contractId);
  return rows.map((row) => row.details as unknown as AmendmentDetails);
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

function gridFilters(query: GridQuery): repo.GridFilters {
  const filters: repo.GridFilters = { terms: searchTerms(query.q) };
  if (query.status) {
    if (!(CONTRACT_STATUSES as readonly string[]).includes(query.status)) throw fieldErrors.invalid('status', 'Le statut');
    filters.status = query.status as ContractStatus;
  }
  if (query.kind) {
    if (!(CONTRACT_KINDS as readonly string[]).includes(query.kind)) throw fieldErrors.invalid('kind', 'Le type de contrat');
    filters.kind = query.kind as repo.GridFilters['kind'] & string;
  }
  if (query.employee_id) {
    if (!isUuid(query.employee_id)) throw fieldErrors.invalid('employee_id', 'Le salarié');
    filters.employeeId = query.employee_id;
  }
  for (const bound of ['from', 'to'] as const) {
    if (query[bound]) {
      const date = parseIsoDate(query[bound]);
      if (!date) throw contractErrors.invalidDate(bound);
      filters[bound] = date;
    }
  }
  return filters;
}

/** What a page of the grid reads, from its query (400 on a bad value); `key` names it. */
export function gridPlan(query: GridQuery) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  const filters = gridFilters(query);
  return { limit, cursor, filters, key: JSON.stringify([filters, cursor, limit]) };
}

/**
 * `GET /api/contrats` and `GET /api/staff/contrats` (orgId null: every organization): the
 * page as PostgreSQL writes it, items in `summaryOf`'s shape.
 */
export function listGridJson(db: Database, orgId: string | null, query: GridQuery): Promise<JsonPage> {
  const { limit, cursor, filters } = gridPlan(query);
  return repo.listContractsJson(db, orgId, filters, cursor, limit);
}

/** A grid item as the API answers it (`summaryOf`, its timestamps as JSON writes them). */
export type GridItem = Omit<ContractSummary, 'signed_at' | 'created_at' | 'updated_at'> & { signed_at: string | null; created_at: string; updated_at: string };

/** The grid's page read back into items (the `/contrats` page). */
export async function listGrid(db: Database, orgId: string | null, query: GridQuery): Promise<{ items: GridItem[]; next_cursor: string | null }> {
  const page = await listGridJson(db, orgId, query);
  return { items: JSON.parse(page.items) as GridItem[], next_cursor: page.next_cursor };
}

/** The staff grid's page read back into items (the `/staff/contrats` page). */
export async function listStaffGrid(db: Database, query: GridQuery & { org_id?: string }): Promise<{ items: GridItem[]; next_cursor: string | null }> {
  const page = await listStaffGridJson(db, query);
  return { items: JSON.parse(page.items) as GridItem[], next_cursor: page.next_cursor };
}

/** How the contract page's history reads a contract's audit events (staff only: they name staff addresses). */
export function contractHistory(db: Database, contractId: string, limit: number) {
  return repo.listContractEvents(db, contractId, limit);
}

/** `GET /api/staff/contrats`: every organization, or the one `org_id` names. */
export function listStaffGridJson(db: Database, query: GridQuery & { org_id?: string }): Promise<JsonPage> {
  if (query.org_id && !isUuid(query.org_id)) throw fieldErrors.invalid('org_id', "L'organisation");
  return listGridJson(db, query.org_id || null, query);
}

// ---------------------------------------------------------------------------------------
// Notes.

/** How clients see the author of a staff member's note: never the address. */
export const STAFF_NOTE_AUTHOR = 'Équipe paie';

/** A note as `viewerIsStaff` sees it: docs/contracts.md's `{ id, author_email, text, created_at }`. */
function noteView(row: { id: string; author_email: string; author_is_staff: boolean; text: string; created_at: Date }, viewerIsStaff: boolean) {
  return { id: row.id, author_email: row.author_is_staff && !viewerIsStaff ? STAFF_NOTE_AUTHOR : row.author_email, text: row.text, created_at: row.created_at };
}

/**
 * `POST /api/contrats/{id}/notes`, its e-mails in the same transaction: a client's note to the
 * payroll mailbox, its author as Reply-To; a staff member's note to the
 * organization's people who wrote a note on the contract, one e-mail each.
 */
export async function addNote(ctx: ContractContext, actor: Actor & { orgId: string }, id: string, rawText: unknown) {
  const text = typeof rawText === 'string' ? rawText.trim() : '';
  if (!text) throw fieldErrors.missing('text', 'Le texte de la note');
  return applyChange(ctx, async (change) => {
    const contract = isUuid(id) ? await repo.findContract(change.trx, actor.orgId, id) : undefined;
    if (!contract) throw contractErrors.notFound();
    // Read before the note is written: the writers told are the others, never its author.
    const writers = actor.caller.isStaff ? await repo.noteWritersOf(change.trx, actor.orgId, contract.id) : [];
    const note = await repo.insertNote(change.trx, {
      contract_id: contract.id,
      author_user_id: actor.caller.userId,
      author_email: actor.caller.email,
      author_is_staff: actor.caller.isStaff,
      text,
    });
    await change.event({
      org_id: actor.orgId,
      action: 'contract.note_added',
      subject_type: 'contract',
      subject_id: contract.id,
      ...actorOf(actor.caller),
      details: { note_id: note.id, ...(actor.caller.isStaff ? { told: writers.length } : {}) },
    });
    const org = await findOrganization(change.trx, actor.orgId);
    if (!actor.caller.isStaff) {
      await change.mail({
        kind: 'contract_note',
        to: ctx.config.payrollEmail,
        replyTo: actor.caller.email,
        ...contractNoteEmail({
          orgName: org?.name ?? '',
          structureApi: org?.structure_api ?? null,
          contractNumber: contract.contract_number,
          author: { name: actor.caller.firstName, email: actor.caller.email },
          text,
          contractUrl: `${ctx.config.publicUrl}/staff/contrats/${contract.id}`,
        }),
      });
    } else if (writers.length > 0) {
      const rendered = staffNoteEmail({
        orgName: org?.name ?? '',
        contractNumber: contract.contract_number,
        employeeName: `${contract.first_name} ${contract.last_name}`,
        text,
        contractUrl: `${ctx.config.publicUrl}/contrats/${contract.id}`,
      });
      for (const to of writers) await change.mail({ kind: 'contract_staff_note', to, ...rendered });
    }
    return noteView(note, actor.caller.isStaff);
  });
}

/** `GET /api/contrats/{id}/notes`: newest first; a staff member's note signed "Équipe paie" unless `viewerIsStaff`. */
export async function listNotes(db: Database, orgId: string, id: string, query: { limit?: string; cursor?: string }, viewerIsStaff: boolean) {
  const limit = parseLimit(query.limit);
  const cursor = decodeCursor(query.cursor);
  const contract = isUuid(id) ? await repo.findContract(db, orgId, id) : undefined;
  if (!contract) throw contractErrors.notFound();
  const rows = await repo.listNotes(db, contract.id, cursor, limit);
  const page = keysetPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map((row) => noteView(row, viewerIsStaff)), next_cursor: page.next_cursor };
}

// ---------------------------------------------------------------------------------------
// PDFs: the generated one and the signed one.

/**
 * `POST /api/generate-contract-pdf`: renders the contract (outside any transaction: rendering
 * takes tens of milliseconds, in a rendering process), then stores it in place of the previous
 * one. Three statements with the gate's when the bytes are in the database (nine in the first
 * version, bench/README.md: each is a wake-up of PostgreSQL that the event loop pays for under
 * load): the gate, the document, then the file, the contract's new PDF, the previous file's
 * deletion and the event in one (`storeGeneratedPdf`). With S3 the same writes in a transaction.
 * From the document's read to the store, in one of the renderers' slots (`generatingPdf`).
 */
export async function generateContractPdf(ctx: ContractContext, actor: Actor & { orgId: string }, contractId: unknown) {
  if (contractId === undefined || contractId === null || contractId === '') throw fieldErrors.missing('contract_id', 'Le contrat');
  if (typeof contractId !== 'string') throw contractErrors.notFound();
  return generatingPdf(() => readRenderAndStore(ctx, actor, contractId));
}

async function readRenderAndStore(ctx: ContractContext, actor: Actor & { orgId: string }, contractId: string) {
  const { contract, document } = await readContractDocument(ctx.db, actor.orgId, contractId);
  const pdf = await renderPdf(document);
  const file = { content: pdf, contentType: 'application/pdf', filename: `${contract.contract_number}.pdf`, orgId: actor.orgId };
  const event = {
    org_id: actor.orgId,
    action: 'contract.pdf_generated',
    subject_type: 'contract',
    subject_id: contract.id,
    ...actorOf(actor.caller),
    details: { bytes: pdf.length },
  };
  const fileId = ctx.files.bytesInRow
    ? await repo.storeGeneratedPdf(ctx.db, contract.id, file, event)
    : await applyChange(ctx, async (change) => {
        const id = await ctx.files.put(change.trx, file);
        const replaced = await repo.replaceGeneratedPdf(change.trx, actor.orgId, contract.id, id);
        // Deleted meanwhile: the new file goes with the rolled-back transaction.
        if (!replaced) throw contractErrors.notFound();
        if (replaced.previous_pdf_id) await ctx.files.delete(change.trx, replaced.previous_pdf_id);
        await change.event(event);
        return id;
      });
  // Deleted since it was read: the statement wrote nothing.
  if (!fileId) throw contractErrors.notFound();
  return { ok: true as const, ...ctx.files.signedUrl(fileId) };
}

/**
 * The contract of `orgId` and its document as `POST /api/generate-contract-pdf` renders it,
 * dated today, read in one statement; 404 when there is none.
 */
export async function readContractDocument(db: Database, orgId: string, id: string) {
  const row = isUuid(id) ? await repo.findContractDocument(db, orgId, id) : undefined;
  if (!row) throw contractErrors.notFound();
  const contract = { ...summaryOf(row), dates: datesOf(row.dates) };
  const document = contractDocument({
    ...contract,
    amendments: row.amendments as unknown as AmendmentDetails[],
    employer: { name: row.employer_name, structure_api: row.employer_structure_api, siret: row.employer_siret },
    employee: { ...contract.employee, category: row.employee_category },
    issuedOn: todayInFrance(),
  });
  return { contract, document };
}

/** `GET /api/contrats/{id}/pdf-url`: the signed PDF when there is one, else the generated one. */
export async function contractPdfUrl(ctx: ContractContext, orgId: string, id: string) {
  const files = isUuid(id) ? await repo.findContractFiles(ctx.db, orgId, id) : undefined;
  if (!files) throw contractErrors.notFound();
  const fileId = files.signed_pdf_id ?? files.generated_pdf_id;
  if (!fileId) throw contractErrors.noPdf();
  return { ...ctx.files.signedUrl(fileId), signed: files.signed_pdf_id !== null };
}

/**
 * `PUT /api/staff/contrats/{id}/signed-pdf`: stores the file in place of a previous one, sets
 * `signed_at` and the status `signe`, in one transaction (a refusal stores nothing).
 */
export async function attachSignedPdf(ctx: ContractContext, caller: Caller, id: string, content: Buffer): Promise<ContractView> {
  await applyChange(ctx, async (change) => {
    const current = await lockOrNotFound(change.trx, null, id);
    const status = statusAfterSigning(current.status);
    const fileId = await ctx.files.put(change.trx, {
      content,
      contentType: 'application/pdf',
      filename: `${current.contract_number}-signe.pdf`,
      orgId: current.org_id,
    });
    if (current.signed_pdf_id) await ctx.files.delete(change.trx, current.signed_pdf_id);
    await repo.updateContract(change.trx, current.id, { signed_pdf_id: fileId, signed_at: new Date(), status });
    await change.event({
      org_id: current.org_id,
      action: 'contract.signed_pdf_attached',
      subject_type: 'contract',
      subject_id: current.id,
      ...actorOf(caller),
      details: { from: current.status, to: status, bytes: content.length },
    });
  });
  return readContract(ctx.db, null, id);
}

/** `DELETE /api/staff/contrats/{id}/delete-signed-pdf`: back to `a_signer`. */
export async function deleteSignedPdf(ctx: ContractContext, caller: Caller, id: string): Promise<void> {
  await applyChange(ctx, async (change) => {
    const current = await lockOrNotFound(change.trx, null, id);
    if (!current.signed_pdf_id) throw contractErrors.noSignedPdf();
    const status = statusAfterUnsigning(current.status);
    await repo.updateContract(change.trx, current.id, { signed_pdf_id: null, signed_at: null, status });
    await ctx.files.delete(change.trx, current.signed_pdf_id);
    await change.event({
      org_id: current.org_id,
      action: 'contract.signed_pdf_deleted',
      subject_type: 'contract',
      subject_id: current.id,
      ...actorOf(caller),
      details: { from: current.status, to: status },
    });
  });
}
