/**
 * One load measurement, run as its own process so that the load generator never shares an
 * event loop with the orchestrator: autocannon's programmatic API (which can make a body per
 * request), and one JSON line of results on stdout.
 *
 * Usage: node --import tsx bench/load.ts '<LoadSpec as JSON>'
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  connections: number;
  durationSeconds: number;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Stop after this many requests instead of after `durationSeconds`. */
  amount?: number;
  /** Requests per second over all connections (a steady rate, for latencies), instead of as fast as possible. */
  overallRate?: number;
  /**
   * GET paths taken in turn (request n asks for `paths[n mod length]`), on the host of `url`.
   */
  paths?: string[];
  /**
   * How POST bodies are made:
   * - `role-change`: request n targets the account `<prefix>-<k>@<domain>` with
   *   k = first + n mod count, and alternates between `roles` at each pass over the accounts;
   * - `invite`: request n invites `<prefix>-<n>@<domain>`, a new e-mail each time;
   * - `cycle`: request n sends `bodies[n mod length]` (JSON texts).
   */
  body?:
    | { kind: 'role-change'; prefix: string; domain: string; first: number; count: number; roles: [string, string] }
    | { kind: 'invite'; prefix: string; domain: string }
    | { kind: 'cycle'; bodies: string[] };
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  bytes: number;
}

function bodyMaker(spec: LoadSpec): (() => string) | null {
  const body = spec.body;
  if (!body) return null;
  let n = 0;
  if (body.kind === 'cycle') return () => body.bodies[n++ % body.bodies.length]!;
  if (body.kind === 'invite') {
    return () => JSON.stringify({ email: `${body.prefix}-${n++}@${body.domain}`, role: 'AGENT', first_name: 'Invitée' });
  }
  return () => {
    const k = n % body.count;
    const role = body.roles[Math.floor(n / body.count) % 2]!;
    n++;
    return JSON.stringify({ email: `${body.prefix}-${body.first + k}@${body.domain}`, role });
  };
}

async function main(spec: LoadSpec): Promise<LoadResult> {
  const makeBody = bodyMaker(spec);
  const headers = { ...spec.headers, ...(makeBody ? { 'content-type': 'application/json' } : {}) };
  let nextPath = 0;
  const paths = spec.paths;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSeconds }),
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    // A 10,000-member list takes seconds under 32 connections: only a stuck request times out.
    timeout: 60,
    method: spec.method,
    headers,
    ...(makeBody ? { requests: [{ method: spec.method, setupRequest: (request: Record<string, unknown>) => ({ ...request, body: makeBody() }) }] } : {}),
    ...(paths
      ? { requests: [{ method: spec.method, setupRequest: (request: Record<string, unknown>) => ({ ...request, path: paths[nextPath++ % paths.length] }) }] }
      : {}),
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = (stat as { count: number }).count;
  const requests = result.requests.total;
  return {
    requests,
    rps: requests / result.duration,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_codes: statusCodes,
    bytes: result.throughput.total,
  };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const result = await main(spec);
process.stdout.write(`${JSON.stringify(result)}\n`);
