/**
 * `node --import tsx bench/contracts-grid-explain.ts [contracts]`: the contracts grid's query
 * plans and times on PostgreSQL for one large organization (default 300,000 contracts, plus
 * 50,000 in another organization), for the grid's benchmark at 1,000,000. The queries are built
 * by the grid's own repository function (the SQL the service runs), then `EXPLAIN (ANALYZE,
 * BUFFERS)`ed; each is run warm (twice, the second kept).
 *
 * Database: a fresh one on `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432),
 * dropped at the end.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { listContractsJson, type GridFilters } from '../src/contracts/contracts.repository.ts';
import { searchTerms } from '../src/contracts/contract.rules.ts';
import { encodeCursor, decodeCursor, jsonPageOf, type JsonPageRow } from '../src/http/list.ts';

const total = Number(process.argv[2] ?? 300_000);
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `pa_grid_${crypto.randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDir: 'memory://' });
const { db } = handle;

try {
  await migrateToLatest(db);
  const started = Date.now();
  // Two organizations; 2,000 employees in the big one; contracts over ten years, every kind
  // and status, the search text as the application writes it (folded words).
  await sql`insert into organizations (id, name) values ('00000000-0000-4000-8000-000000000001', 'Grande Maison'), ('00000000-0000-4000-8000-000000000002', 'Autre')`.execute(
    db,
  );
  await sql`
    insert into employees (id, org_id, first_name, last_name)
    select ('00000000-0000-4000-9000-' || lpad(to_hex(g), 12, '0'))::uuid,
           case when g <= 2000 then '00000000-0000-4000-8000-000000000001'::uuid else '00000000-0000-4000-8000-000000000002'::uuid end,
           'prenom' || g, 'nom' || g
      from generate_series(1, 2200) g`.execute(db);
  await sql`
    insert into contracts (org_id, contract_number, employee_id, kind, status, show_title, start_date, end_date, monthly_gross, gross_total, search_text)
    -- Numbers C-<2016..2025>-<g / 10>: unique, and within the number's six digits up to 10,000,000 rows.
    select case when g <= ${total} then '00000000-0000-4000-8000-000000000001'::uuid else '00000000-0000-4000-8000-000000000002'::uuid end,
           'C-' || (2016 + g % 10) || '-' || lpad((g / 10)::text, 6, '0'),
           ('00000000-0000-4000-9000-' || lpad(to_hex(case when g <= ${total} then 1 + g % 2000 else 2001 + g % 200 end), 12, '0'))::uuid,
           (array['CDDU','CDDU','CDD','CDI'])[1 + g % 4],
           (array['brouillon','a_signer','signe','signe','signe','annule'])[1 + g % 6],
           case when g % 4 in (0, 1) then 'spectacle ' || (g % 5000) end,
           date '2016-01-01' + (g % 3650),
           case when g % 4 <> 3 then date '2016-01-01' + (g % 3650) + 20 end,
           case when g % 4 in (2, 3) then 2100.00 end,
           1234.56,
           'prenom' || (1 + g % 2000) || ' nom' || (1 + g % 2000) || ' c-' || (2016 + g % 10) || '-' || lpad((g / 10)::text, 6, '0') || ' spectacle ' || (g % 5000)
      from generate_series(1, ${total + 50_000}) g`.execute(db);
  await sql`analyze`.execute(db);
  console.log(`seeded ${total} + 50000 contracts in ${Date.now() - started} ms`);

  const org = '00000000-0000-4000-8000-000000000001';
  const limit = 200;
  const firstPage = await listContractsJson(db, org, { terms: [] }, null, limit);
  const deep = decodeCursor(encodeCursor(['2020-06-15', 'C-2020-015000']))!;
  const cases: Array<[string, string | null, GridFilters, unknown[] | null]> = [
    ['first page', org, { terms: [] }, null],
    ['next page', org, { terms: [] }, decodeCursor(firstPage.next_cursor!)],
    ['deep page (2020)', org, { terms: [] }, deep],
    ['status=brouillon', org, { status: 'brouillon', terms: [] }, null],
    ['kind=CDI', org, { kind: 'CDI', terms: [] }, null],
    ['employee_id', org, { employeeId: '00000000-0000-4000-9000-00000000002a', terms: [] }, null],
    ['from/to one month', org, { from: '2019-03-01', to: '2019-03-31', terms: [] }, null],
    ['q=one employee', org, { terms: searchTerms('Prénom1234 NOM1234') }, null],
    ['q=contract number', org, { terms: searchTerms('C-2019-012345') }, null],
    ['q=common word (spectacle)', org, { terms: searchTerms('spectacle') }, null],
    ['q=no match', org, { terms: searchTerms('zzzz') }, null],
    ['staff, every organization', null, { terms: [] }, null],
  ];
  for (const [label, orgId, filters, cursor] of cases) {
    const compiled = (await captureQuery(() => listContractsJson(db, orgId, filters, cursor as never, limit))).compiled;
    await db.executeQuery(compiled);
    const t0 = performance.now();
    const page = await db.executeQuery<JsonPageRow>(compiled);
    const ms = performance.now() - t0;
    // One row: the items joined (`keysetJsonPageRow`).
    const items = (JSON.parse(jsonPageOf(page.rows[0]!).items) as unknown[]).length;
    const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${inline(compiled.sql, compiled.parameters)}`).execute(db);
    const lines = plan.rows.map((r) => r['QUERY PLAN']);
    console.log(`\n## ${label}: ${items} items, ${ms.toFixed(1)} ms`);
    console.log(
      lines
        .filter((l) => /Index|Seq Scan|Bitmap|Sort|Execution Time|Limit/.test(l))
        .slice(0, 8)
        .join('\n'),
    );
  }
} finally {
  await handle.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

/** The query a repository function runs, without running it. */
async function captureQuery(run: () => Promise<unknown>) {
  let compiled: import('kysely').CompiledQuery | null = null;
  const original = db.getExecutor().executeQuery.bind(db.getExecutor());
  const executor = db.getExecutor() as { executeQuery: typeof original };
  executor.executeQuery = async (query, ...rest) => {
    compiled = query;
    return original(query, ...rest);
  };
  try {
    await run();
  } finally {
    executor.executeQuery = original;
  }
  return { compiled: compiled! };
}

/** The SQL with its parameters written in (EXPLAIN takes no parameters). */
function inline(text: string, parameters: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = parameters[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}
