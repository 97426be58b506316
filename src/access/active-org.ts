/** Binds SPEC 4.3 resolution to the database, for a request. */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { resolveActiveOrgId, type OrgLookups } from './org-resolution.ts';
import { sql } from 'kysely';

export function orgLookups(db: Database): OrgLookups {
  return {
    async myOrg(userId) {
      const { rows } = await sql<{ org_id: string | null }>`select public.get_my_org(${userId}) as org_id`.execute(db);
      return rows[0]?.org_id ?? null;
    },
    async orgIdByKey(key) {
      const row = await db.selectFrom('organizations').select('id').where('structure_api', '=', key).executeTakeFirst();
      return row?.id ?? null;
    },
    async orgIdByName(name) {
      const row = await db
        .selectFrom('organizations')
        .select('id')
        .where('name', '=', name)
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row?.id ?? null;
    },
  };
}

export function resolveRequestOrgId(db: Database, request: FastifyRequest): Promise<string | null> {
  return resolveActiveOrgId(
    { caller: request.caller, cookies: request.cookies, headers: request.headers },
    orgLookups(db),
  );
}
