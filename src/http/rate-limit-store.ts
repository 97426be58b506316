/**
 * A `@fastify/rate-limit` store on the service's database: every instance on one database
 * counts the same requests (the library's default store counts in each process's memory, so
 * N instances would allow N times the limit). Fixed windows, one row per key
 * (`public.rate_limits`): one statement per request starts or counts the window.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type RawBuilder } from 'kysely';
import { preparedStatement, type Database } from '../db/database.ts';
import { httpErrors } from './http.errors.ts';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

type HitsRow = { hits: number; ttl_ms: number };

/** Milliseconds until the row's window ends. */
const TTL_MS = sql`ceil(extract(epoch from (expires_at - now())) * 1000)::int as ttl_ms`;

const resultOf = (row: HitsRow): Result => ({ current: row.hits, ttl: Math.max(0, row.ttl_ms) });

/** One request in a hundred also deletes the windows that have ended, so the table stays small. */
const PRUNE_EVERY = 100;

/**
 * Counts one request under `key` in a fixed window of `windowMs`: `current` is the count so
 * far in the window (this one included), `ttl` the milliseconds until it ends.
 */
export async function countHit(db: Database, key: string, windowMs: number): Promise<Result> {
  const { rows } = await sql<HitsRow>`${preparedStatement('rate_limit_hit')}
    insert into public.rate_limits as r (key, hits, expires_at)
    values (${key}, 1, ${windowEnd(windowMs)})
    ${COUNT_ON_CONFLICT}
    returning hits, ${TTL_MS}`.execute(db);
  return resultOf(rows[0]!);
}

/** When a window that starts now ends. */
export function windowEnd(windowMs: number): RawBuilder<Date> {
  return sql<Date>`now() + ${windowMs} * interval '1 millisecond'`;
}

/**
 * Completes `insert into public.rate_limits as r (key, hits, expires_at) … (key, 1, windowEnd)`:
 * on the key's row, one more hit in its window, or a new window of one hit when it has ended.
 */
export const COUNT_ON_CONFLICT = sql`on conflict (key) do update
      set hits = case when r.expires_at <= now() then 1 else r.hits + 1 end,
          expires_at = case when r.expires_at <= now() then excluded.expires_at else r.expires_at end`;

/** SQL: true when one more hit under `key` would go past `limit` (what `limitPerAddress` refuses). */
export function limitReached(limit: AddressLimit, key: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from public.rate_limits where key = ${key} and expires_at > now() and hits >= ${limit.max})`;
}

/** A limit counted per e-mail address (`limitPerAddress`) or per client (`failureLimit`). */
export interface AddressLimit {
  /** Names the limit in its keys: each limit counts apart. */
  name: string;
  max: number;
  windowMs: number;
}

/** The key under which `limit` counts `subject` (an address, a client). */
export function limitKey(limit: AddressLimit, subject: string): string {
  return `${limit.name} ${subject}`;
}

/**
 * Counts one more e-mail for `email` under `limit`, and refuses it past the limit with 429
 * `rate_limited` and `Retry-After`: per address, so that nobody floods an inbox by asking from
 * many clients or accounts. The count is in the database, shared by every instance.
 */
export async function limitPerAddress(db: Database, limit: AddressLimit, email: string): Promise<void> {
  const { current, ttl } = await countHit(db, limitKey(limit, email), limit.windowMs);
  if (current > limit.max) throw httpErrors.rateLimited(Math.max(1, Math.ceil(ttl / 1000)));
}

/**
 * A limit on failed attempts per client (`POST /auth/session`): `check` refuses with 429 once
 * `max` failures are counted in the window, `fail` counts one. Successes never count, so many
 * people signing in from one address (an office) are never held back.
 */
export function failureLimit(db: Database, limit: AddressLimit) {
  const key = (client: string) => limitKey(limit, client);
  return {
    async check(client: string): Promise<void> {
      const { current, ttl } = await readHits(db, key(client));
      if (current >= limit.max) throw httpErrors.rateLimited(Math.max(1, Math.ceil(ttl / 1000)));
    },
    async fail(client: string): Promise<void> {
      await countHit(db, key(client), limit.windowMs);
    },
  };
}

async function readHits(db: Database, key: string): Promise<Result> {
  const { rows } = await sql<HitsRow>`
    select hits, ${TTL_MS} from public.rate_limits where key = ${key} and expires_at > now()`.execute(db);
  return rows[0] ? resultOf(rows[0]) : { current: 0, ttl: 0 };
}

export async function pruneEnded(db: Database): Promise<void> {
  await sql`delete from public.rate_limits where expires_at < now()`.execute(db);
}

/** The store class `@fastify/rate-limit` instantiates (`store` option), bound to `db`. */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    /** Each limited route counts apart: its method and URL prefix the key. */
    private readonly scope: string;

    constructor(_options: FastifyRateLimitOptions, scope = '') {
      this.scope = scope;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      countHit(db, this.scope + key, timeWindow).then((result) => callback(null, result), callback);
      if (Math.random() < 1 / PRUNE_EVERY) pruneEnded(db).catch(() => {});
    }

    read(key: string, callback: Callback): void {
      readHits(db, this.scope + key).then((result) => callback(null, result), callback);
    }

    /**
     * The typings say the route's options; the library passes the route's merged limit
     * options, with the route itself as `routeInfo` (reading `method` and `url` off the
     * argument keyed every limited route alike, ` undefined <ip>`).
     */
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const { method, url } = (options as unknown as { routeInfo: { method: string | string[]; url: string } }).routeInfo;
      return new DatabaseRateLimitStore({}, `${[method].flat().join(',')} ${url} `);
    }
  }
  return DatabaseRateLimitStore;
}
