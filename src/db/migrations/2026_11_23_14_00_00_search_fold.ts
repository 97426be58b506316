/**
 * Searching organizations by name or key ignores case and accents (`theatre` finds
 * "Théâtre du Soleil"): `public.search_fold(text)` is `lower(unaccent(text))`, immutable so that
 * an index can use it. `unaccent` is a contrib extension of PostgreSQL (trusted: the database
 * owner may create it) that PGlite also ships (loaded at start-up, src/db/database.ts). The
 * dictionary is named with its schema: an immutable function must not depend on search_path.
 * A trigram index on the folded name keeps `%…%` searches fast with many organizations.
 * Frozen in time: it takes `Kysely<any>` and imports nothing from the application.
 */
import { sql, type Kysely } from 'kysely';

const UP = [
  'create extension if not exists unaccent with schema public',
  `create or replace function public.search_fold(value text) returns text
     language sql immutable parallel safe strict
     as $$ select lower(public.unaccent('public.unaccent'::regdictionary, value)) $$`,
  'create index organizations_name_fold_trgm on public.organizations using gin (public.search_fold(name) gin_trgm_ops)',
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop index if exists public.organizations_name_fold_trgm').execute(db);
  await sql.raw('drop function if exists public.search_fold(text)').execute(db);
}
