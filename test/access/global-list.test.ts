import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { globalMemberListStream } from '../../src/access/member-list.ts';
import { createCopyOut } from '../../src/db/copy-out.ts';
import type { Database } from '../../src/db/database.ts';
import { StalledReaderError } from '../../src/http/watched-stream.ts';
import { freshDatabase, sql, usingPostgres } from '../helper.ts';
import { addMembership, createOrg } from '../support/fixtures.ts';

const quiet = { error() {} };
const ON_POSTGRES = usingPostgres ? false : 'COPY runs on PostgreSQL only (TEST_DATABASE_URL)';

async function bodyOf(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** `count` members of one organization, built by the database itself. */
async function manyMembers(db: Database, count: number): Promise<string> {
  const orgId = await createOrg(db, 'Grande');
  await sql`insert into auth.users (id, email, user_metadata)
    select gen_random_uuid(), 'm' || i || '@example.com', jsonb_build_object('display_name', 'Camille ' || i)
      from generate_series(1, ${count}::int) as i`.execute(db);
  await sql`insert into public.organization_members (org_id, user_id, role, created_at)
    select ${orgId}::uuid, id, 'AGENT', now() - (row_number() over (order by email)) * interval '1 second'
      from auth.users`.execute(db);
  return orgId;
}

/** COPY statements still running on the server (none once a stream is let go). */
async function runningCopies(db: Database): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query like 'copy (%' and state = 'active'`.execute(db);
    if (rows[0]!.n === 0 || attempt === 50) return rows[0]!.n;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /api/access global list stream', () => {
  it('should stream by COPY exactly the bytes the keyset pages give', { skip: ON_POSTGRES }, async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const db = database.db;
    const a = await createOrg(db, 'A');
    const b = await createOrg(db, 'B');
    const people = [
      { email: 'quote"back\\slash@example.com', metadata: { first_name: ' Zoé "Z" \\ \t ' } },
      { email: 'display@example.com', metadata: { display_name: 'Ünal Öztürk' } },
      { email: 'none@example.com', metadata: {} },
      { email: 'emoji@example.com', metadata: { first_name: '😀 \u0001 \u2028' } },
    ];
    const ids: string[] = [];
    for (const [i, person] of people.entries()) {
      const { rows } = await sql<{ id: string }>`insert into auth.users (email, user_metadata, activated_at)
        values (${person.email}, ${JSON.stringify(person.metadata)}::jsonb, ${i % 2 ? null : new Date()}) returning id`.execute(db);
      ids.push(rows[0]!.id);
    }
    // Microseconds, before 2000 and before 1970, and a revoked membership.
    await sql`insert into public.organization_members (org_id, user_id, role, created_at, revoked, revoked_at) values
      (${a}::uuid, ${ids[0]}::uuid, 'ADMIN', '2026-11-22 10:00:00.123999+00', false, null),
      (${a}::uuid, ${ids[1]}::uuid, 'AGENT', '1999-12-31 23:59:59.9995+00', true, '2026-01-02 03:04:05.678901+00'),
      (${b}::uuid, ${ids[2]}::uuid, 'COMPTA', '1969-07-20 20:17:40+00', false, null),
      (${b}::uuid, ${ids[3]}::uuid, 'SUPER_ADMIN', '2026-11-22 10:00:00.123998+00', false, null)`.execute(db);
    // An account that cannot be read any more.
    const ghost = await sql<{ id: string }>`insert into auth.users (email) values ('ghost@example.com') returning id`.execute(db);
    await addMembership(db, b, ghost.rows[0]!.id, 'AGENT', { createdAt: new Date('2031-01-01T00:00:00Z') });
    await sql`alter table public.organization_members drop constraint organization_members_user_id_fkey`.execute(db);
    await sql`delete from auth.users where id = ${ghost.rows[0]!.id}`.execute(db);

    const copied = await bodyOf(await globalMemberListStream(database, quiet));
    const paged = await bodyOf(await globalMemberListStream({ db, copyOut: null }, quiet));
    assert.equal(copied, paged);
    const items = JSON.parse(copied).items as Array<Record<string, unknown>>;
    assert.deepEqual(
      items.map((i) => [i.email, i.first_name, i.created_at, i.revoked_at]),
      [
        ['Email non disponible', null, '2031-01-01T00:00:00.000Z', null],
        ['quote"back\\slash@example.com', 'Zoé "Z" \\ \t', '2026-11-22T10:00:00.123Z', null],
        ['emoji@example.com', '😀 \u0001 \u2028', '2026-11-22T10:00:00.123Z', null],
        ['display@example.com', 'Ünal', '1999-12-31T23:59:59.999Z', '2026-01-02T03:04:05.678Z'],
        ['none@example.com', null, '1969-07-20T20:17:40.000Z', null],
      ],
    );
    assert.equal(items[1]!.org_id, a);
  });

  it('should end the COPY and free its connection when the client goes away', { skip: ON_POSTGRES }, async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    await manyMembers(database.db, 20_000);
    const stream = await globalMemberListStream(database, quiet);
    stream.once('data', () => stream.destroy());
    await once(stream, 'close');
    assert.equal(await runningCopies(database.db), 0);
    // Both COPY slots are free again: two full lists at once still stream by COPY.
    const bodies = await Promise.all([1, 2].map(async () => bodyOf(await globalMemberListStream(database, quiet))));
    assert.deepEqual(
      bodies.map((body) => JSON.parse(body).items.length),
      [20_000, 20_000],
    );
  });

  it('should let go of a client that reads nothing for the stall delay', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    await manyMembers(database.db, 5_000);
    const stream = await globalMemberListStream(database, quiet, 300);
    const [error] = (await once(stream, 'error')) as [Error];
    assert.ok(error instanceof StalledReaderError);
    if (usingPostgres) assert.equal(await runningCopies(database.db), 0);
    // The database is free for everyone else.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.organization_members`.execute(database.db);
    assert.equal(rows[0]!.n, 5_000);
  });

  it('should read keyset pages when every COPY slot is taken', { skip: ON_POSTGRES }, async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    await manyMembers(database.db, 12_000);
    const oneSlot = { db: database.db, copyOut: createCopyOut(database.pool!, 1) };
    const holding = await globalMemberListStream(oneSlot, quiet);
    const second = JSON.parse(await bodyOf(await globalMemberListStream(oneSlot, quiet))).items as Array<{ created_at: string }>;
    assert.equal(second.length, 12_000);
    assert.ok(second.every((item, i) => i === 0 || second[i - 1]!.created_at >= item.created_at));
    assert.equal(JSON.parse(await bodyOf(holding)).items.length, 12_000);
  });
});
