/**
 * JSON written by PostgreSQL as text, compact and with its keys in the order given, as
 * `JSON.stringify` would write the same object: for list pages that go out as they are read,
 * so that Node neither decodes the rows nor serializes them (bench/README.md: the contracts
 * grid). Each value says how its column is written; a NULL column writes `null`.
 *
 * ```ts
 * jsonObject({ id: json.quoted(sql.ref('c.id')), title: json.text(sql.ref('c.show_title')), signed: json.boolean(sql`c.signed_at is not null`) })
 * ```
 */
import { sql, type Expression, type RawBuilder } from 'kysely';

type Column = Expression<unknown>;

/** A JSON value's text, or `null`. */
export type JsonText = RawBuilder<string>;

const orNull = (text: RawBuilder<unknown>): JsonText => sql<string>`coalesce(${text}, 'null')`;

export const json = {
  /** Any text: escaped by PostgreSQL's own `to_json`. */
  text: (column: Column): JsonText => orNull(sql`to_json(${column})::text`),
  /** A value whose text needs no escaping (a uuid, a `numeric(12,2)` amount, a date): quoted. */
  quoted: (column: Column): JsonText => orNull(sql`'"' || ${column}::text || '"'`),
  boolean: (column: Column): JsonText => orNull(sql`(${column})::text`),
  /** A `timestamptz` as JavaScript writes a Date (`2026-11-22T10:00:00.000Z`), whatever the session's zone. */
  timestamp: (column: Column): JsonText => orNull(sql`'"' || ${isoTimestamp(column)} || '"'`),
};

/** A `timestamptz` as `Date.prototype.toISOString` writes it (milliseconds, UTC). */
export function isoTimestamp(column: Column): RawBuilder<string | null> {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** An object of the values given, keys in that order. Keys are code, never input. */
export function jsonObject(fields: Record<string, JsonText>): JsonText {
  const parts = Object.entries(fields).map(([key, value], i) => {
    if (!/^[a-z_]+$/.test(key)) throw new Error(`jsonObject: bad key ${key}`);
    return sql`${sql.lit(`${i === 0 ? '{' : ','}"${key}":`)} || ${value}`;
  });
  return sql<string>`(${sql.join(parts, sql` || `)} || '}')`;
}
