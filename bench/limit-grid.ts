/**
 * The limit of the contracts grid (`GET /api/contrats`): one Fastify route, one SQL query through
 * `pg`, no authentication. The organization comes from `?org=<uuid>`; `limit`, `cursor`,
 * `status` and `q` as the service takes them (valid values only: no checks). The keyset is
 * the row comparison `(start_date, contract_number) < (…)` (both keys descending), the
 * search one `like` per folded word. Rows through `pg`, mapped to the service's item shape,
 * then `JSON.stringify`. Environment: `DATABASE_URL`, `PORT`, `LIMIT_POOL` (default 10).
 */
import Fastify from 'fastify';
import pg from 'pg';
import { searchTerms } from '../src/contracts/contract.rules.ts';
import { serveLimit } from './limit-serve.ts';

// Dates as text, as the service reads them.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.LIMIT_POOL ?? 10) });

interface Row {
  id: string;
  org_id: string;
  contract_number: string;
  employee_id: string;
  first_name: string;
  last_name: string;
  kind: string;
  status: string;
  job_title: string | null;
  show_title: string | null;
  idcc: string | null;
  start_date: string;
  end_date: string | null;
  monthly_gross: string | null;
  gross_total: string | null;
  has_generated_pdf: boolean;
  has_signed_pdf: boolean;
  signed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));

app.get<{ Querystring: { org: string; limit?: string; cursor?: string; status?: string; q?: string } }>('/api/contrats', async (request, reply) => {
  const { org, cursor, status, q } = request.query;
  const limit = Number(request.query.limit ?? 50);
  const values: unknown[] = [org];
  const where = ['c.org_id = $1'];
  if (status) where.push(`c.status = $${values.push(status)}`);
  for (const term of searchTerms(q)) where.push(`c.search_text like $${values.push(`%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)}`);
  if (cursor) {
    const [date, number] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    where.push(`(c.start_date, c.contract_number) < ($${values.push(date)}::date, $${values.push(number)})`);
  }
  const { rows } = await pool.query<Row>(
    `select c.id, c.org_id, c.contract_number, c.employee_id, e.first_name, e.last_name, c.kind, c.status, c.job_title,
            c.show_title, c.idcc, c.start_date, c.end_date, c.monthly_gross, c.gross_total,
            c.generated_pdf_id is not null as has_generated_pdf, c.signed_pdf_id is not null as has_signed_pdf,
            c.signed_at, c.created_at, c.updated_at
       from public.contracts c join public.employees e on e.id = c.employee_id
      where ${where.join(' and ')}
      order by c.start_date desc, c.contract_number desc
      limit ${limit + 1}`,
    values,
  );
  const more = rows.length > limit;
  const items = (more ? rows.slice(0, limit) : rows).map((r) => ({
    id: r.id,
    org_id: r.org_id,
    contract_number: r.contract_number,
    employee_id: r.employee_id,
    employee: { first_name: r.first_name, last_name: r.last_name },
    kind: r.kind,
    status: r.status,
    job_title: r.job_title,
    show_title: r.show_title,
    idcc: r.idcc,
    start_date: r.start_date,
    end_date: r.end_date,
    monthly_gross: r.monthly_gross,
    gross_total: r.gross_total,
    has_generated_pdf: r.has_generated_pdf,
    has_signed_pdf: r.has_signed_pdf,
    signed_at: r.signed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
  const last = items.at(-1);
  const next = more && last ? Buffer.from(JSON.stringify([last.start_date, last.contract_number])).toString('base64url') : null;
  reply.type('application/json; charset=utf-8');
  return reply.send(JSON.stringify({ items, next_cursor: next }));
});

await serveLimit(app, pool, 'contracts grid');
