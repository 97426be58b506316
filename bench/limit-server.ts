/**
 * The limit: `GET /api/access` served by the smallest program on the service's stack (one
 * Fastify route, one SQL query through `pg`, no authentication), in one of two forms:
 *
 * - `LIMIT_FORM=rows`: the rows through `pg`, then `JSON.stringify` (form a);
 * - `LIMIT_FORM=json`: the JSON array built by PostgreSQL (`json_agg`), passed through as text
 *   (form b).
 *
 * The organization comes from `?org=<uuid>`. Both forms return the items of the service
 * (docs/access.md, with `activated`), newest first. Environment: `DATABASE_URL`, `PORT`, `LIMIT_FORM`,
 * `LIMIT_POOL` (pool size, default 10 like the service's).
 */
import Fastify from 'fastify';
import pg from 'pg';
import { serveLimit } from './limit-serve.ts';

const form = process.env.LIMIT_FORM === 'rows' ? 'rows' : 'json';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.LIMIT_POOL ?? 10) });

const FIRST_NAME = `coalesce(nullif(btrim(u.user_metadata->>'first_name'), ''),
                             nullif(split_part(btrim(u.user_metadata->>'display_name'), ' ', 1), ''))`;

const ROWS_SQL = `
  select null as org_id, m.user_id, ${FIRST_NAME} as first_name, coalesce(u.email, 'Email non disponible') as email,
         m.role, m.created_at, m.revoked, m.revoked_at, coalesce(u.activated_at is not null, false) as activated
    from public.organization_members m
    left join auth.users u on u.id = m.user_id
   where m.org_id = $1
   order by m.created_at desc, m.user_id desc`;

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const JSON_SQL = `
  select coalesce(json_agg(json_build_object(
           'org_id', null, 'user_id', m.user_id, 'first_name', ${FIRST_NAME},
           'email', coalesce(u.email, 'Email non disponible'), 'role', m.role,
           'created_at', ${iso('m.created_at')}, 'revoked', m.revoked, 'revoked_at', ${iso('m.revoked_at')},
           'activated', coalesce(u.activated_at is not null, false)
         ) order by m.created_at desc, m.user_id desc), '[]'::json)::text as items
    from public.organization_members m
    left join auth.users u on u.id = m.user_id
   where m.org_id = $1`;

const app = Fastify({ logger: false });

app.get<{ Querystring: { org?: string } }>('/api/access', async (request, reply) => {
  reply.type('application/json; charset=utf-8');
  if (form === 'rows') {
    const { rows } = await pool.query(ROWS_SQL, [request.query.org]);
    return reply.send(JSON.stringify({ items: rows }));
  }
  const { rows } = await pool.query<{ items: string }>(JSON_SQL, [request.query.org]);
  return reply.send(`{"items":${rows[0]!.items}}`);
});

await serveLimit(app, pool, form);
