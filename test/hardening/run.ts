/**
 * `npm run test:hardening`: runs every `*.hardening.ts` file with node's test runner, then
 * prints what was tried: cases, faults injected, inputs fuzzed, failures.
 * `npm run test:hardening -- einvoice sepa` runs only the files so named.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.hardening.ts') && (only.length === 0 || only.includes(f.slice(0, -'.hardening.ts'.length))))
  .sort()
  .map((f) => path.join(dir, f));
if (files.length === 0) {
  console.error(`no hardening file named ${only.join(', ')}`);
  process.exit(1);
}
const countsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hardening-')), 'counts.jsonl');
fs.writeFileSync(countsFile, '');

const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, HARDENING_COUNTS: countsFile },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
process.stdout.write(run.stdout ?? '');

const totals = { cases: 0, faults: 0, fuzzed: 0 };
for (const line of fs.readFileSync(countsFile, 'utf8').split('\n').filter(Boolean)) {
  const { kind, n } = JSON.parse(line) as { kind: keyof typeof totals; n: number };
  totals[kind] += n;
}
const failures = Number(/ℹ fail (\d+)/.exec(run.stdout ?? '')?.[1] ?? (run.status === 0 ? 0 : 1));
const passed = Number(/ℹ pass (\d+)/.exec(run.stdout ?? '')?.[1] ?? 0);
console.log(`hardening: ${totals.cases} cases tried, ${totals.faults} faults injected, ${totals.fuzzed} inputs fuzzed, ${failures} failures`);
console.log(`${passed} passed, ${failures} failed`);
process.exit(run.status === 0 && failures === 0 ? 0 : 1);
