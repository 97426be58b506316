/**
 * A Kysely dialect for PGlite, the embedded PostgreSQL.
 *
 * PGlite is one single-session database: two requests must never interleave their
 * statements, or one request's `BEGIN … COMMIT` would swallow the other's writes. So the
 * driver hands its one connection to one caller at a time (a FIFO lock); a transaction
 * holds it from BEGIN to COMMIT. SQL and types are PostgreSQL's, so Kysely's own
 * Postgres compiler, adapter and introspector serve unchanged.
 */
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]).catch((error: unknown) => {
      throw withoutParameters(error);
    });
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: Kysely's interface wants a generator; this one only refuses.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite; read in pages instead');
  }
}

/**
 * PGlite's errors carry the statement's parameters (`params`) and options (`queryOptions`),
 * and an error is logged whole: an e-mail address or a user's text would reach the logs
 * They go, as node-postgres never had them; the SQL (`query`, placeholders
 * only), the message and the code stay.
 */
function withoutParameters(error: unknown): unknown {
  if (error && typeof error === 'object') {
    delete (error as { params?: unknown }).params;
    delete (error as { queryOptions?: unknown }).queryOptions;
  }
  return error;
}

/** A first-in first-out lock around the single PGlite session. */
class SessionLock {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => turn);
    return ready;
  }
}

class PGliteDriver implements Driver {
  private readonly lock = new SessionLock();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire();
    // One connection object, many turns: remember the release of the current turn.
    const turn = Object.create(this.connection) as PGliteConnection;
    this.releases.set(turn, release);
    return turn;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const options = [settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '', settings.accessMode ?? ''].filter(Boolean).join(' ');
    await connection.executeQuery(CompiledQuery.raw(`begin${options ? ` ${options}` : ''}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
