/**
 * `npm test` runs the test files in a few long-lived processes, the shards, rather than one
 * process per file: starting a process (tsx, the app's modules, the migrated database, the
 * payroll engine) cost about two seconds a file. Each file stays a standalone node:test file
 * (`node --import tsx --test test/cli/cli.test.ts` runs it alone); here it is imported inside a
 * suite named by its path, so that its top-level hooks stay its own.
 *
 * The shards are the `*.test.ts` files of this folder, all alike: each runs its share of the
 * files, dealt by their weights (`weights.ts`), the heaviest share in the first shard.
 */
import { describe } from 'node:test';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WEIGHTS, DEFAULT_WEIGHT } from './weights.ts';
// Imported here, outside the files' suites, so that its hooks (the idle databases closed, the
// computing and rendering processes stopped) are the process's, run once the shard is done.
import '../helper.ts';

const shardsDir = path.dirname(fileURLToPath(import.meta.url));
const testDir = path.dirname(shardsDir);
const repoRoot = path.dirname(testDir);

/** Every test file but the shards, as paths from the repository's root, sorted. */
export function testFiles(): string[] {
  return readdirSync(testDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts') && !name.startsWith(`shards${path.sep}`))
    .map((name) => path.join('test', name).split(path.sep).join('/'))
    .sort();
}

/** The shard files of this folder, sorted. */
export function shardFiles(): string[] {
  return readdirSync(shardsDir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
}

/**
 * Deals the files into `count` shares, heaviest file first to the lightest share (longest
 * processing time first); the shares come back heaviest first, each in path order.
 */
export function deal(files: readonly string[], count: number, weight: (file: string) => number): string[][] {
  const shares = Array.from({ length: count }, () => ({ files: [] as string[], total: 0 }));
  const byWeight = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  for (const file of byWeight) {
    const lightest = shares.reduce((min, share) => (share.total < min.total ? share : min));
    lightest.files.push(file);
    lightest.total += weight(file);
  }
  return shares.sort((a, b) => b.total - a.total).map((share) => share.files.sort());
}

export const weightOf = (file: string): number => WEIGHTS[file] ?? DEFAULT_WEIGHT;

/** Registers, in the calling shard, one suite per file of its share. */
export function runShard(shardUrl: string): void {
  const shards = shardFiles();
  const index = shards.indexOf(path.basename(fileURLToPath(shardUrl)));
  if (index < 0) throw new Error(`${shardUrl} is not a shard of ${shardsDir}`);
  const share = deal(testFiles(), shards.length, weightOf)[index]!;
  for (const file of share) {
    describe(file, async () => {
      await import(pathToFileURL(path.join(repoRoot, file)).href);
    });
  }
}
