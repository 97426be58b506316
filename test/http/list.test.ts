import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type, type Static } from '@sinclair/typebox';
import { sql, type Kysely } from 'kysely';
import { AppError } from '../../src/http/errors.ts';
import { decodeCursor, encodeCursor, keyset, keysetPage, ListQuery, parseLimit, type KeysetOrder } from '../../src/http/list.ts';
import { build, freshDatabase } from '../helper.ts';

const isError = (code: string) => (error: unknown) => error instanceof AppError && error.status === 400 && error.code === code;

describe('parseLimit', () => {
  it('should default to 50 and accept 1 to 200', () => {
    assert.equal(parseLimit(undefined), 50);
    assert.equal(parseLimit('1'), 1);
    assert.equal(parseLimit('200'), 200);
    assert.equal(parseLimit(25), 25);
  });

  it('should answer 400 invalid_limit for 0, 201 and what is not a number', () => {
    for (const raw of ['0', '201', 'abc', '', '-1', '1.5', ' 5', '1e2', ['5', '6'], 0, null]) {
      assert.throws(() => parseLimit(raw), isError('invalid_limit'), JSON.stringify(raw));
    }
  });
});

describe('cursors', () => {
  it('should round-trip values through an opaque base64url text', () => {
    const cursor = encodeCursor(['2027-03-12', 'C-2027-000012', 42]);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(cursor), ['2027-03-12', 'C-2027-000012', 42]);
    assert.equal(decodeCursor(undefined), null);
  });

  it('should refuse a Date, which would lose the microseconds of a timestamptz', () => {
    assert.throws(() => encodeCursor([new Date()]));
  });

  it('should answer 400 invalid_cursor for what it did not write', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const raw of ['', 'not a cursor!', 'bm90IGpzb24', forged({ a: 1 }), forged([]), forged([true]), forged([1.5]), 5]) {
      assert.throws(() => decodeCursor(raw), isError('invalid_cursor'), String(raw));
    }
  });
});

interface ProbeRow {
  id: number;
  day: string;
  name: string;
}

/** day desc, then name asc, then id desc: mixed directions and ties on the first two keys. */
const ORDER = [
  { ref: 'day', direction: 'desc', kind: 'date' },
  { ref: 'name', direction: 'asc', kind: 'text' },
  { ref: 'id', direction: 'desc', kind: 'integer' },
] as const satisfies KeysetOrder;

const ROWS: ProbeRow[] = [
  { id: 1, day: '2027-03-12', name: 'b' },
  { id: 2, day: '2027-03-12', name: 'a' },
  { id: 3, day: '2027-03-12', name: 'a' },
  { id: 4, day: '2027-03-11', name: 'c' },
  { id: 5, day: '2027-03-13', name: 'a' },
  { id: 6, day: '2027-03-12', name: 'b' },
  { id: 7, day: '2027-03-11', name: 'a' },
  { id: 8, day: '2027-03-11', name: 'a' },
  { id: 9, day: '2027-03-10', name: 'z' },
];

/** The expected order, written by hand from ORDER. */
const EXPECTED = [5, 3, 2, 6, 1, 8, 7, 4, 9];

async function probeTable(): Promise<{ db: Kysely<{ probe: ProbeRow }>; close(): Promise<void> }> {
  const database = await freshDatabase();
  const db = database.db as unknown as Kysely<{ probe: ProbeRow }>;
  await sql`create table probe (id integer primary key, day date not null, name text not null)`.execute(db);
  await db.insertInto('probe').values(ROWS).execute();
  return { db, close: () => database.close() };
}

async function walk(db: Kysely<{ probe: ProbeRow }>, limit: number) {
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const rows: ProbeRow[] = await keyset(
      db.selectFrom('probe').select(['id', 'name', sql<string>`day::text`.as('day')]),
      ORDER,
      decodeCursor(cursor ?? undefined),
      limit,
    ).execute();
    const page: { items: ProbeRow[]; next_cursor: string | null } = keysetPage(rows, limit, (row) => [row.day, row.name, row.id]);
    pages.push(page.items.map((row) => row.id));
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 20);
  return pages;
}

describe('keyset pagination (both databases)', () => {
  it('should walk every row once in order across ties, for every page size', async (t) => {
    const { db, close } = await probeTable();
    t.after(close);
    for (let limit = 1; limit <= 10; limit += 1) {
      const pages = await walk(db, limit);
      assert.deepEqual(pages.flat(), EXPECTED, `limit ${limit}`);
      // A page boundary on the last row (9 = 3 × 3) ends with null, never with an empty page.
      assert.equal(pages.length, Math.ceil(EXPECTED.length / limit), `limit ${limit}`);
      assert.ok(pages.every((page) => page.length > 0));
    }
    assert.deepEqual(await walk(db, 3), [
      [5, 3, 2],
      [6, 1, 8],
      [7, 4, 9],
    ]);
  });

  it('should resume after the cursor row even when that row is gone', async (t) => {
    const { db, close } = await probeTable();
    t.after(close);
    const first = keysetPage(
      await keyset(db.selectFrom('probe').select(['id', 'name', sql<string>`day::text`.as('day')]), ORDER, null, 4).execute(),
      4,
      (row) => [row.day, row.name, row.id],
    );
    assert.deepEqual(
      first.items.map((row) => row.id),
      [5, 3, 2, 6],
    );
    await db.deleteFrom('probe').where('id', '=', 6).execute();
    const next = await keyset(db.selectFrom('probe').select('id'), ORDER, decodeCursor(first.next_cursor!), 4).execute();
    assert.deepEqual(
      next.map((row) => row.id),
      [1, 8, 7, 4, 9],
    );
  });

  it('should walk an order whose keys run one way by a row comparison, which bounds the index scan', async (t) => {
    const { db, close } = await probeTable();
    t.after(close);
    const day = (a: ProbeRow, b: ProbeRow) => b.day.localeCompare(a.day) || b.id - a.id;
    const name = (a: ProbeRow, b: ProbeRow) => a.name.localeCompare(b.name) || a.id - b.id;
    const orders = [
      {
        order: [
          { ref: 'day', direction: 'desc', kind: 'date' },
          { ref: 'id', direction: 'desc', kind: 'integer' },
        ],
        sort: day,
        key: (r: ProbeRow) => [r.day, r.id],
        op: '<',
      },
      {
        order: [
          { ref: 'name', direction: 'asc', kind: 'text' },
          { ref: 'id', direction: 'asc', kind: 'integer' },
        ],
        sort: name,
        key: (r: ProbeRow) => [r.name, r.id],
        op: '>',
      },
    ] as const;
    for (const { order, sort, key, op } of orders) {
      const expected = [...ROWS].sort(sort).map((row) => row.id);
      for (let limit = 1; limit <= 4; limit += 1) {
        const seen: number[] = [];
        let cursor: string | null = null;
        do {
          const rows: ProbeRow[] = await keyset(
            db.selectFrom('probe').select(['id', 'name', sql<string>`day::text`.as('day')]),
            order,
            decodeCursor(cursor ?? undefined),
            limit,
          ).execute();
          const page: { items: ProbeRow[]; next_cursor: string | null } = keysetPage(rows, limit, key);
          seen.push(...page.items.map((row) => row.id));
          cursor = page.next_cursor;
        } while (cursor !== null && seen.length <= ROWS.length);
        assert.deepEqual(seen, expected, `${order[0].ref} limit ${limit}`);
      }
      const compiled = keyset(db.selectFrom('probe').select('id'), order, key(ROWS[0]!), 2).compile().sql;
      assert.match(compiled, new RegExp(`where \\("${order[0].ref}", "id"\\) ${op} \\(\\$1, \\$2\\)`));
    }
    // The two orders the walks were checked against, written by hand.
    assert.deepEqual(
      [...ROWS].sort(day).map((row) => row.id),
      [5, 6, 3, 2, 1, 8, 7, 4, 9],
    );
    assert.deepEqual(
      [...ROWS].sort(name).map((row) => row.id),
      [2, 3, 5, 7, 8, 1, 6, 4, 9],
    );
  });

  it('should answer 400 invalid_cursor, not a database error, for a cursor of the wrong shape', async (t) => {
    const { db, close } = await probeTable();
    t.after(close);
    for (const values of [
      ['2027-02-30', 'a', 1],
      ['2027-03-12', 'a'],
      ['yesterday', 'a', 1],
      ['2027-03-12', 'a', 'x'],
      [1, 'a', 1],
    ]) {
      assert.throws(() => keyset(db.selectFrom('probe').select('id'), ORDER, values, 3), isError('invalid_cursor'), JSON.stringify(values));
    }
  });
});

describe('GET with ListQuery', () => {
  it('should let every bad limit and cursor reach the helper (400 invalid_limit / invalid_cursor)', async (t) => {
    const Query = Type.Object(ListQuery);
    const { app: fastify } = await build(t, {
      routes: (app) =>
        app.get<{ Querystring: Static<typeof Query> }>('/list-probe', { config: { public: true }, schema: { querystring: Query } }, async (request) => ({
          limit: parseLimit(request.query.limit),
          cursor: decodeCursor(request.query.cursor),
        })),
    });
    const get = (qs: string) => fastify.inject({ method: 'GET', url: `/list-probe${qs}` });
    assert.deepEqual((await get('')).json(), { limit: 50, cursor: null });
    assert.deepEqual((await get('?limit=200')).json(), { limit: 200, cursor: null });
    for (const qs of ['?limit=0', '?limit=201', '?limit=abc', '?limit=', '?limit=5&limit=6']) {
      const response = await get(qs);
      assert.equal(response.statusCode, 400, qs);
      assert.equal(response.json().error, 'invalid_limit', qs);
    }
    const bad = await get('?cursor=%25%25');
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { error: 'invalid_cursor', message: 'Curseur de pagination invalide : reprenez la liste depuis le début.' });
  });
});
