/** `GET /api/access` bodies: one organization's list, or every membership streamed. */
import type { Readable } from 'node:stream';
import type { Database, DatabaseHandle } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { watchedReadable } from '../http/watched-stream.ts';
import { accessErrors } from './access.errors.ts';
import { GlobalItemWriter } from './global-list-items.ts';
import { globalMembersCopyStatement, globalMembersPage, globalPageEnd, listOrgMembersJson, type GlobalCursor, type GlobalPage } from './access.repository.ts';

/** A failing member read is 500 database_error (an unreachable database stays 503). */
function asReadError(error: unknown): unknown {
  return isDatabaseUnavailable(error) ? error : accessErrors.databaseError();
}

export async function orgMemberListBody(db: Database, orgId: string): Promise<string> {
  try {
    return `{"items":${await listOrgMembersJson(db, orgId)}}`;
  } catch (error) {
    throw asReadError(error);
  }
}

/** A client that reads nothing for this long loses its global list (and the connection it holds). */
const READER_STALL_MS = 60_000;

/**
 * Every membership, newest first (global staff mode), written as it is read; the server's
 * memory stays flat whatever the number of memberships. On PostgreSQL, one `COPY` streams
 * the items PostgreSQL built (one snapshot, a parallel plan, as fast as `\copy`); when too
 * many are running, and always on PGlite, keyset pages are read one query at a time. The
 * first bytes are read before answering, so that a failing database still gets a proper
 * error status.
 */
export async function globalMemberListStream(
  database: Pick<DatabaseHandle, 'db' | 'copyOut'>,
  log: { error(obj: object, msg: string): void },
  stallMs = READER_STALL_MS,
): Promise<Readable> {
  const copy = database.copyOut?.tryCopy(globalMembersCopyStatement(database.db));
  const items = copy ? await copiedItems(copy) : await keysetItems(database.db);
  const stream = watchedReadable(items, stallMs);
  stream.on('error', (err) => log.error({ err }, 'global member list interrupted'));
  // However the stream ends (even destroyed before its first read), the COPY's connection is
  // released: returning a finished generator does nothing, a suspended one runs its cleanup.
  if (copy) stream.on('close', () => void copy.return(undefined).catch(() => {}));
  return stream;
}

async function copiedItems(copy: AsyncGenerator<Buffer>): Promise<AsyncGenerator<Buffer | string>> {
  const writer = new GlobalItemWriter();
  let first: IteratorResult<Buffer>;
  try {
    first = await copy.next();
  } catch (error) {
    throw asReadError(error);
  }
  async function* items(): AsyncGenerator<Buffer | string> {
    yield '{"items":[';
    for (let next = first; !next.done; next = await copy.next()) {
      for (const part of writer.push(next.value)) yield part;
    }
    writer.finish();
    yield ']}';
  }
  return items();
}

/** Rows per page of the global list: a page is a few MB of JSON at most. */
const GLOBAL_PAGE_SIZE = 10_000;

interface PendingPage {
  after: GlobalCursor | null;
  page: Promise<GlobalPage>;
  /** Where the page should end: the start of the next page, known before the page arrives. */
  end: Promise<GlobalCursor | undefined>;
}

function quiet<T>(promise: Promise<T>): Promise<T> {
  // Awaited later, or dropped when the reader goes away: never an unhandled rejection.
  promise.catch(() => {});
  return promise;
}

const sameKey = (a: GlobalCursor, b: GlobalCursor) => a.created_at === b.created_at && a.org_id === b.org_id && a.user_id === b.user_id;

/**
 * Every membership by keyset pages (two pages at most are held, in chunks small enough to be
 * collected young). Each page is one query; no connection or snapshot is held between queries
 * (PGlite's single session stays free while a slow client reads). The next page is read while
 * one is written: where a page ends is first read from the index alone (cheap), and the next
 * page starts there. Should a concurrent change move the end, that read-ahead is dropped and
 * the next page is read from where the page really ended.
 */
async function keysetItems(db: Database): Promise<AsyncGenerator<string>> {
  const start = (after: GlobalCursor | null): PendingPage => ({
    after,
    page: quiet(globalMembersPage(db, after, GLOBAL_PAGE_SIZE)),
    end: quiet(globalPageEnd(db, after, GLOBAL_PAGE_SIZE)),
  });
  let current = start(null);
  let next: PendingPage | null;
  let page: GlobalPage;
  try {
    const end = await current.end;
    next = end ? start(end) : null;
    page = await current.page;
  } catch (error) {
    throw asReadError(error);
  }
  async function* chunks(): AsyncGenerator<string> {
    yield '{"items":[';
    let separator = '';
    for (;;) {
      // Each chunk is let go once written, so that it dies young instead of being promoted.
      for (let chunk = page.chunks.shift(); chunk !== undefined; chunk = page.chunks.shift()) {
        yield separator + chunk;
        separator = ',';
      }
      if (page.count < GLOBAL_PAGE_SIZE || !page.last) break;
      current = next?.after && sameKey(next.after, page.last) ? next : start(page.last);
      const end = await current.end;
      next = end ? start(end) : null;
      page = await current.page;
    }
    yield ']}';
  }
  return chunks();
}
