/**
 * The one file store: put, get, delete and signed URLs, behind one interface.
 *
 * Every file has a `files` row written in the caller's transaction. By default the bytes are in
 * that row, so a rolled-back change leaves nothing behind, several instances share the files
 * and a backup holds them. With `STORAGE_URL=s3://…` the bytes go to an S3 object named after
 * the id instead (see `s3-blobs.ts` for how a rolled-back change leaves no object behind).
 */
import type { Database } from '../db/database.ts';
import { deleteFile, existingFileIds, findFile, insertFile } from './files.repository.ts';
import { signFileUrl } from './signed-url.ts';

/** An S3 object younger than this is never swept (`s3-blobs.ts`): its row may not be committed yet. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

export interface NewFile {
  content: Buffer;
  contentType: string;
  filename: string;
  /** The organization the file belongs to; absent for the operator's own files. */
  orgId?: string | null;
}

export interface StoredFile {
  content: Buffer;
  contentType: string;
  filename: string;
}

export interface FileStore {
  /**
   * The bytes are in the `files` row (no `STORAGE_URL`): a change may then write the row in the
   * same statement as its other writes (`storeGeneratedPdf` in contracts.repository.ts). With
   * S3 the bytes go up after the row, so `put` in a transaction is the only way.
   */
  readonly bytesInRow: boolean;
  /** Stores a file in the caller's transaction; returns its id (a uuid). */
  put(trx: Database, file: NewFile): Promise<string>;
  /** The file, or null when the id names none (or is not an id at all). */
  get(id: string, db?: Database): Promise<StoredFile | null>;
  /** Deletes a file in the caller's transaction; nothing happens for an unknown id. */
  delete(trx: Database, id: string): Promise<void>;
  /** A link valid 5 minutes, usable without a session: `{PUBLIC_URL}/files/{id}?exp=&sig=`. */
  signedUrl(id: string): { url: string; expires_at: string };
  /**
   * Deletes the S3 objects left without a row (rolled-back changes, deletions) once older than
   * `graceMs` (default an hour); returns how many. Nothing to do when files are in the database.
   */
  sweep(graceMs?: number): Promise<number>;
}

/** Where the bytes go when they are not in the row. */
export interface BlobStore {
  put(id: string, content: Buffer, contentType: string): Promise<void>;
  get(id: string): Promise<Buffer | null>;
  /** Deletes the objects older than `graceMs` whose id `exists` does not return; returns how many. */
  sweep(exists: (ids: string[]) => Promise<Set<string>>, graceMs?: number): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A bytea value as a Buffer without a copy (pg gives a Buffer, PGlite a Uint8Array). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createFileStore(options: { db: Database; blobs: BlobStore | null; signingKey: Buffer; publicUrl: string }): FileStore {
  const { db, blobs, signingKey, publicUrl } = options;
  return {
    bytesInRow: blobs === null,

    async put(trx, file) {
      const id = await insertFile(trx, {
        orgId: file.orgId ?? null,
        filename: file.filename,
        contentType: file.contentType,
        size: file.content.length,
        content: blobs ? null : file.content,
      });
      // After the row: a failed upload throws and rolls the caller's transaction back.
      if (blobs) await blobs.put(id, file.content, file.contentType);
      return id;
    },

    async get(id, reader = db) {
      // Not a uuid: no such file (and no database error for a malformed id).
      if (!UUID.test(id)) return null;
      const row = await findFile(reader, id);
      if (!row) return null;
      const content = row.content ? asBuffer(row.content) : await blobs?.get(id);
      if (!content) return null;
      return { content, contentType: row.content_type, filename: row.filename };
    },

    async delete(trx, id) {
      // Only the row: an S3 object without a row is removed by the sweep, once the deletion
      // is committed (deleting it now would lose the file if the transaction rolled back).
      if (UUID.test(id)) await deleteFile(trx, id);
    },

    signedUrl(id) {
      return signFileUrl(signingKey, publicUrl, id);
    },

    async sweep(graceMs) {
      return blobs ? blobs.sweep((ids) => existingFileIds(db, ids), graceMs) : 0;
    },
  };
}
