/**
 * The audit trail of access changes: written in the transaction of the change
 * (through `applyChange`), read newest first by `GET /api/access/events` and `/vos-acces`;
 * and that of the payroll modules' changes (`module_events`), kept apart so that the access
 * trail lists access changes only.
 */
import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { AccessEventsTable } from '../db/schema.ts';

export type AccessEvent = Omit<Insertable<AccessEventsTable>, 'id' | 'created_at'>;
export type AccessEventRow = Selectable<AccessEventsTable>;

/** Who the audit trail names for changes made from the command line. */
export const CLI_ACTOR = 'cli';

/** The actor columns of an event: the signed-in caller, or the command line (null). */
export function actorOf(caller: { userId?: string; email: string } | null): Pick<AccessEvent, 'actor_user_id' | 'actor_email'> {
  return caller ? { actor_user_id: caller.userId ?? null, actor_email: caller.email } : { actor_user_id: null, actor_email: CLI_ACTOR };
}

/**
 * An event of the payroll modules (each change written with its audit event):
 * what changed (`subject_type` `contract`, `employee`, `organization`, and its id), the
 * action (`contract.submitted`…), who, and a few facts (`details`, never a secret).
 */
export interface ModuleEvent extends Pick<AccessEvent, 'actor_user_id' | 'actor_email'> {
  org_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string;
  details?: Record<string, unknown>;
}

export async function recordAccessEvent(db: Database, event: AccessEvent): Promise<void> {
  await db.insertInto('access_events').values(event).execute();
}

/** The `module_events` row of an event. */
export function moduleEventRow({ details, ...columns }: ModuleEvent) {
  return { ...columns, details: JSON.stringify(details ?? {}) };
}

/** Several module events, a thousand rows per statement (bulk invoices). */
export async function recordModuleEvents(db: Database, events: readonly ModuleEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    await db
      .insertInto('module_events')
      .values(events.slice(i, i + 1000).map(moduleEventRow))
      .execute();
  }
}

/**
 * Actions recorded for the staff only: a staff member choosing an organization
 * is written to that organization's trail, but is never part of the organization's own view
 * of its history.
 */
export const STAFF_ONLY_ACTIONS = ['active_org_selected'] as const;

/**
 * The audit trail, newest first; `before` is the id the previous page ended on. `forStaff`
 * false is an organization's own view: the staff-only actions are left out.
 */
export function listAccessEvents(db: Database, orgId: string | null, before: string | null, limit: number, forStaff = true): Promise<AccessEventRow[]> {
  let query = db.selectFrom('access_events').selectAll().orderBy('id', 'desc').limit(limit);
  if (orgId) query = query.where('org_id', '=', orgId);
  if (!forStaff) query = query.where('action', 'not in', STAFF_ONLY_ACTIONS);
  if (before) query = query.where('id', '<', before);
  return query.execute();
}
