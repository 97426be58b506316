/**
 * Rows for several tables written in one statement: each table's rows are a data-modifying
 * CTE (PostgreSQL runs every one of them, referenced or not). A change's records (its audit
 * events, its e-mails) thus cost one round trip instead of one per row.
 */
import { sql, type Insertable } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';

export type PendingRows = { [T in keyof DB]: { table: T; rows: ReadonlyArray<Insertable<DB[T]>> } }[keyof DB];

export async function insertAll(db: Database, pending: readonly PendingRows[]): Promise<void> {
  const writes = pending.filter((p) => p.rows.length > 0);
  if (writes.length === 0) return;
  if (writes.length === 1) {
    const [only] = writes as [PendingRows];
    await db
      .insertInto(only.table)
      .values(only.rows as never)
      .execute();
    return;
  }
  // Kysely types a CTE chain table by table; the tables here vary at run time.
  let query = db as unknown as Database;
  writes.forEach((write, i) => {
    query = query.with(`write_${i}`, (q) => q.insertInto(write.table).values(write.rows as never)) as unknown as Database;
  });
  await query.selectNoFrom(sql<number>`1`.as('done')).execute();
}
