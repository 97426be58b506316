/**
 * The limit of a signed-file download (`GET /files/:id?exp=&sig=`): the same bytes read from the
 * database in a loop, `concurrency` reads at a time over a pool of as many connections
 * (`select content from files where id = $1` through `pg`), for `seconds`.
 *
 * Usage: node --import tsx bench/files-loop.ts '{"databaseUrl":…,"fileId":…,"seconds":6,"concurrency":8}'
 * Prints one JSON line: `{ reads, seconds, bytes, mb_per_s }`.
 */
import pg from 'pg';

const input = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; fileId: string; seconds: number; concurrency: number };
const pool = new pg.Pool({ connectionString: input.databaseUrl, max: input.concurrency });
const read = async () => {
  const { rows } = await pool.query<{ content: Buffer }>('select content from public.files where id = $1', [input.fileId]);
  return rows[0]!.content.length;
};
await Promise.all(Array.from({ length: input.concurrency }, read));
let reads = 0;
let bytes = 0;
const started = performance.now();
const deadline = started + input.seconds * 1000;
await Promise.all(
  Array.from({ length: input.concurrency }, async () => {
    while (performance.now() < deadline) {
      // Not `bytes += await read()`: that reads `bytes` before the await, and the loops running
      // meanwhile would lose their additions.
      const length = await read();
      bytes += length;
      reads++;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await pool.end();
process.stdout.write(`${JSON.stringify({ reads, seconds, bytes, mb_per_s: bytes / 1e6 / seconds })}\n`);
