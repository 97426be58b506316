/** `GET /api/access` bodies (SPEC 4.1): one organization's list, or every membership streamed. */
import { Readable } from 'node:stream';
import type { Database } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { accessErrors } from './access.errors.ts';
import { globalMembersPage, listOrgMembersJson, type GlobalCursor } from './access.repository.ts';

const GLOBAL_PAGE_SIZE = 5000;

/** SPEC 7: a failing member read is 500 database_error (an unreachable database stays 503). */
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

/**
 * Every membership, newest first, written page by page as it is read: the server's memory
 * stays flat whatever the number of memberships. The first page is read before answering,
 * so a failing database still gets a proper error status.
 */
export async function globalMemberListStream(db: Database, log: { error(obj: object, msg: string): void }): Promise<Readable> {
  let page: { json: string[]; last: GlobalCursor | null };
  try {
    page = await globalMembersPage(db, null, GLOBAL_PAGE_SIZE);
  } catch (error) {
    throw asReadError(error);
  }
  async function* chunks(): AsyncGenerator<string> {
    yield '{"items":[';
    let first = true;
    for (;;) {
      if (page.json.length > 0) {
        yield (first ? '' : ',') + page.json.join(',');
        first = false;
      }
      if (page.json.length < GLOBAL_PAGE_SIZE || !page.last) break;
      page = await globalMembersPage(db, page.last, GLOBAL_PAGE_SIZE);
    }
    yield ']}';
  }
  const stream = Readable.from(chunks(), { objectMode: false });
  stream.on('error', (err) => log.error({ err }, 'global member list interrupted'));
  return stream;
}
