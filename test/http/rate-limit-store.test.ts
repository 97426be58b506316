import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countHit, databaseRateLimitStore, pruneEnded } from '../../src/http/rate-limit-store.ts';
import { freshDatabase, sql } from '../helper.ts';

/** The window of `key` ends: its end moved to the past, as time passing would (no sleeping). */
const endWindow = (db: Parameters<typeof countHit>[0], key: string) =>
  sql`update public.rate_limits set expires_at = now() - interval '1 millisecond' where key = ${key}`.execute(db);

describe('the rate-limit store on the database', () => {
  it('should count hits in a fixed window, start a new one once it ends, and keep keys apart', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const db = database.db;
    const first = await countHit(db, 'k', 400);
    assert.equal(first.current, 1);
    assert.equal(first.ttl, 400, 'a window starts with its whole length');
    assert.equal((await countHit(db, 'k', 400)).current, 2);
    assert.equal((await countHit(db, 'other', 400)).current, 1);
    await endWindow(db, 'k');
    const renewed = await countHit(db, 'k', 400);
    assert.equal(renewed.current, 1);
    assert.equal(renewed.ttl, 400, 'a new window');
    assert.equal((await countHit(db, 'other', 400)).current, 2, 'the other key keeps its window');
  });

  it('should count the same key under two routes apart, and read without counting', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const Store = databaseRateLimitStore(database.db);
    const root = new Store({});
    // As @fastify/rate-limit calls it: the route's merged limit options, the route as `routeInfo`.
    const login = root.child({ max: 5, routeInfo: { method: 'POST', url: '/auth/magic-link' } } as never);
    const other = root.child({ max: 5, routeInfo: { method: 'POST', url: '/other' } } as never);
    const incr = (store: typeof login) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        store.incr('127.0.0.1', (error, result) => (error ? reject(error) : resolve(result!)), 60_000, 5),
      );
    assert.equal((await incr(login)).current, 1);
    assert.equal((await incr(login)).current, 2);
    assert.equal((await incr(other)).current, 1);
    const read = await new Promise<{ current: number }>((resolve, reject) =>
      (login as unknown as { read: (k: string, cb: (e: Error | null, r?: { current: number }) => void) => void }).read('127.0.0.1', (e, r) =>
        e ? reject(e) : resolve(r!),
      ),
    );
    assert.equal(read.current, 2);
    const { rows } = await sql<{ key: string; hits: number }>`select key, hits from public.rate_limits order by key`.execute(database.db);
    assert.deepEqual(rows, [
      { key: 'POST /auth/magic-link 127.0.0.1', hits: 2 },
      { key: 'POST /other 127.0.0.1', hits: 1 },
    ]);
  });

  it('should delete only the windows that have ended when pruning', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    await countHit(database.db, 'ended', 60_000);
    await countHit(database.db, 'running', 60_000);
    await endWindow(database.db, 'ended');
    await pruneEnded(database.db);
    const { rows } = await sql<{ key: string }>`select key from public.rate_limits`.execute(database.db);
    assert.deepEqual(rows, [{ key: 'running' }]);
  });

  it('should give one count to each of many concurrent hits', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const counts = await Promise.all(Array.from({ length: 40 }, () => countHit(database.db, 'same', 60_000)));
    assert.deepEqual(
      counts.map((c) => c.current).sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});
