/** The SQL of the file store: the `files` rows and the generated signing key (`app_secrets`). */
import crypto from 'node:crypto';
import { executePrepared, type Database } from '../db/database.ts';

export interface FileRow {
  filename: string;
  content_type: string;
  content: Uint8Array | null;
}

export async function insertFile(
  trx: Database,
  file: { orgId: string | null; filename: string; contentType: string; size: number; content: Buffer | null },
): Promise<string> {
  const query = trx
    .insertInto('files')
    .values({ org_id: file.orgId, filename: file.filename, content_type: file.contentType, size: file.size, content: file.content })
    .returning('id');
  const [row] = await executePrepared(trx, 'file_insert', query);
  return row!.id;
}

export function findFile(db: Database, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').select(['filename', 'content_type', 'content']).where('id', '=', id).executeTakeFirst();
}

export async function deleteFile(trx: Database, id: string): Promise<void> {
  await executePrepared(trx, 'file_delete', trx.deleteFrom('files').where('id', '=', id));
}

/** Of these ids, those that still have a row (the S3 sweep keeps their objects). */
export async function existingFileIds(db: Database, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('files').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * The secret named `name`, generated on first use. Instances starting together may both try:
 * `on conflict do nothing` keeps the first, and both read it back, so every instance signs alike.
 */
export async function sharedSecret(db: Database, name: string): Promise<Buffer> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: crypto.randomBytes(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value);
}
