/**
 * Builds the app for a test: a fresh database per call (a migrated PGlite snapshot loaded in
 * memory, or a migrated PostgreSQL database when TEST_DATABASE_URL is set, either emptied and
 * reused once an earlier test of the file is done with it), the same Fastify options as the
 * server, and `t.after` cleanup.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import crypto from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, pgliteHandle, type DatabaseHandle } from '../src/db/database.ts';
import type { PGlite } from '@electric-sql/pglite';
import { migrateToLatest } from '../src/db/migrate.ts';
import app, { appOptions } from '../src/app.ts';
import type { AppOptions } from '../src/app.ts';
import { closePayrollPool } from '../src/payroll/compute-pool.ts';
import { closeRenderers } from '../src/pdf/render.ts';

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

// The apps a file builds leave their computing and rendering processes running (starting them
// and building the payroll engine in each took seconds a test): stopped once the process is done
// (a file run alone, or a shard of `npm test`: test/shards/shard.ts).
after(async () => {
  await closePayrollPool();
  await closeRenderers();
});

let snapshot: Promise<Blob> | undefined;

const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * Names the migrated database by what makes it: the migrations, the migrator and PGlite's
 * version. A changed migration gets a new snapshot; an unchanged one is reused across runs.
 */
function snapshotKey(): string {
  const hash = crypto.createHash('sha256');
  const migrations = path.join(repoRoot, 'src/db/migrations');
  for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(path.join(migrations, name)));
  hash.update(readFileSync(path.join(repoRoot, 'src/db/migrate.ts')));
  hash.update(readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 24);
}

/**
 * PGlite takes seconds to initialise and migrate: each shard of `npm test` (and each file run
 * alone) is its own process, so the migrated files are kept on disk and every process after the
 * first loads them. The file is written under another name and renamed, so a reader never sees
 * half of it.
 */
function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = path.join(os.tmpdir(), 'payroll-access-test-snapshots', `${snapshotKey()}.tar`);
    try {
      return new Blob([await fs.readFile(file)]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const handle = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    await migrateToLatest(handle.db);
    const blob = await handle.pglite!.dumpDataDir('none');
    await handle.close();
    await fs.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    await fs.writeFile(partial, Buffer.from(await blob.arrayBuffer()));
    await fs.rename(partial, file);
    await forgetStaleSnapshots(path.dirname(file));
    return blob;
  })();
  return snapshot;
}

/** Snapshots of other migrations, a day old and more, are removed: disk is not a history. */
async function forgetStaleSnapshots(dir: string): Promise<void> {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of await fs.readdir(dir)) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat && stat.mtimeMs < dayAgo) await fs.rm(path.join(dir, name), { force: true });
  }
}

/**
 * A fresh, migrated database for one test. Once its test closes it, it is emptied and kept for
 * the file's next test (`reuseOrDiscard`): loading the migrated snapshot (about 0.75 s), or
 * migrating a new PostgreSQL database, costs several times the emptying (about 0.13 s).
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  return baseUrl ? postgresDatabase(baseUrl) : embeddedDatabase();
}

const idleEmbedded: PGlite[] = [];
const idlePostgres: string[] = [];

// The idle databases go when the process is done (the apps' process pools too, above). A
// database closed after this hook (by a hook registered later) is thrown away, not kept.
let processDone = false;
after(async () => {
  processDone = true;
  for (const pglite of idleEmbedded.splice(0)) await pglite.close();
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) for (const name of idlePostgres.splice(0)) await dropPostgres(baseUrl, name);
});

async function embeddedDatabase(): Promise<TestDatabase> {
  let pglite = idleEmbedded.pop();
  if (!pglite) {
    pglite = (await openDatabase({ databaseUrl: null, pgliteDir: 'memory://', pgliteSnapshot: await migratedSnapshot() })).pglite!;
    const loaded = pglite;
    migratedPrint ??= catalogPrint((text) => loaded.query(text));
    await migratedPrint;
  }
  const owned = pglite;
  const lent = lend(owned);
  const handle = pgliteHandle(lent);
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    url: null,
    close() {
      closing ??= (async () => {
        await handle.close();
        const emptied = !processDone && !owned.closed && (await reuseOrDiscard((text) => owned.query(text)));
        if (emptied && !processDone) idleEmbedded.push(owned);
        else if (!owned.closed) await owned.close();
      })();
      return closing;
    },
  };
}

/**
 * PGlite as one test sees it: once the test closes it, its statements fail as on a closed
 * PGlite, so that nothing left running can write into the next test's database.
 */
function lend(pglite: PGlite): PGlite {
  let closed = false;
  return new Proxy(pglite, {
    get(target, key) {
      if (key === 'closed') return closed || target.closed;
      if (key === 'close') {
        return async () => {
          closed = true;
        };
      }
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (closed) throw new Error('PGlite is closed');
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function postgresDatabase(baseUrl: string): Promise<TestDatabase> {
  let name = idlePostgres.pop();
  const fresh = !name;
  if (!name) {
    name = `pa_test_${crypto.randomBytes(6).toString('hex')}`;
    await withPostgres(baseUrl, (client) => client.query(`create database ${name}`));
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDir: 'memory://', maxConnections: 20 });
  if (fresh) {
    await migrateToLatest(handle.db);
    migratedPrint ??= catalogPrint(async (text) => (await handle.pool!.query(text)) as { rows: unknown[] });
    await migratedPrint;
  }
  const owned = name;
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    url: url.toString(),
    close() {
      closing ??= (async () => {
        await handle.close();
        const reused = await withPostgres(url.toString(), async (client) => {
          // Another app or process still connected (a second instance, a child server): it
          // could still write, so the database goes.
          if (processDone || !(await onlyConnection(client))) return false;
          return reuseOrDiscard(async (text) => (await client.query(text)) as { rows: unknown[] });
        }).catch(() => false);
        if (reused && !processDone) idlePostgres.push(owned);
        else await dropPostgres(baseUrl, owned);
      })();
      return closing;
    },
  };
}

async function withPostgres<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function dropPostgres(baseUrl: string, name: string): Promise<void> {
  await withPostgres(baseUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/**
 * Whether this client is the database's only connection. The test's pool has just ended, but a
 * server process notices a closed socket a moment later: asked again, a bounded number of times.
 */
async function onlyConnection(client: pg.Client): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    if (rows[0]!.n === 0) return true;
  }
  return false;
}

type Query = (text: string) => Promise<{ rows: unknown[] }>;

/** The migrated database's catalog, printed once per file to recognise an unchanged schema. */
let migratedPrint: Promise<string> | undefined;

/**
 * Empties a database whose test is done: every table but the migrator's truncated, identities
 * restarted, the session's transaction, locks, settings and temporary tables dropped. True when
 * its schema is still the migrated one (a test that altered a table or added a trigger makes it
 * false, and the database is then thrown away).
 */
async function reuseOrDiscard(query: Query): Promise<boolean> {
  try {
    // A transaction the test left open (PGlite's one session) ends first.
    await query('rollback');
    const { rows } = (await query(
      "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') and tablename not like 'kysely\\_migration%'",
    )) as { rows: Array<{ name: string }> };
    await query(`truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade`);
    await query('discard all');
    return (await catalogPrint(query)) === (await migratedPrint);
  } catch {
    return false;
  }
}

/** Tables, columns, constraints, indexes, triggers, functions, extensions, sequences and migrations, as one digest. */
async function catalogPrint(query: Query): Promise<string> {
  const { rows } = (await query(`select md5(string_agg(x, ',' order by x)) as print from (
    select concat_ws(' ', 'rel', c.oid::regclass, c.relkind) as x from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all select concat_ws(' ', 'col', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and a.attnum > 0 and not a.attisdropped
    union all select concat_ws(' ', 'con', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint where connamespace = 'public'::regnamespace
    union all select concat_ws(' ', 'idx', pg_get_indexdef(indexrelid)) from pg_index i join pg_class c on c.oid = i.indexrelid where c.relnamespace = 'public'::regnamespace
    union all select concat_ws(' ', 'trg', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
    union all select concat_ws(' ', 'fn', p.oid::regprocedure, md5(p.prosrc)) from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all select concat_ws(' ', 'ext', extname, extversion) from pg_extension
    union all select concat_ws(' ', 'seq', sequencename, last_value) from pg_sequences
    union all select concat_ws(' ', 'migrations', count(*)) from kysely_migration
  ) as catalog`)) as { rows: Array<{ print: string }> };
  return rows[0]!.print;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: path.join(os.tmpdir(), `payroll-access-test-${crypto.randomBytes(4).toString('hex')}`),
    PUBLIC_URL: 'https://paie.example.com',
    SUPPORT_EMAIL: 'support@example.com',
    MAIL_FROM: 'Paie <no-reply@example.com>',
    // The seller of Factur-X invoices; a test of a missing one sets it to ''.
    OPERATOR_SIRET: '81234567800021',
    OPERATOR_VAT_ID: 'FR40812345678',
    OPERATOR_ADDRESS: '12 rue de la Paix',
    OPERATOR_POSTCODE: '75002',
    OPERATOR_CITY: 'Paris',
    ...overrides,
  });
}

export type TestDatabase = DatabaseHandle & { url: string | null };

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
}

type TestContext = { after(fn: () => unknown): void };

/**
 * The app on a fresh database, or with `database` on another app's (a second instance on one
 * database): on PostgreSQL it opens connections of its own; PGlite, one session, is shared.
 */
export async function build(
  t: TestContext,
  options: {
    env?: Record<string, string>;
    app?: Partial<AppOptions>;
    database?: TestDatabase;
    /** Routes of the test itself, registered beside the app's (e.g. to try a route gate). */
    routes?: (fastify: FastifyInstance) => void;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.env);
  const shared = options.database;
  const database: TestDatabase = !shared
    ? await freshDatabase()
    : shared.url
      ? { ...(await openDatabase({ databaseUrl: shared.url, pgliteDir: 'memory://' })), url: shared.url }
      : shared;
  const fastify = Fastify({ ...appOptions(config), logger: false });
  await fastify.register(app, { config, database, mailWorker: false, payrollWorker: false, jobWorker: false, keepProcessPools: true, ...options.app });
  if (options.routes) await fastify.register(async (instance) => options.routes!(instance));
  await fastify.ready();
  t.after(async () => {
    await fastify.close();
    if (database !== shared) await database.close();
  });
  return { app: fastify, database, config };
}

/**
 * One app and database for the tests of a `describe`, built before the first and closed after
 * the last: for tests that make their own organizations and people, so cannot see each other's.
 * The getter gives it to each test.
 */
export function appPerSuite(options: Parameters<typeof build>[1] = {}): () => TestApp {
  let built: TestApp | undefined;
  const cleanups: Array<() => unknown> = [];
  before(async () => {
    built = await build({ after: (fn) => cleanups.push(fn) }, options);
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return () => {
    if (!built) throw new Error('the suite app is built in the describe’s before hook');
    return built;
  };
}

/**
 * Closes `app` and checks that the close is still waiting `ms` later, for the work that
 * `release` lets finish; resolves once closed.
 */
export async function assertCloseWaitsFor(app: FastifyInstance, what: string, release: () => void, ms = 50): Promise<void> {
  let closed = false;
  const closing = app.close().then(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, ms));
  assert.equal(closed, false, `close waits for ${what}`);
  release();
  await closing;
}

/** The `session=…` cookie of a sign-in response, ready for a `cookie` header. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'session');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode} ${response.body}`);
  return `session=${cookie.value}`;
}

/**
 * Resolves once a statement of this database waits for a row lock another transaction holds:
 * a race's second step is then really blocked, whatever the machine's speed. PGlite runs one
 * transaction at a time, so the second step waits for the first there by construction.
 */
export async function untilBlockedOnALock(db: DatabaseHandle['db']): Promise<void> {
  if (!usingPostgres) return;
  for (;;) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export { sql };
