/**
 * The test databases `freshDatabase` hands out: a database an earlier test is done with comes
 * back empty, with its identities restarted; the earlier test's handle can no longer reach it;
 * one whose schema a test changed is not handed out again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase, sql, usingPostgres } from '../helper.ts';
import { createOrg } from '../support/fixtures.ts';

const organizations = async (db: Awaited<ReturnType<typeof freshDatabase>>['db']) =>
  (await db.selectFrom('organizations').select('name').execute()).map((row) => row.name);

describe('the databases of the tests', () => {
  it('should hand out, after a test, an empty database whose identities start again', async () => {
    const first = await freshDatabase();
    await createOrg(first.db, 'Théâtre du premier test');
    const { id } = await first.db.insertInto('jobs').values({ kind: 'probe', payload: '{}' }).returning('id').executeTakeFirstOrThrow();
    assert.equal(String(id), '1');
    await first.close();

    const second = await freshDatabase();
    try {
      assert.deepEqual(await organizations(second.db), []);
      const again = await second.db.insertInto('jobs').values({ kind: 'probe', payload: '{}' }).returning('id').executeTakeFirstOrThrow();
      assert.equal(String(again.id), '1');
      // The migrations stay recorded: the schema is the migrated one.
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(second.db);
      assert.ok(rows[0]!.n > 0);
    } finally {
      await second.close();
    }
  });

  it('should refuse the statements of a closed handle, whoever has its database now', async () => {
    const first = await freshDatabase();
    await first.close();
    const second = await freshDatabase();
    try {
      // PGlite's own words, or node-postgres's for a pool that was ended.
      await assert.rejects(createOrg(first.db, 'Compagnie fantôme'), {
        message: /^(PGlite is closed|Cannot use a pool after calling end on the pool)$/,
      });
      assert.deepEqual(await organizations(second.db), []);
    } finally {
      await second.close();
    }
  });

  it('should never hand out again a database whose schema a test changed', async () => {
    const first = await freshDatabase();
    await sql`alter table organizations add column probe_column int`.execute(first.db);
    await first.close();
    const second = await freshDatabase();
    try {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.columns where table_name = 'organizations' and column_name = 'probe_column'`.execute(second.db);
      assert.equal(rows[0]!.n, 0, usingPostgres ? 'PostgreSQL' : 'embedded');
    } finally {
      await second.close();
    }
  });
});
