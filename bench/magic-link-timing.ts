/**
 * Account discovery by timing: times `POST /auth/magic-link` for existing accounts
 * and for unknown addresses, alternated, each request from its own client and to its own
 * address (no limit is reached), in-process on PGlite (or on PostgreSQL with
 * `TIMING_DATABASE_URL`, an empty database it migrates). Prints the medians and how many
 * trials one threshold tells apart (half of them: chance).
 *
 *   node --import tsx bench/magic-link-timing.ts [repo root = .] [trials = 200]
 *
 * The root lets the same script time another checkout (e.g. a worktree of an older commit).
 */
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const trials = Number(process.argv[3] ?? 200);
const { default: Fastify } = await import(`${root}/node_modules/fastify/fastify.js`);
const appMod = await import(`${root}/src/app.ts`);
const { loadConfig } = await import(`${root}/src/config.ts`);
const { openDatabase } = await import(`${root}/src/db/database.ts`);
const { migrateToLatest } = await import(`${root}/src/db/migrate.ts`);
const { ensureAccount } = await import(`${root}/src/identity/identity.service.ts`);
const url = process.env.TIMING_DATABASE_URL ?? null;
const database = await openDatabase({ databaseUrl: url, pgliteDir: 'memory://' });
await migrateToLatest(database.db);
if (url) await database.db.deleteFrom('auth.users' as never).execute();
const config = loadConfig({ DATA_DIR: path.join(root, 'data'), PUBLIC_URL: 'https://paie.example.com' });
const app = Fastify({ ...appMod.appOptions(), logger: false });
await app.register(appMod.default, { config, database, mailWorker: false });
await app.ready();
for (let i = 0; i < trials + 20; i++) await ensureAccount(database.db, `known${i}@example.com`, {});
const times: Record<string, number[]> = { known: [], unknown: [] };
for (let i = 0; i < trials + 20; i++) {
  for (const kind of i % 2 ? ['known', 'unknown'] : ['unknown', 'known']) {
    const start = process.hrtime.bigint();
    const res = await app.inject({
      method: 'POST',
      url: '/auth/magic-link',
      remoteAddress: `10.${(i >> 8) & 255}.${i & 255}.${kind === 'known' ? 1 : 2}`,
      payload: { email: `${kind}${i}@example.com` },
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.statusCode !== 200) throw new Error(res.body);
    // Work left after the answer (if the checkout defers any) ends before the next trial.
    await (app as { afterAnswer?: { settled(): Promise<void> } }).afterAnswer?.settled();
    await new Promise((r) => setTimeout(r, 2));
    if (i >= 20) times[kind]!.push(ms); // the first 20 warm up
  }
}
const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return (s[s.length >> 1]! + s[(s.length - 1) >> 1]!) / 2;
};
const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!;
// How often one threshold (the midpoint of the medians) tells the two apart, trial by trial.
const threshold = (median(times.known!) + median(times.unknown!)) / 2;
const right = times.known!.filter((t) => t > threshold).length + times.unknown!.filter((t) => t <= threshold).length;
console.log(
  JSON.stringify({
    db: url ? 'postgres' : 'pglite',
    trials,
    known: { median: median(times.known!).toFixed(3), p10: q(times.known!, 0.1).toFixed(3), p90: q(times.known!, 0.9).toFixed(3) },
    unknown: { median: median(times.unknown!).toFixed(3), p10: q(times.unknown!, 0.1).toFixed(3), p90: q(times.unknown!, 0.9).toFixed(3) },
    classified: `${right}/${2 * trials} by the threshold ${threshold.toFixed(3)} ms`,
  }),
);
await app.close();
await database.close();
