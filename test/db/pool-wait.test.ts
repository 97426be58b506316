import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { sql } from 'kysely';
import { openDatabase, type OpenOptions } from '../../src/db/database.ts';
import { isDatabaseUnavailable } from '../../src/db/errors.ts';
import { usingPostgres } from '../helper.ts';

const onPostgres = { skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL): PGlite has no pool' };

/** A pool of one connection, held by a transaction until `release` is called. */
async function heldPool(options: Partial<OpenOptions> = {}) {
  const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, pgliteDir: 'memory://', maxConnections: 1, ...options });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const transaction = handle.db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    holding();
    await released;
  });
  await held;
  return { handle, release, transaction };
}

describe('openDatabase: waiting for a connection', () => {
  it('should fail a query queued past poolWaitMs, and leave the pool usable', onPostgres, async () => {
    const { handle, release, transaction } = await heldPool({ poolWaitMs: 300 });
    try {
      await assert.rejects(sql`select 2`.execute(handle.db), /timeout/i);
      release();
      await transaction;
      const { rows } = await sql<{ n: number }>`select 3 as n`.execute(handle.db);
      assert.equal(rows[0]!.n, 3);
    } finally {
      release();
      await handle.close();
    }
  });

  it('should keep a query queued behind a busy pool past the 5 s of a connect (default wait 30 s)', onPostgres, async () => {
    const { handle, release, transaction } = await heldPool();
    try {
      const query = sql<{ n: number }>`select 4 as n`.execute(handle.db);
      const outcome = await Promise.race([
        query.then(
          () => 'answered',
          () => 'failed',
        ),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 5_500)),
      ]);
      assert.equal(outcome, 'waiting');
      release();
      await transaction;
      assert.equal((await query).rows[0]!.n, 4);
    } finally {
      release();
      await handle.close();
    }
  });

  it('should fail as "database unavailable" after connectTimeoutMs when PostgreSQL accepts and never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const handle = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, pgliteDir: 'memory://', connectTimeoutMs: 300 });
    try {
      const error = await sql`select 1`.execute(handle.db).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(isDatabaseUnavailable(error), `not reported unavailable: ${String(error)}`);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await handle.close().catch(() => {});
    }
  });
});
