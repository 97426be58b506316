/**
 * The bench's harness, shared by its scenarios (`run.ts`, `modules.ts`): options, the
 * database, child processes (servers, load generators), medians and the results table.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { LoadResult, LoadSpec } from './load.ts';
import type { SeedSizes } from './seed.ts';
import { startFlags } from '../test/cli/processes.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS = path.join(ROOT, 'bench', 'results');
export const LOCAL_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
export const CONNECTIONS = 32;
export const INVITE_PREFIX = 'invite';

export const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    only: { type: 'string' },
    contracts: { type: 'string' },
    'keep-db': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'service-root': { type: 'string' },
    out: { type: 'string' },
    orgs: { type: 'string' },
    'payroll-orgs': { type: 'string' },
  },
});
/** Where the service under test lives: this tree, or another checkout (before/after comparisons). */
export const SERVICE_ROOT = path.resolve(args['service-root'] ?? ROOT);

export const quick = args.quick ?? false;
export const rounds = Number(args.rounds ?? (quick ? 1 : 3));
export const durationSeconds = Number(args.duration ?? (quick ? 1 : 6));
// Each target's first load is preceded by an uncounted one. A fresh service is still compiling
// its hot paths for its first 4 s under load (V8's compiler threads then take 0.2-0.45 ms of CPU
// a request, 0.02-0.05 after): 5 s leave every target's counted rounds warm. Quick mode warms
// each target for a second too: a cold server on a busy machine may not answer within a 1-second run.
export const warmupSeconds = quick ? 1 : 5;
export const only = new Set((args.only ?? 'floor,get,global,post,grid,pdf,files,billing,facturx,payroll').split(','));
/** Organizations of the payroll run, 100 contracts each (fewer for a quicker before/after). */
export const payrollOrgs = Number(args['payroll-orgs'] ?? (quick ? 4 : 100));
/** Contracts of the grid's organization. */
export const contracts = Number(args.contracts ?? (quick ? 5000 : 1_000_000));
export const sizes: SeedSizes = quick
  ? { orgSizes: [10, 100, 1000], globalTotal: 5000, postMembers: 200, bulkOrgs: 20 }
  : { orgSizes: [10, 1000, 10000], globalTotal: 1_000_000, postMembers: 2000, bulkOrgs: 996 };

/** The run's scratch directory (logs, data directories), set by `run.ts`. */
export let tmpDir = '';
export function setTmpDir(dir: string): void {
  tmpDir = dir;
}

export const problems: string[] = [];
export const log = (line: string) => process.stdout.write(`${line}\n`);
export const problem = (line: string) => {
  problems.push(line);
  process.stdout.write(`  !! ${line}\n`);
};

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
export const label = (n: number) => n.toLocaleString('en');

// ---------------------------------------------------------------------------------------------
// Database

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function adminQuery(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: LOCAL_SERVER });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

export async function benchDatabase(): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: async () => {} };
  const keep = args['keep-db'] ?? false;
  const name = keep ? (quick ? 'payroll_bench_quick' : 'payroll_bench') : `payroll_bench_${crypto.randomBytes(5).toString('hex')}`;
  const url = new URL(LOCAL_SERVER);
  url.pathname = `/${name}`;
  if (keep) {
    const client = new pg.Client({ connectionString: LOCAL_SERVER });
    await client.connect();
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    await client.end();
    if (!rowCount) await adminQuery(`create database ${name}`);
    return { url: url.toString(), drop: async () => {} };
  }
  await adminQuery(`create database ${name}`);
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

// ---------------------------------------------------------------------------------------------
// Child processes

export const children = new Set<ChildProcess>();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export interface Server {
  name: string;
  base: string;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

/** The environment of a child: the bench decides every variable the service reads. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'SMTP_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_URL', 'LOG_LEVEL']) delete env[name];
  return { ...env, ...extra };
}

/** `script` is a `.ts` file run through tsx, or a built `.js` file run by node itself. */
export async function startServer(
  name: string,
  script: string,
  env: Record<string, string>,
  readyPath: string,
  nodeFlags: string[] = [],
  cwd: string = ROOT,
): Promise<Server> {
  const port = await freePort();
  const logFile = path.join(tmpDir, `${name.replace(/\W+/g, '-')}-${port}.log`);
  const out = fs.openSync(logFile, 'w');
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeFlags, ...loader, script], {
    cwd,
    env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => children.delete(child));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited at start-up:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      if ((await get(`${base}${readyPath}`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready after 60 s:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    base,
    pid: child.pid!,
    logFile,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

export function serviceEnv(dbUrl: string, smtpUrl?: string): Record<string, string> {
  return {
    DATABASE_URL: dbUrl,
    NODE_ENV: 'production',
    DATA_DIR: path.join(tmpDir, `data-${crypto.randomBytes(3).toString('hex')}`),
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
  };
}

/**
 * The service as `npm start` runs it: built once (`npm run build`), then `node <its flags>
 * dist/server.js`. A `--service-root` from before the build step existed runs `src/server.ts`
 * through tsx.
 */
let serviceScript: string | undefined;
export function startService(dbUrl: string, smtpUrl?: string, extra: { nodeFlags?: string[]; env?: Record<string, string> } = {}): Promise<Server> {
  if (serviceScript === undefined) {
    const builds = fs.existsSync(path.join(SERVICE_ROOT, 'tsconfig.build.json'));
    if (builds) execFileSync('npm', ['run', '-s', 'build'], { cwd: SERVICE_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    serviceScript = builds ? 'dist/server.js' : 'src/server.ts';
  }
  const flags = [
    ...(serviceScript === 'dist/server.js' ? startFlags(SERVICE_ROOT) : []),
    ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS, 'profiles')}`] : []),
    ...(extra.nodeFlags ?? []),
  ];
  return startServer(smtpUrl ? 'service-smtp' : 'service', serviceScript, { ...serviceEnv(dbUrl, smtpUrl), ...extra.env }, '/readyz', flags, SERVICE_ROOT);
}

export function startLimit(dbUrl: string, form: 'rows' | 'json' | 'bare' | 'grid' | 'invite' | 'files'): Promise<Server> {
  const script = form === 'rows' || form === 'json' ? 'bench/limit-server.ts' : `bench/limit-${form}.ts`;
  const ready = form === 'rows' || form === 'json' || form === 'bare' ? '/api/access' : '/readyz';
  return startServer(`limit-${form}`, script, { DATABASE_URL: dbUrl, LIMIT_FORM: form }, ready);
}

/** Counts the lines the server logged at error level or above (pino: level ≥ 50). */
export function loggedErrors(server: Server): string[] {
  return fs
    .readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":(5|6)\d/.test(line));
}

/** Runs a bench script (`load.ts`, `pdf-loop.ts`, `files-loop.ts`) as its own process, its input as JSON; resolves with its last JSON line. */
export function runJsonScript<T>(script: string, input: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(input)], {
      cwd: ROOT,
      env: childEnv({}),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.add(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('exit', (code) => {
      children.delete(child);
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as T);
      } catch (error) {
        reject(error);
      }
    });
  });
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return runJsonScript<LoadResult>('bench/load.ts', spec);
}

export function checkLoad(what: string, result: LoadResult): void {
  const bad = result.non2xx + result.errors + result.timeouts;
  if (!(result.requests > 0) || !Number.isFinite(result.rps) || !Number.isFinite(result.p99_ms)) {
    problem(`${what}: no numbers (${JSON.stringify(result)})`);
  } else if (bad > 0) {
    problem(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts (${JSON.stringify(result.status_codes)})`);
  }
}

export const fmtLoad = (r: LoadResult) =>
  `${r.rps.toFixed(1).padStart(8)} req/s  p50 ${String(r.p50_ms).padStart(5)} ms  p99 ${String(r.p99_ms).padStart(5)} ms`;

// ---------------------------------------------------------------------------------------------
// Scenarios

export interface ResultRow {
  scenario: string;
  rps: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  limit_rps: number | null;
  ratio: number | null;
  [key: string]: unknown;
}

export const results: ResultRow[] = [];

export interface Sample {
  rps: number;
  p50_ms: number;
  p99_ms: number;
}
export const summarize = (samples: Sample[]) => ({
  rps: round(median(samples.map((s) => s.rps)), 1),
  p50_ms: median(samples.map((s) => s.p50_ms)),
  p99_ms: median(samples.map((s) => s.p99_ms)),
});

/** The items of a list body, for comparing the service and the limit. */
export function itemsOf(body: string): unknown[] {
  return (JSON.parse(body) as { items: unknown[] }).items;
}

/** The peak resident set of a process (`VmHWM`), in MB. */
export function vmHwmMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

/** A process and its children (the payroll's computing processes), for their memory together. */
export function processTree(pid: number): number[] {
  const children = fs.readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      // `pid (comm) state ppid …`: the command may hold spaces, the fields after its `)` do not.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false; // gone meanwhile
    }
  });
  return [pid, ...children.map(Number)];
}

/** The sum of `measure` over a process and its children; a child that has just ended counts 0. */
export function treeMb(pid: number, measure: (pid: number) => number): number {
  return processTree(pid).reduce((sum, each) => {
    try {
      return sum + measure(each);
    } catch {
      return sum;
    }
  }, 0);
}

/** The current resident set of a process (`VmRSS`), in MB. */
export function vmRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

/**
 * The time a process's main thread has spent so far waiting for a core while runnable, in ms
 * (`/proc/<pid>/task/<pid>/schedstat`, second field, ns): what it lost to other threads and
 * processes, as opposed to its own work.
 */
export function mainThreadRunQueueWaitMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
  return Number(fields[1]) / 1e6;
}

/**
 * Round `r`'s two measurements, the service first in even rounds and its limit first in odd
 * ones, so that drift in the machine hits both alike; the service's result.
 */
export async function alternating<T>(r: number, service: () => Promise<T>, limit: () => Promise<unknown>): Promise<T> {
  if (r % 2 === 0) {
    const value = await service();
    await limit();
    return value;
  }
  await limit();
  return service();
}

/**
 * The machine's page faults served from disk so far (`pgmajfault` of `/proc/vmstat`) and the
 * file pages read again after the kernel reclaimed them (`workingset_refault_file`): what a
 * memory reclaimer costs a window (on this machine kind, the guest's DAMON pageout, `damonState`).
 */
function diskFaults(): { major: number; refaults: number } {
  const vmstat = fs.readFileSync('/proc/vmstat', 'utf8');
  const count = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(vmstat)?.[1] ?? 0);
  return { major: count('pgmajfault'), refaults: count('workingset_refault_file') };
}

/** What a latency window cost beside the load: the server's main thread's wait for a core, and the machine's faults from disk. */
export interface WindowCounters {
  wait_ms_per_s: number;
  major_faults: number;
  file_refaults: number;
}

/** Runs `window`, adding to `into` what the machine did meanwhile (`WindowCounters`). */
export async function withWindowCounters<T>(pid: number, into: WindowCounters[], window: () => Promise<T>): Promise<T> {
  const [waited, faults, started] = [mainThreadRunQueueWaitMs(pid), diskFaults(), performance.now()];
  const result = await window();
  const after = diskFaults();
  into.push({
    wait_ms_per_s: (1000 * (mainThreadRunQueueWaitMs(pid) - waited)) / (performance.now() - started),
    major_faults: after.major - faults.major,
    file_refaults: after.refaults - faults.refaults,
  });
  return result;
}

/** A window's counters as the log shows them. */
export function fmtCounters(counters: WindowCounters): string {
  return `main thread waiting for a core: ${counters.wait_ms_per_s.toFixed(1)} ms/s, ${counters.major_faults} major faults, ${counters.file_refaults} file pages refaulted`;
}

/**
 * The guest kernel's DAMON monitors and what they do (`/sys/kernel/mm/damon/admin`): this
 * machine kind runs one that pages out physical memory left unaccessed for a minute, which
 * doubled the loaded p99 of the payroll run's windows in the probes of 2026-11-29 (bench/README.md).
 */
export function damonState(): string {
  const root = '/sys/kernel/mm/damon/admin/kdamonds';
  try {
    const count = Number(fs.readFileSync(`${root}/nr_kdamonds`, 'utf8'));
    if (!count) return 'none';
    const read = (file: string) => fs.readFileSync(`${root}/${file}`, 'utf8').trim();
    return Array.from({ length: count }, (_, k) => {
      // A monitor with no scheme only watches.
      const action = fs.existsSync(`${root}/${k}/contexts/0/schemes/0/action`) ? read(`${k}/contexts/0/schemes/0/action`) : 'monitoring only';
      return `${action} ${read(`${k}/state`)}`;
    }).join(', ');
  } catch {
    return 'none';
  }
}

/** `GET /api/access` at a steady 100 req/s over 2 connections: the latency of a request, not of a queue. */
export function steadyAccessLoad(base: string, cookie: string, durationSeconds: number): LoadSpec {
  return { url: `${base}/api/access`, connections: 2, overallRate: 100, durationSeconds, method: 'GET', headers: { cookie } };
}

/**
 * CPU seconds (user + system) a process has used so far, from `/proc/<pid>/stat`; with
 * `reapedChildren`, also what its ended children used (counted once it has waited for them).
 */
export function cpuSeconds(pid: number, reapedChildren = false, statFile = `/proc/${pid}/stat`): number {
  // The fields after the command name (which may hold spaces): utime and stime are the 12th
  // and 13th, cutime and cstime the 14th and 15th.
  const stat = fs.readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (reapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/**
 * CPU seconds used so far by every PostgreSQL process of the machine (server and backends).
 * A backend that ends (a pool closing an idle connection) takes its CPU out of the running
 * processes and into the server's count of its reaped children, so the total never drops.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(Number(entry), true);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/**
 * A load run with the CPU it cost: milliseconds per request of the server under test and of
 * PostgreSQL. On a 2-core machine shared with the load generator, this tells where a ratio is
 * lost better than req/s alone.
 */
export type CpuSample = Sample & { server_cpu_ms: number; postgres_cpu_ms: number };

/** Median CPU milliseconds per request of a target's runs, its server's and PostgreSQL's apart. */
export function medianCpu(samples: CpuSample[]): { server_cpu_ms: number; postgres_cpu_ms: number } {
  return { server_cpu_ms: median(samples.map((s) => s.server_cpu_ms)), postgres_cpu_ms: median(samples.map((s) => s.postgres_cpu_ms)) };
}

/** `medianCpu` of the service's runs and of its limit's, side by side in a result row. */
export function cpuPerRequest(service: CpuSample[], limit: CpuSample[]) {
  const limitCpu = medianCpu(limit);
  return { ...medianCpu(service), limit_server_cpu_ms: limitCpu.server_cpu_ms, limit_postgres_cpu_ms: limitCpu.postgres_cpu_ms };
}

/** CPU seconds a process's main thread (its event loop) has used so far. */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSeconds(pid, false, `/proc/${pid}/task/${pid}/stat`);
}

/** A server's CPU with its children's (the PDF renderers', the payroll's computers'), the exited ones included. */
export function serverTreeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, each) => {
    try {
      return sum + cpuSeconds(each, true);
    } catch {
      return sum;
    }
  }, 0);
}

export async function runLoadWithCpu(
  spec: LoadSpec,
  serverPid: number,
): Promise<LoadResult & { server_cpu_ms: number; main_thread_cpu_ms: number; postgres_cpu_ms: number }> {
  const [server, mainThread, postgres] = [serverTreeCpuSeconds(serverPid), mainThreadCpuSeconds(serverPid), postgresCpuSeconds()];
  const result = await runLoad(spec);
  const perRequest = (seconds: number) => round((seconds * 1000) / Math.max(1, result.requests), 2);
  return {
    ...result,
    server_cpu_ms: perRequest(serverTreeCpuSeconds(serverPid) - server),
    main_thread_cpu_ms: perRequest(mainThreadCpuSeconds(serverPid) - mainThread),
    postgres_cpu_ms: perRequest(postgresCpuSeconds() - postgres),
  };
}

/**
 * The main thread's heap after a full collection, in MB, from a server started with
 * `heapProbe(file)` (bench/heap-probe.mjs): flat across a run means no leak, whatever the RSS.
 */
export async function heapAfterFullGcMb(server: Server, file: string): Promise<number> {
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  process.kill(server.pid, 'SIGWINCH');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.length > before) return Number(lines.at(-1)) / 1e6;
    if (Date.now() > deadline) throw new Error('the heap probe did not answer');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What `startService` takes to load the heap probe, writing to `file`. */
export function heapProbe(file: string) {
  return { nodeFlags: ['--import', path.join(ROOT, 'bench/heap-probe.mjs')], env: { HEAP_PROBE_FILE: file } };
}
