/**
 * The import graph of `src/`, read from the sources, against docs/architecture.md: no circle,
 * no import running up the layers, and no module reaching into a sibling's rules or repository.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.join(import.meta.dirname, '..', 'src');

/** Bottom first; a folder imports only from its own layer's folder and the layers below. */
const LAYERS: string[][] = [
  // The text rule: the request checks and the operator's settings rules apply it.
  ['text.rules.ts'],
  // The operator's settings rules: the configuration (their defaults) and operator/ (the saved values) both use them.
  ['operator.rules.ts'],
  ['config.ts'],
  ['db'],
  ['http'],
  ['money'],
  ['workers'],
  ['format'],
  ['schemas'],
  ['mail'],
  ['jobs'],
  ['identity'],
  ['audit'],
  ['org'],
  ['files', 'pdf'],
  ['access', 'staff', 'contracts', 'employees', 'invoices', 'contributions', 'payslips', 'transfers', 'operator'],
  ['payroll'],
  ['pages', 'cli'],
  ['app.ts'],
  ['server.ts'],
];

/** Upward imports that docs/architecture.md explains: type-only, no code runs up. */
const EXPLAINED_UPWARD = new Set([
  // The row type of organization_members.role is the role list permissions.ts names.
  'src/db/schema.ts -> src/org/permissions.ts',
]);

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function importEdges(): Edge[] {
  const pattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  return sourceFiles(SRC).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return [...text.matchAll(pattern)].map((match) => ({
      from: relative(file),
      to: relative(path.resolve(path.dirname(file), match[2] ?? match[3]!)),
      typeOnly: Boolean(match[1]),
    }));
  });
}

const relative = (file: string) => path.relative(path.join(SRC, '..'), file).split(path.sep).join('/');
const folderOf = (file: string) => file.split('/')[1]!;
const layerOf = (file: string) => LAYERS.findIndex((folders) => folders.includes(folderOf(file)));

/** The circles of the graph, each as the files around it (Tarjan's strongly connected components). */
function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph of src/', () => {
  const edges = importEdges();

  it('should read the imports of every layer (the reader itself works)', () => {
    assert.ok(edges.length > 300, `only ${edges.length} imports read`);
    assert.ok(edges.some((e) => e.from === 'src/app.ts' && e.to === 'src/access/access.routes.ts'));
    for (const file of new Set(edges.flatMap((e) => [e.from, e.to]))) {
      assert.notEqual(layerOf(file), -1, `${file}: its folder is in no layer of this test`);
    }
  });

  it('should have no circle', () => {
    assert.deepEqual(circles(edges), []);
  });

  it('should have no circle between folders either (two modules never depend on each other)', () => {
    const between = edges
      .filter((e) => folderOf(e.from) !== folderOf(e.to) && !EXPLAINED_UPWARD.has(`${e.from} -> ${e.to}`))
      .map((e) => ({ ...e, from: folderOf(e.from), to: folderOf(e.to) }));
    assert.deepEqual(circles(between), []);
  });

  it('should import nothing from a layer above, but the type imports docs/architecture.md explains', () => {
    const upward = edges
      .filter((e) => layerOf(e.to) > layerOf(e.from))
      .map((e) => `${e.from} -> ${e.to}`)
      .filter((edge) => !EXPLAINED_UPWARD.has(edge));
    assert.deepEqual(upward, []);
    for (const edge of EXPLAINED_UPWARD) {
      assert.ok(
        edges.some((e) => `${e.from} -> ${e.to}` === edge && e.typeOnly),
        `${edge} must stay type-only`,
      );
    }
  });

  it('should reach a sibling module only through its service, its error catalogue or its words', () => {
    const reaching = edges
      .filter((e) => layerOf(e.to) === layerOf(e.from) && folderOf(e.to) !== folderOf(e.from))
      .filter((e) => !/\.(service|errors|labels)\.ts$/.test(e.to))
      .map((e) => `${e.from} -> ${e.to}`);
    assert.deepEqual(reaching, []);
  });
});
