/**
 * The one list-and-cursor helper: `?limit=` (default 50, 1 to 200, else 400
 * `invalid_limit`), `?cursor=` (opaque, from `next_cursor`; a bad one 400 `invalid_cursor`), and
 * the answer `{ items, next_cursor }`. Keyset pagination, never OFFSET: a page deep in the list
 * costs what the first one does, and rows added meanwhile neither repeat nor vanish.
 *
 * ```ts
 * const CONTRACT_ORDER = [
 *   { ref: 'c.start_date', direction: 'desc', kind: 'date' },
 *   { ref: 'c.contract_number', direction: 'desc', kind: 'text' },   // unique: the tie-breaker
 * ] as const satisfies KeysetOrder;
 * const limit = parseLimit(query.limit);
 * const rows = await keyset(db.selectFrom('contracts as c').selectAll(), CONTRACT_ORDER, decodeCursor(query.cursor), limit).execute();
 * return keysetPage(rows, limit, (row) => [row.start_date, row.contract_number]);
 * ```
 *
 * The last key must be unique (an id, a number) so that ties in the others never lose a row.
 * Keys are never NULL (a NULL compares as unknown and would end the walk).
 */
import { Type } from '@sinclair/typebox';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { FastifyReply } from 'fastify';
import { asPrepared } from '../db/database.ts';
import { AppError } from './errors.ts';
import { hasUnsafeCharacters, isUuid } from './input.ts';

export const DEFAULT_LIMIT = 50;
/** The grids' page size. */
export const MAX_LIMIT = 200;

export const listErrors = {
  invalidLimit: () => new AppError(400, 'invalid_limit', `Le paramètre limit doit être un entier de 1 à ${MAX_LIMIT}.`),
  invalidCursor: () => new AppError(400, 'invalid_cursor', 'Curseur de pagination invalide : reprenez la liste depuis le début.'),
};

/**
 * The two query parameters, to spread into a route's querystring schema:
 * `Type.Object({ ...ListQuery, status: … })`. Untyped for the validator on purpose: `limit=abc`
 * must reach `parseLimit` and answer `invalid_limit`, not the validator's `invalid_request`.
 */
export const ListQuery = {
  limit: Type.Optional(Type.Unsafe<string>({ description: `page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`, examples: ['50'] })),
  cursor: Type.Optional(Type.Unsafe<string>({ description: 'the `next_cursor` of the previous page (opaque)' })),
};

/** The answer of a list route: `{ items, next_cursor }`. */
export function Page<T extends Parameters<typeof Type.Array>[0]>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  });
}

/** `?limit=`: absent gives 50; `"1"`..`"200"` (or the number); anything else 400 `invalid_limit`. */
export function parseLimit(raw: unknown): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,3}$/.test(text)) throw listErrors.invalidLimit();
  const limit = Number(text);
  if (limit < 1 || limit > MAX_LIMIT) throw listErrors.invalidLimit();
  return limit;
}

/** A cursor value: what JSON keeps exactly. */
export type CursorValue = string | number;

/**
 * The cursor of the row a page ended on: its sort keys as base64url JSON. Opaque to clients, not
 * secret (they are values the client just read). A `Date` is refused: it keeps milliseconds
 * where `timestamptz` keeps microseconds, and a cursor that rounds would skip rows; pass the
 * database's text instead (select `created_at::text`, or `to_char`).
 */
export function encodeCursor(values: readonly unknown[]): string {
  for (const value of values) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isSafeInteger(value))) {
      throw new Error(`cursor values must be strings or safe integers, got ${String(value)}`);
    }
  }
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** `?cursor=`: null when absent; its values, or 400 `invalid_cursor` when it is not one of ours. */
export function decodeCursor(raw: unknown): CursorValue[] | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]{1,2048}$/.test(raw)) throw listErrors.invalidCursor();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw listErrors.invalidCursor();
  }
  if (!Array.isArray(values) || values.length === 0) throw listErrors.invalidCursor();
  // A text key holds what any text from outside may hold (input.ts): a NUL, which PostgreSQL
  // cannot take, must be 400 here, not a database error.
  if (!values.every((v) => (typeof v === 'string' && !hasUnsafeCharacters(v)) || (typeof v === 'number' && Number.isSafeInteger(v)))) {
    throw listErrors.invalidCursor();
  }
  return values as CursorValue[];
}

/**
 * The SQL type of a sort key. A cursor is client input: each value is checked against its key's
 * type before it reaches SQL, so a forged cursor answers 400 `invalid_cursor`, never a database
 * error (500).
 */
export type KeyKind = 'text' | 'integer' | 'date' | 'timestamp' | 'uuid';

export interface KeysetKey {
  /** A column reference as Kysely writes it (`'c.start_date'`). */
  ref: string;
  direction: 'asc' | 'desc';
  kind: KeyKind;
}
export type KeysetOrder = readonly KeysetKey[];

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function fitsKind(value: CursorValue, kind: KeyKind): boolean {
  switch (kind) {
    case 'text':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' || /^-?\d{1,18}$/.test(value);
    case 'uuid':
      return isUuid(value);
    case 'date':
      return typeof value === 'string' && isCalendarDate(value);
    case 'timestamp': {
      const match = typeof value === 'string' ? TIMESTAMP.exec(value) : null;
      return match !== null && isCalendarDate(match[1]!) && Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60;
    }
  }
}

/** The cursor's values checked against the order's keys (count and types); else 400 `invalid_cursor`. */
function checkedCursor(order: KeysetOrder, cursor: readonly CursorValue[]): readonly CursorValue[] {
  if (cursor.length !== order.length || !cursor.every((value, i) => fitsKind(value, order[i]!.kind))) {
    throw listErrors.invalidCursor();
  }
  return cursor;
}

/**
 * "After this cursor". When every key runs one way (the contracts grid: date and number, both
 * descending), a row comparison `(k1, k2) < (v1, v2)`: PostgreSQL starts and ends the index
 * scan on it, reading the page's rows and nothing else. With mixed directions a row comparison
 * cannot express it: `k1 ≷ v1 OR (k1 = v1 AND (k2 ≷ v2 OR (k2 = v2 AND …)))`, with `>` for an
 * ascending key and `<` for a descending one.
 */
export function afterCursor<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, order: KeysetOrder, cursor: readonly CursorValue[]): Expression<SqlBool> {
  const values = checkedCursor(order, cursor);
  const comparison = (key: KeysetOrder[number]) => (key.direction === 'asc' ? '>' : '<');
  if (order.length > 1 && order.every((key) => key.direction === order[0]!.direction)) {
    // The OR form scanned from the first key's bound and filtered the rows of the cursor's
    // date before it: 251 rows for a page of 201 (bench/README.md, the deep page).
    return sql<SqlBool>`(${sql.join(order.map((key) => sql.ref(key.ref)))}) ${sql.raw(comparison(order[0]!))} (${sql.join(values.map((value) => sql`${value}`))})`;
  }
  const after = (i: number): Expression<SqlBool> => {
    const key = order[i]!;
    const column = sql.ref(key.ref);
    const beyond = eb(column, comparison(key), values[i]);
    if (i === order.length - 1) return beyond;
    return eb.or([beyond, eb.and([eb(column, '=', values[i]), after(i + 1)])]);
  };
  if (order.length === 1) return after(0);
  // The same condition with the first key's bound repeated outside the OR: PostgreSQL can
  // start the index scan there (an OR is only a filter), so a page deep in a long list costs
  // what the first one does (measured: 116 ms → 1 ms at 300,000 contracts, bench/contracts-grid-explain.ts).
  const first = order[0]!;
  return eb.and([eb(sql.ref(first.ref), first.direction === 'asc' ? '>=' : '<=', values[0]), after(0)]);
}

/**
 * The page query: the rows after `cursor` (when given) in `order`, `limit + 1` of them so that
 * `keysetPage` knows whether another page follows without a second query.
 */
export function keyset<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  cursor: readonly CursorValue[] | null,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  let page = cursor ? query.where((eb) => afterCursor(eb, order, cursor)) : query;
  for (const key of order) page = page.orderBy(sql.ref(key.ref), key.direction);
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`keyset: bad limit ${limit}`);
  // The limit is written into the statement, not sent as a parameter: a prepared statement's
  // generic plan then knows it takes 201 rows, not the tenth of the table PostgreSQL assumes
  // for `limit $n`, so it is as cheap as a custom one and PostgreSQL stops planning every page.
  return page.limit(sql.lit(limit + 1));
}

/**
 * `{ items, next_cursor }` from the `limit + 1` rows `keyset` fetched: a next cursor only when a
 * further row exists, so the last page says null (no empty page to fetch).
 */
export function keysetPage<T>(rows: T[], limit: number, keyOf: (row: T) => unknown[]): { items: T[]; next_cursor: string | null } {
  if (rows.length <= limit) return { items: rows, next_cursor: null };
  const items = rows.slice(0, limit);
  return { items, next_cursor: encodeCursor(keyOf(items[limit - 1]!)) };
}

/** A page whose items are JSON text already (`keysetJsonPage`): `items` is the array's text. */
export interface JsonPage {
  items: string;
  next_cursor: string | null;
}

/** `keysetJsonPageRow`'s one row: the items' texts joined by commas, the next cursor's keys as JSON. */
export interface JsonPageRow {
  items: string | null;
  next_keys: string | null;
}

/**
 * A page of `keyset` as one row that PostgreSQL writes (`query` selects each row's JSON text as
 * `item`: see `db/json-text.ts`): the first `limit` items joined in order, and the sort keys of
 * the last one, as text, when a further row exists. Node then neither decodes the rows nor
 * serializes them again, which halves the service's CPU for a page of 200 contracts
 * (bench/README.md); and being one row, the page can ride in another statement, as the contracts
 * grid's does in its gate's (`org/scope-reader.ts`, `readScopeWithPage`).
 */
export function keysetJsonPageRow<DB, TB extends keyof DB, O extends { item: string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  cursor: readonly CursorValue[] | null,
  limit: number,
): RawBuilder<JsonPageRow> {
  const keys = order.map((key, i) => sql<string>`${sql.ref(key.ref)}::text`.as(`key${i}`));
  const page = keyset(query.select(keys), order, cursor, limit);
  const last = sql.lit(limit);
  // A window without order numbers the rows as its input gives them: the page's, in order.
  return sql<JsonPageRow>`select string_agg(p.item, ',' order by p.n) filter (where p.n <= ${last}) as items,
      case when count(*) > ${last}
           then max(case when p.n = ${last} then json_build_array(${sql.join(order.map((_, i) => sql.ref(`p.key${i}`)))})::text end) end as next_keys
      from (select q.*, row_number() over () as n from (${page}) as q) as p`;
}

/** The `JsonPage` of a `keysetJsonPageRow`. */
export function jsonPageOf(row: JsonPageRow): JsonPage {
  return { items: `[${row.items ?? ''}]`, next_cursor: row.next_keys === null ? null : encodeCursor(JSON.parse(row.next_keys) as unknown[]) };
}

/**
 * A page of `keyset` with its items as JSON text (`keysetJsonPageRow`). `preparedAs` names the
 * statement when its plan does not depend on the values.
 */
export async function keysetJsonPage<DB, TB extends keyof DB, O extends { item: string }>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  cursor: readonly CursorValue[] | null,
  limit: number,
  preparedAs?: string,
): Promise<JsonPage> {
  const compiled = keysetJsonPageRow(query, order, cursor, limit).compile(db);
  const { rows } = await db.executeQuery<JsonPageRow>(preparedAs ? asPrepared(preparedAs, compiled) : compiled);
  return jsonPageOf(rows[0]!);
}

/** Answers a `JsonPage` as it is: `{"items":[…],"next_cursor":…}` (the route's schema documents it). */
export function sendJsonPage(reply: FastifyReply, page: JsonPage): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(`{"items":${page.items},"next_cursor":${JSON.stringify(page.next_cursor)}}`);
}
