/** Liveness and readiness probes, in-process. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, sql } from '../helper.ts';

describe('GET /healthz and GET /readyz', () => {
  it('should answer 200 when the database answers and is migrated, and 503 when a migration is pending', async (t) => {
    const { app, database } = await build(t);
    const live = await app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: 'ok' });

    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready' });

    // Forget that the migration ran: the database is now behind the code.
    await sql`delete from kysely_migration`.execute(database.db);
    const pending = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(pending.statusCode, 503);
    assert.deepEqual(pending.json(), { status: 'migrations pending' });
  });

  it('should answer 503 when the database does not answer', async (t) => {
    const { app, database } = await build(t);
    await database.close();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), { status: 'database unavailable' });
    // Liveness does not depend on the database.
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  });
});
