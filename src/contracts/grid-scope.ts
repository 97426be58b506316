/**
 * `GET /api/contrats` in one round trip (the route sets `readsOwnSession`): the gate's facts and
 * the page, read by one statement for a member the gate will let through, as
 * `access/list-scope.ts` does for `GET /api/access`. Staff, a search or a period, and a query
 * that does not parse take the usual way: the gate, then the page.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.ts';
import type { JsonPage } from '../http/list.ts';
import { rolesOf } from '../org/permissions.ts';
import { readScope, readScopeWithPage, takePrefetchedPage } from '../org/scope-reader.ts';
import type { ScopeFacts } from '../org/scope.ts';
import * as repo from './contracts.repository.ts';
import { gridPlan, type GridQuery } from './contracts.service.ts';

/**
 * The grid's scope reader. A query that does not parse reads no page: validation answers it
 * after the gate, as on every route.
 */
export function readGridScope(request: FastifyRequest): Promise<ScopeFacts | null> {
  let plan: ReturnType<typeof gridPlan>;
  try {
    plan = gridPlan(request.query as GridQuery);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return readScope(request);
  }
  const { limit, cursor, filters, key } = plan;
  const preparedAs = repo.gridStatementName(filters, 'contract_grid_scope');
  // A search's or a period's plan depends on the values, the organization's too: planned
  // without it (an expression of the gate's), a search cost half as much again (bench/README.md).
  // Its page is read on its own, where the round trip saved would not count anyway.
  if (!preparedAs) return readScope(request);
  const page = repo.contractGridPage(request.server.db, filters, cursor, limit);
  return readScopeWithPage(request, { page, roles: rolesOf('contract'), key, preparedAs });
}

/** `GET /api/contrats`: the page the gate's statement read, else read now. */
export async function memberGridJson(request: FastifyRequest, orgId: string, query: GridQuery): Promise<JsonPage> {
  const { limit, cursor, filters, key } = gridPlan(query);
  return takePrefetchedPage(request, orgId, key) ?? repo.listContractsJson(request.server.db, orgId, filters, cursor, limit);
}
