/**
 * `npm run bench`: measures the real service against the limit of its stack, in one run.
 *
 * - GET /api/access for organizations of 10, 1,000 and 10,000 members (an ADMIN's session),
 *   beside `bench/limit-server.ts` in its two forms; reported as a ratio to the faster form.
 * - Global staff mode over 1,000,000 memberships: time to the last byte and the server's peak
 *   RSS (a fresh server per run; its first, cold list timed apart), beside psql's `\copy` of the
 *   same rows.
 * - POST /api/access: role changes of existing members, and invitations of new e-mails with
 *   SMTP unset (.eml files) and with SMTP pointed at a server that accepts TCP and never greets;
 *   the invitation beside a limit writing the same rows in one data-modifying CTE.
 * - The payroll modules (`modules.ts`): the contracts grid over 1,000,000 contracts, contract
 *   PDFs (rate, RSS, GET /api/access's p99 meanwhile), signed-file downloads of a 1 MB PDF.
 * - Bulk invoicing (`billing.ts`): bulk-create of 5,000 invoices against one `INSERT … SELECT`,
 *   bulk-notify of 5,000 invoices (the answer, then delivery to an SMTP server).
 * - Factur-X invoice PDFs (`facturx.ts`): the `invoice.document` jobs after bulk-create, on invoices
 *   never rendered, against the plain invoice PDF rendered in a loop.
 * - The payroll run (`payroll.ts`): 10,000 payslips through `POST /api/staff/paie/calcul` against
 *   the plain library loop in one process, GET /api/access's p99 meanwhile, the server's RSS.
 *
 * Every load comes from a separate process (`bench/load.ts`, autocannon); servers are child
 * processes; each load measurement runs `rounds` times, interleaved, and the median is kept.
 *
 * Options: `--quick` (tiny sizes, 1-second runs, for CI: exit 1 on any error or non-2xx),
 * `--rounds N`, `--duration S`, `--only floor,get,global,post,grid,pdf,files,billing,facturx,payroll`, `--keep-db` (reuse the database
 * `payroll_bench` between runs instead of a fresh one), `--profile` (service under
 * `--cpu-prof`, profiles in bench/results/profiles/), `--service-root DIR` (the service of another
 * checkout, e.g. `git worktree`/`git archive` of an older commit, for before/after numbers),
 * `--out NAME` (results in bench/results/NAME.json and .md instead of latest), `--orgs 10,1000`
 * (only these organization sizes), `--contracts N` (the grid's organization, default 1,000,000),
 * `--payroll-orgs N` (the payroll run's organizations of 100 contracts, default 100).
 *
 * Database: `DATABASE_URL` (an empty database: the global list counts every membership), or
 * else a fresh database created on `postgres://postgres@127.0.0.1:5432` and dropped at the end.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { LoadSpec } from './load.ts';
import { BENCH_DOMAIN, resetPostOrg, seed, type Seeded } from './seed.ts';
import { billingScenario } from './billing.ts';
import { facturxScenario } from './facturx.ts';
import { floorScenario } from './floor.ts';
import { filesScenario, gridScenario, pdfScenario, seedModules } from './modules.ts';
import { payrollScenario } from './payroll.ts';
import { missingTools } from './preflight.ts';
import {
  args,
  benchDatabase,
  contracts,
  damonState,
  checkLoad,
  children,
  CONNECTIONS,
  durationSeconds,
  fmtLoad,
  get,
  INVITE_PREFIX,
  itemsOf,
  label,
  log,
  loggedErrors,
  median,
  only,
  problem,
  problems,
  quick,
  RESULTS,
  ROOT,
  round,
  rounds,
  results,
  runLoad,
  runLoadWithCpu,
  cpuPerRequest,
  SERVICE_ROOT,
  setTmpDir,
  sizes,
  startLimit,
  startService,
  summarize,
  tmpDir,
  vmHwmMb,
  warmupSeconds,
  type CpuSample,
  type ResultRow,
  type Sample,
  type Server,
} from './harness.ts';

async function getScenarios(dbUrl: string, data: Seeded): Promise<void> {
  log('\n== GET /api/access (one organization) ==');
  const [service, rowsLimit, jsonLimit, bareLimit] = await Promise.all([
    startService(dbUrl),
    startLimit(dbUrl, 'rows'),
    startLimit(dbUrl, 'json'),
    startLimit(dbUrl, 'bare'),
  ]);
  const limits = { rows: rowsLimit, json: jsonLimit, bare: bareLimit };
  try {
    type Target = 'service' | 'rows' | 'json' | 'bare';
    const urlOf = (target: Target, orgId: string) => (target === 'service' ? `${service.base}/api/access` : `${limits[target].base}/api/access?org=${orgId}`);
    const headersOf = (target: Target, cookie: string): Record<string, string> => (target === 'service' ? { cookie } : {});

    // The limit must answer what the service answers, or the comparison means nothing.
    for (const org of data.orgs) {
      const answers = await Promise.all((['service', 'rows', 'json', 'bare'] as const).map((t) => get(urlOf(t, org.id), headersOf(t, org.adminCookie))));
      const [svc, rows, json, bare] = answers.map((a) => (a.status === 200 ? JSON.stringify(itemsOf(a.body)) : `status ${a.status}`));
      const count = answers[0]!.status === 200 ? itemsOf(answers[0]!.body).length : -1;
      if (count !== org.members) problem(`${org.name}: the service listed ${count} members, expected ${org.members}`);
      if (svc !== rows || svc !== json || svc !== bare) problem(`${org.name}: the limit servers do not answer what the service answers`);
    }

    const samples = new Map<string, CpuSample[]>();
    const pids: Record<Target, number> = { service: service.pid, rows: rowsLimit.pid, json: jsonLimit.pid, bare: bareLimit.pid };
    const targets: Target[] = ['service', 'rows', 'json', 'bare'];
    for (let r = 0; r < rounds; r++) {
      for (const org of data.orgs) {
        // Rotate the order each round so that drift in the machine hits every target alike.
        const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
        for (const target of order) {
          const spec: LoadSpec = {
            url: urlOf(target, org.id),
            connections: CONNECTIONS,
            // The largest list answers a few requests a second: run longer for enough samples.
            durationSeconds: org.members >= 10_000 ? 2 * durationSeconds : durationSeconds,
            method: 'GET',
            headers: headersOf(target, org.adminCookie),
          };
          if (r === 0 && warmupSeconds > 0) await runLoad({ ...spec, durationSeconds: warmupSeconds });
          const result = await runLoadWithCpu(spec, pids[target]);
          const what = `${target.padEnd(7)} ${label(org.members).padStart(6)} members, round ${r + 1}`;
          log(`  ${what}: ${fmtLoad(result)}  CPU/request: server ${result.server_cpu_ms} ms, PostgreSQL ${result.postgres_cpu_ms} ms`);
          checkLoad(`GET ${what}`, result);
          const key = `${target}:${org.id}`;
          samples.set(key, [...(samples.get(key) ?? []), result]);
        }
      }
    }
    for (const org of data.orgs) {
      const svc = summarize(samples.get(`service:${org.id}`)!);
      const rows = summarize(samples.get(`rows:${org.id}`)!);
      const json = summarize(samples.get(`json:${org.id}`)!);
      const bare = summarize(samples.get(`bare:${org.id}`)!);
      const forms = [
        ['rows (a)', rows, 'rows'],
        ['json_agg (b)', json, 'json'],
        ['service SQL, bare node:http (c)', bare, 'bare'],
      ] as const;
      const fastest = forms.reduce((best, form) => (form[1].rps > best[1].rps ? form : best));
      const limitRps = fastest[1].rps;
      results.push({
        scenario: `GET /api/access, ${label(org.members)} members`,
        ...svc,
        limit_rps: limitRps,
        ratio: round(svc.rps / limitRps, 2),
        limit_form: fastest[0],
        target_ratio: 0.8,
        limit_rows: rows,
        limit_json: json,
        limit_bare: bare,
        ratio_to_bare: round(svc.rps / bare.rps, 2),
        runs: samples.get(`service:${org.id}`)!.map((s) => round(s.rps, 1)),
        ...cpuPerRequest(samples.get(`service:${org.id}`)!, samples.get(`${fastest[2]}:${org.id}`)!),
        connections: CONNECTIONS,
      });
    }
  } finally {
    for (const s of [service, limits.rows, limits.json, limits.bare]) await s.stop();
    const errors = loggedErrors(service);
    if (errors.length) problem(`the service logged ${errors.length} errors, e.g. ${errors[0]!.slice(0, 300)}`);
  }
}

/**
 * Downloads the global list, timing to the last byte. A timed download only counts bytes, as
 * psql's `\copy` to /dev/null does: the client shares the 2 cores with the server, and
 * anything more it does would be charged to the service. `inspect` (an untimed download)
 * counts the items without parsing (and, in quick mode, keeps the body to parse).
 */
function fetchGlobal(
  url: string,
  cookie: string,
  inspect: boolean,
): Promise<{ status: number; seconds: number; bytes: number; items: number; head: string; tail: string; body?: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const needle = Buffer.from('"user_id"');
    let carry: Buffer = Buffer.alloc(0);
    let items = 0;
    let bytes = 0;
    let head = '';
    let tail: Buffer = Buffer.alloc(0);
    const keep: Buffer[] | null = inspect && quick ? [] : null;
    const request = http.get(url, { headers: { cookie }, agent: false }, (response) => {
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (head.length < 32) head += chunk.subarray(0, 32).toString('latin1');
        tail = Buffer.concat([tail, chunk.subarray(-16)]).subarray(-16);
        if (!inspect) return;
        keep?.push(chunk);
        // A needle across two chunks lies within their last and first (length - 1) bytes;
        // joining only those spares copying the whole body, which the client would pay for.
        const seam = Buffer.concat([carry, chunk.subarray(0, needle.length - 1)]);
        if (seam.indexOf(needle) !== -1) items++;
        for (let at = chunk.indexOf(needle); at !== -1; at = chunk.indexOf(needle, at + needle.length)) items++;
        carry = Buffer.concat([carry, chunk.subarray(-(needle.length - 1))]).subarray(-(needle.length - 1));
      });
      response.on('end', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({
          status: response.statusCode ?? 0,
          seconds,
          bytes,
          items,
          head,
          tail: tail.toString('latin1'),
          ...(keep ? { body: Buffer.concat(keep).toString('utf8') } : {}),
        });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** psql's `\copy` of the same rows (the same join, columns and order) to /dev/null. */
function psqlCopy(dbUrl: string): number {
  const select = `select m.org_id, m.user_id,
      coalesce(nullif(btrim(u.user_metadata->>'first_name'), ''), nullif(split_part(btrim(u.user_metadata->>'display_name'), ' ', 1), '')) as first_name,
      coalesce(u.email, 'Email non disponible') as email, m.role, m.created_at, m.revoked, m.revoked_at,
      coalesce(u.activated_at is not null, false) as activated
    from public.organization_members m left join auth.users u on u.id = m.user_id
    order by m.created_at desc, m.org_id desc, m.user_id desc`.replace(/\s+/g, ' ');
  const started = process.hrtime.bigint();
  execFileSync('psql', [dbUrl, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${select}) to '/dev/null'`], { stdio: ['ignore', 'ignore', 'inherit'] });
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function globalScenario(dbUrl: string, data: Seeded): Promise<void> {
  log(`\n== GET /api/access, global staff mode (${label(data.totalMemberships)} memberships) ==`);
  const runs: Array<{ seconds: number; cold_seconds: number; peak_rss_mb: number; start_rss_mb: number; copy_seconds: number }> = [];
  // One unmeasured pass of each warms PostgreSQL's cache alike.
  if (!quick) psqlCopy(dbUrl);
  for (let r = 0; r < rounds; r++) {
    const copyFirst = r % 2 === 1;
    let copySeconds = copyFirst ? psqlCopy(dbUrl) : 0;
    const server = await startService(dbUrl);
    try {
      const startRss = vmHwmMb(server.pid);
      // A fresh process compiles its hot paths during its first list, as under every load
      // scenario's warm-up: that first download is timed apart (cold), the next one counts.
      const cold = await fetchGlobal(`${server.base}/api/access`, data.staffCookie, false);
      const got = await fetchGlobal(`${server.base}/api/access`, data.staffCookie, false);
      const peak = vmHwmMb(server.pid);
      if (!copyFirst) copySeconds = psqlCopy(dbUrl);
      log(
        `  round ${r + 1}: service ${got.seconds.toFixed(2)} s (cold: ${cold.seconds.toFixed(2)} s) (${(got.bytes / 1e6).toFixed(0)} MB), ` +
          `peak RSS ${peak.toFixed(0)} MB (${startRss.toFixed(0)} MB after start-up); psql \\copy ${copySeconds.toFixed(2)} s`,
      );
      if (cold.status !== 200) problem(`global list (cold): status ${cold.status}`);
      if (got.status !== 200) problem(`global list: status ${got.status}`);
      if (!got.head.startsWith('{"items":[') || !got.tail.endsWith(']}')) problem('global list: not a {"items":[…]} document');
      // What the timed downloads answered is checked once, on a download of its own.
      const checked = r === 0 ? await fetchGlobal(`${server.base}/api/access`, data.staffCookie, true) : null;
      if (checked && checked.bytes !== got.bytes) problem(`global list: ${checked.bytes} bytes, then ${got.bytes}`);
      if (checked && checked.items !== data.totalMemberships) problem(`global list: ${checked.items} items, expected ${data.totalMemberships}`);
      if (checked?.body !== undefined) {
        const items = itemsOf(checked.body) as Array<{ created_at: string; org_id: string | null }>;
        if (items.length !== data.totalMemberships) problem(`global list parsed: ${items.length} items`);
        if (items.some((item, i) => item.org_id === null || (i > 0 && items[i - 1]!.created_at < item.created_at))) {
          problem('global list: not newest first, or an item without org_id');
        }
      }
      runs.push({ seconds: got.seconds, cold_seconds: cold.seconds, peak_rss_mb: peak, start_rss_mb: startRss, copy_seconds: copySeconds });
    } finally {
      await server.stop();
      const errors = loggedErrors(server);
      if (errors.length) problem(`the service logged ${errors.length} errors, e.g. ${errors[0]!.slice(0, 300)}`);
    }
  }
  const seconds = median(runs.map((r) => r.seconds));
  const copySeconds = median(runs.map((r) => r.copy_seconds));
  const coldSeconds = median(runs.map((r) => r.cold_seconds));
  results.push({
    scenario: `GET /api/access, global staff mode, ${label(data.totalMemberships)} memberships`,
    rps: null,
    p50_ms: null,
    p99_ms: null,
    limit_rps: null,
    // As for the other scenarios, the fraction of the limit reached: copy time / service time;
    // within 1.5× of \copy is a ratio of at least 1 / 1.5.
    ratio: round(copySeconds / seconds, 2),
    target_ratio: 0.67,
    seconds: round(seconds, 2),
    cold_seconds: round(coldSeconds, 2),
    cold_seconds_over_copy: round(coldSeconds / copySeconds, 2),
    peak_rss_mb: round(median(runs.map((r) => r.peak_rss_mb)), 0),
    peak_rss_mb_max: round(Math.max(...runs.map((r) => r.peak_rss_mb)), 0),
    start_rss_mb: round(median(runs.map((r) => r.start_rss_mb)), 0),
    copy_seconds: round(copySeconds, 2),
    seconds_over_copy: round(seconds / copySeconds, 2),
    items: data.totalMemberships,
    runs: runs.map((r) => ({
      seconds: round(r.seconds, 2),
      cold_seconds: round(r.cold_seconds, 2),
      peak_rss_mb: round(r.peak_rss_mb, 0),
      copy_seconds: round(r.copy_seconds, 2),
    })),
  });
}

/** A TCP server that accepts connections and never says a word: SMTP that hangs. */
function blackhole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `smtp://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

async function countMails(client: pg.Client, kind: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>('select count(*)::text as n from public.mail_outbox where kind = $1', [kind]);
  return Number(rows[0]!.n);
}

/**
 * The count once the requests still in flight when a load stopped have been answered (the
 * server completes them, uncounted by the load generator): two equal counts 200 ms apart.
 */
async function settledMails(client: pg.Client, kind: string): Promise<number> {
  let count = await countMails(client, kind);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await countMails(client, kind);
    if (next === count) return count;
    count = next;
  }
}

async function postScenarios(dbUrl: string, data: Seeded, client: pg.Client): Promise<void> {
  log('\n== POST /api/access ==');
  const hole = await blackhole();
  type Kind = 'role' | 'invite' | 'invite-smtp' | 'invite-cte';
  const samples = new Map<Kind, Array<Sample & { mails: number }>>();
  const { rows: adminRows } = await client.query<{ id: string }>(`select id from auth.users where email = $1`, [data.post.memberEmail(0)]);
  const limitQuery = `?org=${data.post.id}&actor=${adminRows[0]!.id}`;
  const spec = (server: Server, kind: Kind, seconds: number, tag: string): LoadSpec => ({
    url: `${server.base}/api/access${kind === 'invite-cte' ? limitQuery : ''}`,
    connections: CONNECTIONS,
    durationSeconds: seconds,
    method: 'POST',
    headers: { cookie: data.post.adminCookie },
    body:
      kind === 'role'
        ? { kind: 'role-change', prefix: 'post', domain: BENCH_DOMAIN, first: 1, count: data.post.members - 1, roles: ['COMPTA', 'AGENT'] }
        : { kind: 'invite', prefix: `${INVITE_PREFIX}-${tag}`, domain: BENCH_DOMAIN },
  });
  const measure = async (server: Server, kind: Kind, r: number) => {
    const mailKind = kind === 'role' ? 'access_updated' : 'activation';
    if (warmupSeconds > 0) {
      await runLoad(spec(server, kind, 1, `warm${r}`));
      await settledMails(client, mailKind);
      await resetPostOrg(client, data.post.id, INVITE_PREFIX);
    }
    const result = await runLoad(spec(server, kind, durationSeconds, `r${r}`));
    const mails = await settledMails(client, mailKind);
    const what = {
      role: 'role change          ',
      invite: 'invitation, no SMTP  ',
      'invite-smtp': 'invitation, SMTP hangs',
      'invite-cte': 'invitation, limit CTE ',
    }[kind];
    log(`  ${what} round ${r + 1}: ${fmtLoad(result)}  ${label(mails)} e-mails queued`);
    checkLoad(`POST ${what.trim()}, round ${r + 1}`, result);
    // Requests still in flight when the load stops are completed by the server, uncounted.
    const ok = result.status_codes['200'] ?? 0;
    if (mails < ok || mails > ok + CONNECTIONS) {
      problem(`POST ${what.trim()}: ${ok} requests answered 200 but ${mails} ${mailKind} e-mails were queued`);
    }
    samples.set(kind, [...(samples.get(kind) ?? []), { ...result, mails }]);
    await resetPostOrg(client, data.post.id, INVITE_PREFIX);
  };
  const cte = await startLimit(dbUrl, 'invite');
  try {
    await resetPostOrg(client, data.post.id, INVITE_PREFIX);
    for (let r = 0; r < rounds; r++) {
      // A fresh server for each SMTP setting, so that each worker sees only its own e-mails.
      const plain = await startService(dbUrl);
      try {
        await measure(plain, 'role', r);
        // The invitation and its limit side by side, in turns.
        if (r % 2 === 1) await measure(cte, 'invite-cte', r);
        await measure(plain, 'invite', r);
        if (r % 2 === 0) await measure(cte, 'invite-cte', r);
      } finally {
        await plain.stop();
        const errors = loggedErrors(plain);
        if (errors.length) problem(`the service logged ${errors.length} errors, e.g. ${errors[0]!.slice(0, 300)}`);
      }
      const smtp = await startService(dbUrl, hole.url);
      try {
        await measure(smtp, 'invite-smtp', r);
      } finally {
        await smtp.stop();
      }
    }
  } finally {
    await cte.stop();
    await hole.close();
    await resetPostOrg(client, data.post.id, INVITE_PREFIX);
  }
  const scenario = {
    role: 'POST /api/access, role change of an existing member',
    invite: 'POST /api/access, invitation (SMTP unset: .eml files)',
    'invite-smtp': 'POST /api/access, invitation (SMTP_URL accepts TCP, never greets)',
  };
  const limit = samples.get('invite-cte') ?? [];
  const limitRps = limit.length ? summarize(limit).rps : null;
  const plainInvite = samples.get('invite') ?? [];
  for (const kind of ['role', 'invite', 'invite-smtp'] as const) {
    const list = samples.get(kind) ?? [];
    if (!list.length) continue;
    const rps = summarize(list).rps;
    // The invitation's limit: the same rows written by one data-modifying CTE per request.
    const withLimit = kind === 'invite' && limitRps !== null;
    // An invitation with SMTP hanging, against the same invitation with SMTP unset: one that
    // waited for SMTP (its 10-s greeting timeout) would fall to a few a second, far below half.
    const againstPlain = kind === 'invite-smtp' && plainInvite.length > 0;
    const plainRps = againstPlain ? summarize(plainInvite).rps : null;
    results.push({
      scenario: scenario[kind],
      ...summarize(list),
      limit_rps: withLimit ? limitRps : plainRps,
      ratio: withLimit ? round(rps / limitRps, 2) : plainRps !== null ? round(rps / plainRps, 2) : null,
      ...(withLimit
        ? { target_ratio: 0.5, limit_form: 'one data-modifying CTE per request (Fastify + pg)', limit_runs: limit.map((s) => round(s.rps, 1)) }
        : {}),
      ...(plainRps !== null ? { target_ratio: 0.5, limit_form: 'the same invitation with SMTP unset (.eml files)' } : {}),
      mails_queued_per_run: list.map((s) => s.mails),
      runs: list.map((s) => round(s.rps, 1)),
      connections: CONNECTIONS,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function machine(dbVersion: string) {
  return {
    nproc: os.availableParallelism(),
    memory_gb: round(os.totalmem() / 2 ** 30, 1),
    cpu: os.cpus()[0]?.model ?? '?',
    node: process.version,
    postgres: dbVersion,
    // The guest's memory reclaimer, which moves the p99 windows (harness.ts, damonState).
    damon: damonState(),
  };
}

function table(rows: ResultRow[]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '–' : String(v));
  const lines = [
    '| scenario | req/s | p50 ms | p99 ms | limit req/s | ratio | target | seconds | \\copy s | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const target = typeof r.target_ratio === 'number' ? `≥ ${r.target_ratio}` : null;
    lines.push(
      `| ${r.scenario} | ${cell(r.rps)} | ${cell(r.p50_ms)} | ${cell(r.p99_ms)} | ${cell(r.limit_rps)} | ${cell(r.ratio)} | ${cell(target)} | ${cell(r.seconds)} | ${cell(r.copy_seconds)} | ${cell(r.peak_rss_mb)} |`,
    );
  }
  return lines.join('\n');
}

const verdict = (holds: boolean, target: string) => (holds ? `holds (${target})` : `MISSED (target ${target})`);

function targets(rows: ResultRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (typeof r.target_ratio === 'number' && r.ratio !== null) {
      out.push(`${r.scenario}: ratio ${r.ratio} ${verdict(r.ratio >= r.target_ratio, `≥ ${r.target_ratio}`)}`);
    }
    if (typeof r.deep_over_first === 'number' && typeof r.deep_over_first_target === 'number') {
      out.push(
        `${r.scenario}: ${r.deep_over_first} of the first page's req/s ${verdict(r.deep_over_first >= r.deep_over_first_target, `≥ ${r.deep_over_first_target}`)}`,
      );
    }
    if (typeof r.rss_target_mb === 'number' && typeof r.peak_rss_mb === 'number') {
      out.push(`${r.scenario}: peak RSS ${r.peak_rss_mb} MB ${verdict(r.peak_rss_mb < r.rss_target_mb, `< ${r.rss_target_mb} MB`)}`);
    }
    if (typeof r.seconds_target === 'number' && typeof r.seconds === 'number') {
      out.push(`${r.scenario}: ${r.seconds} s ${verdict(r.seconds < r.seconds_target, `< ${r.seconds_target} s`)}`);
    }
    if (r.copy_seconds !== undefined) {
      const within = (r.seconds as number) <= 1.5 * (r.copy_seconds as number);
      const cold = ` (a fresh process's first list: ${r.cold_seconds_over_copy}×)`;
      out.push(`${r.scenario}: ${r.seconds_over_copy}× \\copy${cold} ${within ? 'holds (≤ 1.5×)' : 'MISSED (> 1.5×)'}`);
      out.push(`${r.scenario}: peak RSS ${r.peak_rss_mb} MB ${(r.peak_rss_mb as number) < 200 ? 'holds (< 200 MB)' : 'MISSED (≥ 200 MB)'}`);
    }
  }
  const plain = rows.find((r) => r.scenario.includes('SMTP unset'));
  const hung = rows.find((r) => r.scenario.includes('never greets'));
  if (plain && hung) {
    // An invitation that waited for SMTP would take the transport's greeting timeout (10 s).
    const neverWaits = hung.p99_ms! < 1000;
    out.push(
      `invitation with SMTP hanging: p50 ${hung.p50_ms} / p99 ${hung.p99_ms} ms vs ${plain.p50_ms} / ${plain.p99_ms} ms without SMTP ` +
        `(waiting for SMTP would take ≥ 10 s): ${neverWaits ? 'holds (never waits)' : 'MISSED'}`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const missing = missingTools(only);
  if (missing.length) {
    for (const message of missing) process.stderr.write(`npm run bench: ${message}\n`);
    return 1;
  }
  const started = Date.now();
  setTmpDir(fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-bench-')));
  const database = await benchDatabase();
  const client = new pg.Client({ connectionString: database.url });
  try {
    log(`payroll-access bench (${quick ? 'quick' : 'full'}: ${rounds} round(s) of ${durationSeconds} s, ${CONNECTIONS} connections)`);
    // The service's own migrations (another checkout may have fewer).
    const { openDatabase } = (await import(path.join(SERVICE_ROOT, 'src/db/database.ts'))) as typeof import('../src/db/database.ts');
    const { migrateToLatest } = (await import(path.join(SERVICE_ROOT, 'src/db/migrate.ts'))) as typeof import('../src/db/migrate.ts');
    const handle = await openDatabase({ databaseUrl: database.url, pgliteDir: 'memory://', maxConnections: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    if (SERVICE_ROOT !== ROOT) log(`service under test: ${SERVICE_ROOT}`);
    await client.connect();
    const file = path.join(RESULTS, `${args.out ?? (quick ? 'quick' : 'latest')}.json`);
    // Each scenario's figures are written as soon as it ends; one that fails is recorded as
    // failed and the others still run, so that no figure measured is thrown away.
    const scenario = async (name: string, run: () => Promise<void>) => {
      if (!only.has(name)) return;
      try {
        await run();
      } catch (error) {
        killChildren();
        problem(`scenario ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
        results.push({ scenario: name, rps: null, p50_ms: null, p99_ms: null, limit_rps: null, ratio: null, failed: true });
      }
      fs.mkdirSync(RESULTS, { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    };
    // The machine's floor first, before the seed's million rows leave PostgreSQL writing them out.
    await scenario('floor', () => floorScenario());
    const data = await seed(client, sizes, log);
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    const info = machine(rows[0]!.server_version.split(' ')[0]!);
    log(`machine: ${info.nproc} cores (${info.cpu}), ${info.memory_gb} GiB, node ${info.node}, PostgreSQL ${info.postgres}, DAMON: ${info.damon}`);

    const orgFilter = args.orgs ? new Set(args.orgs.split(',').map(Number)) : null;
    if (orgFilter) data.orgs = data.orgs.filter((org) => orgFilter.has(org.members));
    await scenario('get', () => getScenarios(database.url, data));
    await scenario('global', () => globalScenario(database.url, data));
    // POST before the modules, as in every earlier run (resetting its invitations deletes
    // accounts, which had to scan the million contracts' `created_by` until that column went).
    await scenario('post', () => postScenarios(database.url, data, client));
    if (['grid', 'pdf', 'files'].some((name) => only.has(name))) {
      const modules = await seedModules(client, data, contracts);
      await scenario('grid', () => gridScenario(database.url, modules));
      await scenario('pdf', () => pdfScenario(database.url, modules));
      await scenario('files', () => filesScenario(database.url, modules));
    }
    await scenario('billing', () => billingScenario(database.url, data.staffCookie, client));
    await scenario('facturx', () => facturxScenario(database.url, data.staffCookie, client));
    await scenario('payroll', () => payrollScenario(database.url, data, client));

    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    const report = [
      `machine: ${info.nproc} cores (${info.cpu}), ${info.memory_gb} GiB, node ${info.node}, PostgreSQL ${info.postgres}, DAMON: ${info.damon}`,
      `run: ${quick ? 'quick' : 'full'}, medians of ${rounds} run(s) of ${durationSeconds} s, ${CONNECTIONS} connections, ${new Date().toISOString()}`,
      '',
      table(results),
      '',
      ...targets(results).map((t) => `- ${t}`),
      '',
    ].join('\n');
    fs.writeFileSync(file.replace(/\.json$/, '.md'), report);
    log(`\n${report}`);
    log(`results: ${path.relative(ROOT, file)} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    await client.end().catch(() => {});
    await database.drop().catch((error: unknown) => problem(`cannot drop the bench database: ${String(error)}`));
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  if (problems.length) {
    log(`\nFAILED: ${problems.length} problem(s):`);
    for (const p of problems) log(`- ${p}`);
    return 1;
  }
  return 0;
}

function killChildren(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}
process.on('SIGINT', () => {
  killChildren();
  process.exit(130);
});

try {
  process.exitCode = await main();
} catch (error) {
  killChildren();
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
