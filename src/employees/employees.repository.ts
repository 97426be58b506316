/** SQL of employees (MODULES 3): every query that reads or writes them. */
import type { Database } from '../db/database.ts';
import type { EmployeeFields } from './employee.rules.ts';

const COLUMNS = ['id', 'org_id', 'first_name', 'last_name', 'email', 'category', 'iban', 'bic', 'created_at', 'updated_at'] as const;

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
  return db.insertInto('employees').values({ org_id: orgId, ...fields }).returning(COLUMNS).executeTakeFirstOrThrow();
}

export function updateEmployee(db: Database, id: string, fields: EmployeeFields) {
  return db
    .updateTable('employees')
    .set({ ...fields, updated_at: new Date() })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One page of the organization's employees by name (last, first, id), after `after`. */
export function listEmployees(db: Database, orgId: string, after: [string, string, string] | null, limit: number) {
  let query = db
    .selectFrom('employees')
    .select(COLUMNS)
    .where('org_id', '=', orgId)
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .limit(limit + 1);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('last_name', 'first_name', 'id'), '>', eb.tuple(after[0], after[1], after[2])));
  }
  return query.execute();
}
