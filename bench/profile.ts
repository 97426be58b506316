/**
 * Summarises a `.cpuprofile` written by `node --cpu-prof` (e.g. `npm run bench -- --profile`):
 * self time by function and by package/file, inclusive time of the service's own functions, and
 * the main thread's longest busy stretches (samples in a row that are not idle: how long the
 * event loop was held, and by what).
 *
 * Usage: node --import tsx bench/profile.ts <file.cpuprofile> [top=25]
 */
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node --import tsx bench/profile.ts <file.cpuprofile> [top]\n');
  process.exit(1);
}
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function where(url: string): string {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = clean.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (clean.startsWith('node:')) return clean;
  return path.relative(process.cwd(), clean);
}

// The service's own code: src/ under tsx, dist/ compiled (the bench's server).
const isService = (url: string) => !url.includes('node_modules') && (url.includes('/src/') || url.includes('/dist/'));
const nameOf = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const print = (title: string, entries: Array<[string, number]>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, us] of entries.sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${name}\n`);
};

const fnSelf = new Map<string, number>();
const pkgSelf = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const name = nameOf(n);
  fnSelf.set(name, (fnSelf.get(name) ?? 0) + us);
  const pkg = where(n.callFrame.url);
  pkgSelf.set(pkg, (pkgSelf.get(pkg) ?? 0) + us);
}

// Inclusive time of functions in src/ (each sample counted once per function on its stack).
const srcIncl = new Map<string, number>();
/** The service's functions on a sample's stack, each once (recursion counted once). */
function serviceFramesOf(id: number): Set<string> {
  const names = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    if (isService(n.callFrame.url)) names.add(nameOf(n));
  }
  return names;
}
const addTo = (counts: Map<string, number>, name: string, amount: number) => counts.set(name, (counts.get(name) ?? 0) + amount);
profile.samples.forEach((id, i) => {
  for (const name of serviceFramesOf(id)) addTo(srcIncl, name, profile.timeDeltas[i] ?? 0);
});

process.stdout.write(`${file}: ${(total / 1e6).toFixed(2)} s sampled\n`);
print('self time by package or file', [...pkgSelf]);
print('self time by function', [...fnSelf]);
print('inclusive time of the service’s functions (src/ or dist/)', [...srcIncl]);

// Busy stretches: consecutive samples that are not (idle). A sample lasts until the next one.
const idleId = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
interface Stretch {
  startUs: number;
  us: number;
  samples: number[];
}
const stretches: Stretch[] = [];
let clock = 0;
let current: Stretch | null = null;
profile.samples.forEach((id, i) => {
  clock += profile.timeDeltas[i] ?? 0;
  const lasts = profile.timeDeltas[i + 1] ?? 0;
  if (idleId.has(id)) {
    current = null;
    return;
  }
  if (!current) {
    current = { startUs: clock, us: 0, samples: [] };
    stretches.push(current);
  }
  current.us += lasts;
  current.samples.push(id);
});
const byLength = [...stretches].sort((a, b) => b.us - a.us);
const lengths = byLength.map((s) => s.us / 1000);
process.stdout.write(
  `\nbusy stretches of the thread: ${stretches.length}; over 2 ms ${lengths.filter((ms) => ms > 2).length}, over 5 ms ${lengths.filter((ms) => ms > 5).length}, over 10 ms ${lengths.filter((ms) => ms > 10).length}\n`,
);
for (const stretch of byLength.slice(0, Math.min(top, 12))) {
  // What held it: the service's frames (samples each was on the stack of) and the top of the stack.
  const frames = new Map<string, number>();
  const selfFrames = new Map<string, number>();
  for (const id of stretch.samples) {
    for (const name of serviceFramesOf(id)) addTo(frames, name, 1);
    addTo(selfFrames, nameOf(byId.get(id)!), 1);
  }
  const list = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, count]) => `${name} (${count})`)
      .join('; ');
  process.stdout.write(
    `${(stretch.us / 1000).toFixed(1).padStart(7)} ms at ${(stretch.startUs / 1e6).toFixed(2)} s, ${stretch.samples.length} samples\n    service: ${list(frames, 4) || '-'}\n    self: ${list(selfFrames, 4)}\n`,
  );
}
