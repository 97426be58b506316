/**
 * Counters of the hardening suite (cases tried, faults injected, inputs fuzzed), appended
 * by each file to the file named by HARDENING_COUNTS, summed by `run.ts` at the end.
 */
import fs from 'node:fs';

export type CountKind = 'cases' | 'faults' | 'fuzzed';

export function count(kind: CountKind, n = 1): void {
  const file = process.env.HARDENING_COUNTS;
  if (file) fs.appendFileSync(file, `${JSON.stringify({ kind, n })}\n`);
}
