/**
 * Employees: the list, creation and edit. Answers never carry the IBAN, only its
 * last four characters. A change of name is carried to the employee's contracts' search text
 * in the same transaction (the grid searches employee names).
 */
import type { Database } from '../db/database.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { decodeCursor, keysetPage, parseLimit } from '../http/list.ts';
import type { Caller } from '../identity/identity.service.ts';
import { isUuid } from '../org/resolution.ts';
import { ibanLast4 } from '../money/iban.ts';
import { checkEmployeeFields, type EmployeeFieldsInput } from './employee.rules.ts';
import { employeeErrors } from './employee.errors.ts';
import * as repo from './employees.repository.ts';
import { employeeChangeEmail, type SensitiveChange } from './employee.mail.ts';
import type { Config } from '../config.ts';
import { findOrganization } from '../org/org.repository.ts';

interface EmployeeRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  category: string | null;
  iban: string | null;
  bic: string | null;
  cadre: boolean;
  pas_rate: string | null;
  dfs: string | null;
  address_line: string | null;
  postcode: string | null;
  city: string | null;
  classification: string | null;
  created_at: Date;
  updated_at: Date;
}

/** An employee as answers show it: the IBAN reduced to `iban_last4`. */
/**
 * One employee of an organization, or undefined (another organization's employee is not found).
 * The row carries the payroll inputs: `category`, `cadre` (boolean) and `pas_rate`
 * (`"7.50"`, or null: the neutral grid).
 */
export function findEmployeeOfOrg(db: Database, orgId: string, id: string) {
  return repo.findEmployee(db, orgId, id);
}

/**
 * What another module keeps of an employee's name (the contracts' search text), brought up to
 * date in the rename's own transaction. Modules that depend on employees register here, so that
 * employees need not know them.
 */
export type EmployeeRenamed = (trx: Database, employee: { id: string; first_name: string; last_name: string }) => Promise<void>;
const renameListeners: EmployeeRenamed[] = [];

export function whenEmployeeRenamed(listener: EmployeeRenamed): void {
  renameListeners.push(listener);
}

export function employeeView(row: EmployeeRow) {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    category: row.category,
    iban_last4: ibanLast4(row.iban),
    bic: row.bic,
    cadre: row.cadre,
    pas_rate: row.pas_rate,
    dfs: row.dfs,
    address_line: row.address_line,
    postcode: row.postcode,
    city: row.city,
    classification: row.classification,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface EmployeeActor {
  caller: Caller;
  orgId: string;
}

/** `GET /api/salaries`: by name (last, first). */
export async function listEmployees(db: Database, orgId: string, query: { limit?: string; cursor?: string }) {
  const limit = parseLimit(query.limit);
  const rows = await repo.listEmployees(db, orgId, decodeCursor(query.cursor), limit);
  const page = keysetPage(rows, limit, (row) => [row.last_name, row.first_name, row.id]);
  return { items: page.items.map(employeeView), next_cursor: page.next_cursor };
}

/** A new employee in the change's transaction. */
export async function insertNewEmployee(change: Change, actor: { caller: Pick<Caller, 'userId' | 'email'>; orgId: string }, input: EmployeeFieldsInput) {
  const fields = checkEmployeeFields(input);
  const created = await repo.insertEmployee(change.trx, actor.orgId, fields);
  await change.event({ org_id: actor.orgId, action: 'employee.created', subject_type: 'employee', subject_id: created.id, ...actorOf(actor.caller) });
  return created;
}

/** `POST /api/salaries`. */
export async function createEmployee(ctx: ChangeContext, actor: EmployeeActor, input: EmployeeFieldsInput) {
  return employeeView(await applyChange(ctx, (change) => insertNewEmployee(change, actor, input)));
}

/** What an edit's e-mails need of the configuration: the payroll mailbox and the service's address. */
export type EmployeeContext = ChangeContext & { config: Pick<Config, 'payrollEmail' | 'publicUrl'> };

/**
 * `PATCH /api/salaries/{id}`: the fields the body carries. A change of the IBAN or of the
 * withholding rate is e-mailed, in the same transaction, to the organization's administrators
 * and to the payroll team (`employee.mail.ts`).
 */
export async function editEmployee(ctx: EmployeeContext, actor: EmployeeActor, id: string, input: EmployeeFieldsInput) {
  const row = await applyChange(ctx, async (change) => {
    const current = isUuid(id) ? await repo.lockEmployee(change.trx, actor.orgId, id) : undefined;
    if (!current) throw employeeErrors.notFound();
    const fields = checkEmployeeFields(input, current);
    const updated = await repo.updateEmployee(change.trx, current.id, fields);
    if (fields.first_name !== current.first_name || fields.last_name !== current.last_name) {
      for (const listener of renameListeners) await listener(change.trx, { id: current.id, first_name: fields.first_name, last_name: fields.last_name });
    }
    // Which fields changed, never their values (an IBAN stays out of the audit trail).
    const changed = (Object.keys(fields) as (keyof typeof fields)[]).filter((key) => fields[key] !== current[key]);
    await change.event({
      org_id: actor.orgId,
      action: 'employee.updated',
      subject_type: 'employee',
      subject_id: current.id,
      ...actorOf(actor.caller),
      details: { changed },
    });
    const sensitive: SensitiveChange = {
      ...(changed.includes('iban') ? { iban: { before: ibanLast4(current.iban), after: ibanLast4(fields.iban) } } : {}),
      ...(changed.includes('pas_rate') ? { pas_rate: { before: current.pas_rate, after: fields.pas_rate } } : {}),
    };
    if (sensitive.iban || sensitive.pas_rate) await mailSensitiveChange(change, ctx, actor, updated, sensitive);
    return updated;
  });
  return employeeView(row);
}

/** The e-mails of a change of IBAN or withholding rate: one to each administrator, one to the payroll team. */
async function mailSensitiveChange(change: Change, ctx: EmployeeContext, actor: EmployeeActor, employee: repo.EmployeeRow, changes: SensitiveChange) {
  const org = await findOrganization(change.trx, actor.orgId);
  const base = {
    orgName: org?.name ?? '',
    employeeName: `${employee.first_name} ${employee.last_name}`,
    // Staff are "the payroll team" to the organization, never an address of theirs.
    author: actor.caller.isStaff ? 'Équipe paie' : actor.caller.email,
    changes,
  };
  const toAdmins = employeeChangeEmail({ ...base, url: null });
  for (const to of await repo.adminEmails(change.trx, actor.orgId)) await change.mail({ kind: 'employee_sensitive_change', to, ...toAdmins });
  const toPayroll = employeeChangeEmail({ ...base, author: actor.caller.email, url: `${ctx.config.publicUrl}/staff/organisations/${actor.orgId}` });
  await change.mail({ kind: 'employee_sensitive_change', to: ctx.config.payrollEmail, ...toPayroll });
}
