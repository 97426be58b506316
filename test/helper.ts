/**
 * Builds the app for a test: a fresh database per call (a migrated PGlite snapshot copied
 * in memory, or a new PostgreSQL database when TEST_DATABASE_URL is set), the same Fastify
 * options as the server, and `t.after` cleanup.
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
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import app, { appOptions } from '../src/app.ts';
import type { AppOptions } from '../src/app.ts';
import { closePayrollPool } from '../src/payroll/compute-pool.ts';
import { closeRenderers } from '../src/pdf/render.ts';

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

// The apps a file builds leave their computing and rendering processes running (starting them
// and building the payroll engine in each took seconds a test): stopped once the file is done.
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
 * PGlite takes seconds to initialise and migrate: each test file is its own process, so the
 * migrated files are kept on disk and every process after the first loads them. The file is
 * written under another name and renamed, so a reader never sees half of it.
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

/** A fresh, migrated database for one test. */
export async function freshDatabase(): Promise<DatabaseHandle & { url: string | null }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const handle = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://', pgliteSnapshot: await migratedSnapshot() });
    return { ...handle, url: null };
  }
  const name = `pa_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDir: 'memory://', maxConnections: 20 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
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

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
}

type TestContext = { after(fn: () => unknown): void };

type TestDatabase = DatabaseHandle & { url: string | null };

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
