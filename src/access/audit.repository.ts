/** The audit trail of access changes (CONTRACT 5): written in the transaction of the change. */
import type { Insertable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { AccessEventsTable } from '../db/schema.ts';

export type AccessEvent = Omit<Insertable<AccessEventsTable>, 'id' | 'created_at'>;

export async function recordAccessEvent(db: Database, event: AccessEvent): Promise<void> {
  await db.insertInto('access_events').values(event).execute();
}
