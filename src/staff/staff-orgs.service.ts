/**
 * `GET /api/staff/orgs` and `/staff/organisations`: every organization by name, filtered by name
 * or employer key with case and accents ignored (`theatre` finds "Théâtre du Soleil"), in keyset
 * pages (`{ items, next_cursor }`, src/http/list.ts).
 */
import type { Database } from '../db/database.ts';
import { hasUnsafeCharacters } from '../http/input.ts';
import { decodeCursor, keysetPage } from '../http/list.ts';
import { pageOrganizations } from '../org/org.repository.ts';
import { staffErrors } from './staff.errors.ts';

/** A page of organizations; 400 `invalid_q` for a search with control characters, `invalid_cursor` for a cursor not ours. */
export async function listOrganizations(db: Database, query: { q?: string; limit: number; cursor?: string }) {
  const q = query.q?.trim() ?? '';
  if (hasUnsafeCharacters(q)) throw staffErrors.invalidQuery();
  const rows = await pageOrganizations(db, q, decodeCursor(query.cursor), query.limit);
  return keysetPage(rows, query.limit, (row) => [row.name, row.id]);
}
