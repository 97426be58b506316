/**
 * Opens the database: PostgreSQL through `pg` when a URL is given, else the embedded
 * PGlite under `DATA_DIR/pg`. Both speak the same SQL and run the same migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** The pg pool when on PostgreSQL (streaming, raw COPY in benchmarks); null on PGlite. */
  pool: pg.Pool | null;
  /** The embedded database when on PGlite (snapshots in tests); null on PostgreSQL. */
  pglite: PGlite | null;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl: string | null;
  /** Where PGlite keeps its files; `memory://` for a throw-away database. */
  pgliteDir: string;
  /** A PGlite data-directory dump to start from (tests copy one migrated snapshot). */
  pgliteSnapshot?: Blob;
  /** Pool size on PostgreSQL. */
  maxConnections?: number;
}

// Counts and identity columns come back as strings from pg; keep them JS numbers/strings as
// declared, and keep timestamps as Date on both drivers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      // Fail fast instead of hanging when PostgreSQL is down (requests answer 503).
      connectionTimeoutMillis: 5000,
    });
    // An idle client losing its server (PostgreSQL restarted) must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', pool, pglite: null, close: () => db.destroy() };
  }
  if (!options.pgliteDir.startsWith('memory://')) {
    fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  }
  const pglite = await PGlite.create(options.pgliteDir.startsWith('memory://') ? undefined : options.pgliteDir, {
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
    // int8 as text, as pg returns it, so both drivers give the same values.
    parsers: { [pg.types.builtins.INT8]: (value: string) => value },
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  // Kysely only closes a driver it has used; close PGlite ourselves so that it never
  // keeps the process alive.
  const close = async () => {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  };
  return { db, kind: 'pglite', pool: null, pglite, close };
}
