/**
 * The machine's own floor for the two p99 targets (GET p99 under PDFs, during the
 * payroll run: within 2× the idle p99), measured with no code of the service: a bare `node:http`
 * server answering `{}`, under the same steady load (100 req/s, 2 connections, 10-s windows),
 * alone and beside processes that only compute at idle priority (`chrt --idle`, as the payroll's
 * computing processes run; `nice -n 19` where `chrt` is missing):
 *
 * - `spin`: two processes in an empty loop (CPU only);
 * - `alloc`: two processes that allocate and drop objects as a payslip's evaluation does (tens
 *   of MB a second, a few survivors), with the computing processes' heap flags;
 * - `alloc1`: one such process, a core left free.
 *
 * The conditions are interleaved, round after round, so that a host that changes speed during
 * the scenario weighs on each alike. `ratio` is the idle p99 over the p99 beside the processes
 * (medians of the rounds), the same quotient as the two targets: below 0.5, no server on this
 * machine at that moment could hold them while anything computes beside it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { LoadResult } from './load.ts';
import { onPath } from './preflight.ts';
import { checkLoad, children, fmtLoad, freePort, log, median, quick, results, round, runLoad } from './harness.ts';

const WINDOW_SECONDS = quick ? 1 : 10;
const ROUNDS = quick ? 1 : 3;

const BARE_SERVER = `
  const http = require('node:http');
  http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{}'); })
    .listen(Number(process.argv[1]), '127.0.0.1', () => process.stdout.write('ready\\n'));
`;
const SPIN = 'for (;;) {}';
// Arrays of small objects that die young, one in eight kept a while (promoted, then dropped).
const ALLOC = `
  const kept = new Array(16);
  for (let n = 0; ; n++) {
    const batch = [];
    for (let i = 0; i < 20000; i++) batch.push({ i, text: 'ligne ' + i, rate: i / 7 });
    if (n % 8 === 0) kept[(n / 8) % 16] = batch;
  }
`;
const HEAP_FLAGS = ['--max-semi-space-size=64', '--max-old-space-size=512'];

type Condition = 'idle' | 'spin' | 'alloc' | 'alloc1';

function lowPriority(args: string[]): ChildProcess {
  const [command, prefix] = onPath('chrt') ? ['chrt', ['--idle', '0']] : ['nice', ['-n', '19']];
  const child = spawn(command, [...prefix, process.execPath, ...args], { stdio: 'ignore' });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function backgroundOf(condition: Condition): ChildProcess[] {
  if (condition === 'spin') return [0, 1].map(() => lowPriority(['-e', SPIN]));
  if (condition === 'alloc') return [0, 1].map(() => lowPriority([...HEAP_FLAGS, '-e', ALLOC]));
  if (condition === 'alloc1') return [lowPriority([...HEAP_FLAGS, '-e', ALLOC])];
  return [];
}

async function startBareServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, child };
}

export async function floorScenario(): Promise<void> {
  const how = onPath('chrt') ? 'chrt --idle' : 'nice -n 19';
  log(`\n== The machine's floor: a bare node:http server, 100 req/s, alone and beside idle-priority processes (${how}) ==`);
  const server = await startBareServer();
  const windows: Record<Condition, LoadResult[]> = { idle: [], spin: [], alloc: [], alloc1: [] };
  try {
    const spec = { url: server.url, connections: 2, overallRate: 100, durationSeconds: WINDOW_SECONDS, method: 'GET' as const, headers: {} };
    await runLoad({ ...spec, durationSeconds: quick ? 1 : 3 });
    for (let r = 0; r < ROUNDS; r++) {
      for (const condition of ['idle', 'spin', 'alloc', 'alloc1'] as const) {
        const background = backgroundOf(condition);
        try {
          // The processes' start-up (a node process is ~50 ms of CPU) stays out of the window.
          if (background.length) await new Promise((resolve) => setTimeout(resolve, 1000));
          const result = await runLoad(spec);
          checkLoad(`bare server, ${condition}, round ${r + 1}`, result);
          log(`  bare server, ${condition.padEnd(6)} round ${r + 1}: ${fmtLoad(result)}`);
          windows[condition].push(result);
        } finally {
          for (const child of background) child.kill('SIGKILL');
        }
      }
    }
  } finally {
    server.child.kill('SIGKILL');
  }
  const idleP99 = median(windows.idle.map((w) => w.p99_ms));
  for (const condition of ['spin', 'alloc', 'alloc1'] as const) {
    const p99 = median(windows[condition].map((w) => w.p99_ms));
    const beside = { spin: 'two processes that spin', alloc: 'two processes that allocate', alloc1: 'one process that allocates' }[condition];
    results.push({
      scenario: `the machine's floor: GET of a bare node:http server (no service code), p99 beside ${beside} at idle priority (steady 100 req/s)`,
      rps: round(median(windows[condition].map((w) => w.rps)), 1),
      p50_ms: median(windows[condition].map((w) => w.p50_ms)),
      p99_ms: p99,
      limit_rps: null,
      // The quotient of the two p99 targets (≥ 0.5 there); no target here: it is the machine's.
      ratio: round(idleP99 / p99, 2),
      idle_p99_ms: idleP99,
      p99_runs_ms: windows[condition].map((w) => w.p99_ms),
      idle_p99_runs_ms: windows.idle.map((w) => w.p99_ms),
      priority: how,
      window_seconds: WINDOW_SECONDS,
      connections: 2,
    });
  }
}
