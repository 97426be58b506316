/**
 * Opens the database: PostgreSQL through `pg` when a URL is given, else the embedded
 * PGlite under `DATA_DIR/pg`. Both speak the same SQL and run the same migrations.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, sql, type Compilable, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { createCopyOut, type CopyOut } from './copy-out.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { makePrivateDir, makeTreePrivate } from './private-files.ts';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** The pg pool when on PostgreSQL (streaming, raw COPY in benchmarks); null on PGlite. */
  pool: pg.Pool | null;
  /** The embedded database when on PGlite (snapshots in tests); null on PostgreSQL. */
  pglite: PGlite | null;
  /** Streaming `COPY ... TO STDOUT` on PostgreSQL; null on PGlite (its one session is never held). */
  copyOut: CopyOut | null;
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
  /**
   * How long opening a connection may take before the query fails as "database unavailable"
   * (503), in ms: a PostgreSQL that accepts and never answers. Default 5,000.
   */
  connectTimeoutMs?: number;
  /**
   * How long a query waits for one of the pool's connections to be free before it fails, in
   * ms; 0 waits as long as it takes. Default 30,000: a database that is up but busy makes
   * requests slower, it is not reported unavailable after the few seconds of a connect.
   */
  poolWaitMs?: number;
}

// Counts and identity columns come back as strings from pg; keep them JS numbers/strings as
// declared, and keep timestamps as Date on both drivers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);
// A calendar date (`date`) stays the text 'YYYY-MM-DD': a Date would put it at a time of day
// in some time zone, and shift it by one day in another.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/**
 * A statement whose SQL starts with `preparedStatement(name)` is prepared once per connection
 * and then reused by name: PostgreSQL skips its parse and plan (which cost more than running
 * the hottest queries, e.g. `GET /api/access`). Its SQL must not vary with the values it is
 * given; each distinct text gets its own name. PGlite sees a plain comment.
 */
export function preparedStatement(name: string): RawBuilder<unknown> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad statement name ${name}`);
  return sql.raw(`/* prepared ${name} */ `);
}

const PREPARED = /^\/\* prepared ([a-z_]+) \*\/ /;

/** A query built by Kysely's builder, marked like `preparedStatement(name)` (same rules). */
export function asPrepared<O>(name: string, query: CompiledQuery<O>): CompiledQuery<O> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad statement name ${name}`);
  return CompiledQuery.raw(`/* prepared ${name} */ ${query.sql}`, [...query.parameters]) as CompiledQuery<O>;
}

/**
 * The rows of a builder's query run as a prepared statement (`asPrepared`): for the statements
 * a hot path runs every time, whose plan does not depend on the values (a lookup by key).
 */
export async function executePrepared<O>(db: Database, name: string, query: Compilable<O>): Promise<O[]> {
  return (await db.executeQuery(asPrepared(name, query.compile()))).rows;
}

/** The first row of `executePrepared`, or undefined. */
export async function takeFirstPrepared<O>(db: Database, name: string, query: Compilable<O>): Promise<O | undefined> {
  return (await executePrepared(db, name, query))[0];
}
const statementNames = new Map<string, string>();

function statementName(text: string, base: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `${base}_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** pg's client, naming the statements marked by `preparedStatement` (Kysely calls `query(text, values)`). */
class PreparingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const match = typeof text === 'string' && args.length === 2 ? PREPARED.exec(text) : null;
    const query = super.query as (...a: unknown[]) => never;
    if (match) return query.call(this, { name: statementName(text as string, match[1]!), text, values });
    return query.apply(this, args);
  }
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const maxConnections = options.maxConnections ?? 10;
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const pool = new pg.Pool({
      // pg-pool's one timeout bounds both the wait for a free connection and the opening of a
      // new one; the client's own bounds the opening alone, so that a PostgreSQL that does not
      // answer still fails fast (503) while a busy pool only queues.
      Client: class extends PreparingClient {
        constructor(config?: pg.ClientConfig) {
          super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
        }
      },
      connectionString: options.databaseUrl,
      max: maxConnections,
      connectionTimeoutMillis: options.poolWaitMs ?? 30_000,
    });
    // A client losing its server (PostgreSQL restarted) must not crash the process. The pool
    // listens to idle clients only; a client lent to a query also emits 'error' (the query
    // itself fails and is answered 503), so every client gets a listener of its own.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    // A COPY holds its connection while a client downloads: a quarter of the pool at most.
    const copyOut = createCopyOut(pool, Math.max(1, Math.floor(maxConnections / 4)));
    // Kysely ends only a pool it has used: a handle closed unused must refuse its queries too.
    const close = async () => {
      await db.destroy();
      if (!pool.ending) await pool.end();
    };
    return { db, kind: 'postgres', pool, pglite: null, copyOut, close };
  }
  const onDisk = !options.pgliteDir.startsWith('memory://');
  if (onDisk) makePrivateDir(path.dirname(options.pgliteDir));
  // Loaded only when used: on PostgreSQL, the WASM build's code would cost memory for nothing.
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
  const pglite = await PGlite.create(onDisk ? options.pgliteDir : undefined, {
    // The contracts grid's search index (migration 2026_11_23_10_00_00_contracts), and the
    // accent-insensitive organization search (2026_11_23_14_00_00_search_fold).
    extensions: { pg_trgm, unaccent },
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
    // int8 and date as text, as pg returns them (above), so both drivers give the same values.
    parsers: { [pg.types.builtins.INT8]: (value: string) => value, [pg.types.builtins.DATE]: (value: string) => value },
  });
  // PGlite unpacks its files 0666 (an explicit chmod, past any umask): the owner's alone.
  if (onDisk) makeTreePrivate(options.pgliteDir);
  return pgliteHandle(pglite);
}

/** The handle over an open PGlite: closing it closes PGlite. */
export function pgliteHandle(pglite: PGlite): DatabaseHandle {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  // Kysely only closes a driver it has used; close PGlite ourselves so that it never
  // keeps the process alive.
  const close = async () => {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  };
  return { db, kind: 'pglite', pool: null, pglite, copyOut: null, close };
}
