/**
 * `GET /api/access` in one round trip (the route sets `readsOwnSession`): one query reads the
 * session, the caller's organization, the caller's membership there and the list itself. This
 * reader hands what it read to the gate hook, which decides with the same `can()` as every
 * route; the list only spares a second query once the gate has let the caller through.
 */
import type { FastifyRequest } from 'fastify';
import { staffOrgHints } from '../org/resolution.ts';
import { membershipOfRow, readSessionAndScope } from '../org/scope-reader.ts';
import type { ScopeFacts } from '../org/scope.ts';
import { readSessionScopeList } from './access.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** `GET /api/access`: the list, when the query that read the session could read it. */
    accessListJson: string | null;
  }
}

/**
 * Reads the session, the scope and the list (for staff, the first hint when it is an
 * id). Returns null when the query cannot settle the scope (a staff hint naming an
 * organization by key or name, a failed read): the gate then resolves it the usual way.
 */
export async function readListScope(request: FastifyRequest): Promise<ScopeFacts | null> {
  const firstHint = staffOrgHints(request.cookies, request.headers)[0];
  const staffOrgId = firstHint?.kind === 'id' ? firstHint.value : null;
  const read = await readSessionAndScope(request, (db, session) => readSessionScopeList(db, { ...session, staffOrgId }));
  if ('settled' in read) return read.settled;
  const { caller, row } = read;
  if (caller.isStaff && firstHint && firstHint.kind !== 'id') return null;
  request.accessListJson = row.items;
  return { caller, orgId: row.org_id, membership: membershipOfRow(row) };
}
