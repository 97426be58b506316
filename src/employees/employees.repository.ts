/** SQL of employees: every query that reads or writes them. */
import type { Database } from '../db/database.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import type { EmployeeFields } from './employee.rules.ts';

const COLUMNS = [
  'id',
  'org_id',
  'first_name',
  'last_name',
  'email',
  'category',
  'iban',
  'bic',
  'cadre',
  'pas_rate',
  'dfs',
  'address_line',
  'postcode',
  'city',
  'classification',
  'created_at',
  'updated_at',
] as const;

export type EmployeeRow = Awaited<ReturnType<typeof findEmployee>> & object;

/** The organization's employee, or undefined (unknown, or of another organization). */
export function findEmployee(db: Database, orgId: string, id: string) {
  return db.selectFrom('employees').select(COLUMNS).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** The same, locked until the end of the transaction (an edit). */
export function lockEmployee(db: Database, orgId: string, id: string) {
  return db.selectFrom('employees').select(COLUMNS).where('org_id', '=', orgId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function insertEmployee(db: Database, orgId: string, fields: EmployeeFields) {
  return db
    .insertInto('employees')
    .values({ org_id: orgId, ...fields })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateEmployee(db: Database, id: string, fields: EmployeeFields) {
  return db
    .updateTable('employees')
    .set({ ...fields, updated_at: new Date() })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The list's order: by name, the id last (unique). */
export const EMPLOYEE_ORDER = [
  { ref: 'last_name', direction: 'asc', kind: 'text' },
  { ref: 'first_name', direction: 'asc', kind: 'text' },
  { ref: 'id', direction: 'asc', kind: 'uuid' },
] as const satisfies KeysetOrder;

/** One page of the organization's employees by name, after `cursor`. */
export function listEmployees(db: Database, orgId: string, cursor: CursorValue[] | null, limit: number) {
  return keyset(db.selectFrom('employees').select(COLUMNS).where('org_id', '=', orgId), EMPLOYEE_ORDER, cursor, limit).execute();
}

/** The e-mail addresses of the organization's administrators (ADMIN, SUPER_ADMIN, not revoked). */
export async function adminEmails(db: Database, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('organization_members as m')
    .innerJoin('auth.users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.org_id', '=', orgId)
    .where('m.role', 'in', ['ADMIN', 'SUPER_ADMIN'])
    .where('m.revoked', '=', false)
    .orderBy('u.email')
    .execute();
  return rows.map((row) => row.email).filter((email): email is string => Boolean(email));
}
