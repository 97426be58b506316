/**
 * SQL of organizations and of the organization a staff member last chose
 * staff settings): every query that reads or writes them, for the API, the pages and the CLI.
 */
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { keyset, type CursorValue, type KeysetOrder } from '../http/list.ts';
import type { OrgSettings } from './org-settings.rules.ts';

export function findOrganization(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(['id', 'name', 'structure_api']).where('id', '=', orgId).executeTakeFirst();
}

export function findOrganizationByKey(db: Database, key: string) {
  return db.selectFrom('organizations').select(['id', 'name']).where('structure_api', '=', key).executeTakeFirst();
}

/** A new organization's id. A `structure_api` already taken fails on its unique index. */
export async function createOrganization(db: Database, org: { name: string; structure_api: string | null }): Promise<string> {
  const row = await db.insertInto('organizations').values(org).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The database function `get_my_org`. */
export async function myOrgId(db: Database, userId: string): Promise<string | null> {
  const { rows } = await sql<{ org_id: string | null }>`select public.get_my_org(${userId}) as org_id`.execute(db);
  return rows[0]?.org_id ?? null;
}

/** Matches `structure_api`. */
export async function orgIdByKey(db: Database, key: string): Promise<string | null> {
  return (await findOrganizationByKey(db, key))?.id ?? null;
}

/** Matches `name`; of several namesakes, the oldest. */
export async function orgIdByName(db: Database, name: string): Promise<string | null> {
  const row = await db.selectFrom('organizations').select('id').where('name', '=', name).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  return row?.id ?? null;
}

/** The organizations whose name or employer key holds `query` (all when empty), with member counts. */
function organizationSearch(db: Database, query: string) {
  const select = db
    .selectFrom('organizations as o')
    .select([
      'o.id',
      'o.name',
      'o.structure_api',
      sql<number>`(select count(*)::int from public.organization_members m where m.org_id = o.id and not m.revoked)`.as('member_count'),
    ]);
  if (!query) return select;
  // Case and accents ignored on both sides (`theatre` finds "Théâtre du Soleil"): search_fold
  // is lower(unaccent()), migration 2026_11_23_14_00_00_search_fold.
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return select.where((eb) =>
    eb.or([
      eb(sql`public.search_fold(o.name)`, 'like', sql`public.search_fold(${pattern})`),
      eb(sql`public.search_fold(o.structure_api)`, 'like', sql`public.search_fold(${pattern})`),
    ]),
  );
}

/** Organizations for the staff switcher: by name, optionally filtered, with member counts. */
export function searchOrganizations(db: Database, query: string, limit: number) {
  return organizationSearch(db, query).orderBy('o.name').orderBy('o.id').limit(limit).execute();
}

/** The order of the organizations list (`GET /api/staff/orgs`): by name, the id breaking ties. */
export const ORGANIZATION_ORDER = [
  { ref: 'o.name', direction: 'asc', kind: 'text' },
  { ref: 'o.id', direction: 'asc', kind: 'uuid' },
] as const satisfies KeysetOrder;

/** A keyset page of `searchOrganizations` (`limit + 1` rows: see `keysetPage`). */
export function pageOrganizations(db: Database, query: string, cursor: readonly CursorValue[] | null, limit: number) {
  return keyset(organizationSearch(db, query), ORGANIZATION_ORDER, cursor, limit).execute();
}

/** A staff member goes back to no organization (the global view). */
export async function clearSavedActiveOrg(db: Database, userId: string): Promise<void> {
  await db.updateTable('staff_settings').set({ active_org_id: null }).where('user_id', '=', userId).execute();
}

/** The organization a staff member last chose, if any. */
export async function savedActiveOrgId(db: Database, userId: string): Promise<string | null> {
  const row = await db.selectFrom('staff_settings').select('active_org_id').where('user_id', '=', userId).executeTakeFirst();
  return row?.active_org_id ?? null;
}

/** Remembers the organization a staff member chose. */
export async function saveActiveOrg(db: Database, userId: string, orgId: string): Promise<void> {
  await db
    .insertInto('staff_settings')
    .values({ user_id: userId, active_org_id: orgId })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ active_org_id: orgId }))
    .execute();
}

const SETTINGS_COLUMNS = [
  'id',
  'name',
  'structure_api',
  'email_notifs',
  'email_notifs_cc',
  'virements_salaires',
  'documents_slug',
  'siret',
  'effectif',
  'convention',
  'categorie_juridique',
  'taux_at',
  'address_line',
  'postcode',
  'city',
  'country',
  'ape_code',
  'urssaf',
  'created_at',
] as const;

/** The organization with the fields of docs/modules.md (its settings page), or undefined. */
export function findOrganizationSettings(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(SETTINGS_COLUMNS).where('id', '=', orgId).executeTakeFirst();
}

/** The organization's payroll inputs, or undefined when it names none. */
export function findOrganizationPayrollInputs(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(['id', 'effectif', 'convention', 'categorie_juridique', 'taux_at']).where('id', '=', orgId).executeTakeFirst();
}

/** The organization with the fields of docs/modules.md, locked for an edit. */
export function lockOrganizationSettings(db: Database, orgId: string) {
  return db.selectFrom('organizations').select(SETTINGS_COLUMNS).where('id', '=', orgId).forUpdate().executeTakeFirst();
}

/** Sets the fields of. A `documents_slug` already taken fails on its unique index. */
export function updateOrganizationSettings(db: Database, orgId: string, settings: OrgSettings) {
  return db.updateTable('organizations').set(settings).where('id', '=', orgId).returning(SETTINGS_COLUMNS).executeTakeFirstOrThrow();
}
