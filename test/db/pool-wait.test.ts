import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import { usingPostgres } from '../helper.ts';

const onPostgres = { skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL): PGlite has no pool' };

/** A pool of one connection, held by a transaction until `release` is called. */
async function heldPool(connectionTimeoutMs?: number) {
  const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, pgliteDir: 'memory://', maxConnections: 1, connectionTimeoutMs });
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

describe('openDatabase: waiting for a pool connection', () => {
  it('should fail a query that waited past its timeout, and leave the pool usable', onPostgres, async () => {
    const { handle, release, transaction } = await heldPool(300);
    try {
      const started = Date.now();
      await assert.rejects(sql`select 2`.execute(handle.db), /timeout/i);
      const waited = Date.now() - started;
      assert.ok(waited >= 250 && waited < 3_000, `waited ${waited} ms`);
      release();
      await transaction;
      const { rows } = await sql<{ n: number }>`select 3 as n`.execute(handle.db);
      assert.equal(rows[0]!.n, 3);
    } finally {
      release();
      await handle.close();
    }
  });

  it('should wait as long as it takes with 0 (the bench limit servers)', onPostgres, async () => {
    const { handle, release, transaction } = await heldPool(0);
    try {
      const query = sql<{ n: number }>`select 4 as n`.execute(handle.db);
      // Past the default 5 s: the query is still waiting, not failed.
      const outcome = await Promise.race([query.then(() => 'answered', () => 'failed'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 5_500))]);
      assert.equal(outcome, 'waiting');
      release();
      await transaction;
      assert.equal((await query).rows[0]!.n, 4);
    } finally {
      release();
      await handle.close();
    }
  });
});
