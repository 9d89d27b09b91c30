import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 33: inside a package, its feature folders (the first folder under `src/`) import one another one
 * way only, so a newcomer can read a feature and what it stands on without being sent back up: the
 * import graph between folders has no cycle. Files at the top of `src/` (the command handler, the
 * context, the composition of the service) are the package's floor and its composition, not features.
 * Production code only (tests may reach across to set up a scene). Imports are read with TypeScript's
 * pre-processor.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// `web` too: its composition (the route table, the providers, the query client) lives in `app/`, which
// nothing imports, so routing, auth and layout stand below the pages (they were one strongly connected
// group of twelve folders, issue 33). Not `contracts`, whose events and domain folders read each other
// (an event's data names a domain type, a domain rule folds events).
const PACKAGES = ['platform', 'command-api', 'query-api', 'projections', 'webhook-dispatcher', 'web'];

function* sources(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'dist-types') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** The feature folder of a file under `src` (its first folder), or null for a file at the top. */
const folderOf = (src: string, file: string): string | null => {
  const parts = relative(src, file).split(sep);
  return parts.length > 1 ? parts[0]! : null;
};

/** Edges between a package's feature folders: `from → to`, each with one import that makes it. */
export function folderGraph(src: string): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources(src)) {
    const from = folderOf(src, file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(src, resolve(dirname(file), fileName));
      if (!to || to === from || to.startsWith('..')) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${relative(ROOT, file)} → ${fileName}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Edges between a package's files (production code): `from → to`, each with the import that makes it. */
export function fileGraph(src: string): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources(src)) {
    const from = relative(ROOT, file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = relative(ROOT, resolve(dirname(file), fileName));
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${from} → ${fileName}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** A cycle of the graph as the imports that make it, or null when it has none. */
export function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    path.push(node);
    for (const [next, why] of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const loop = path.slice(path.indexOf(next));
        return loop.map((n, i) => {
          const to = loop[i + 1] ?? next;
          return `${n} → ${to} (${n === node ? why : graph.get(n)!.get(to)})`;
        });
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

describe('feature folders', () => {
  it('finds a cycle, naming the imports that make it', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a.ts → ../b/x.ts']])],
      ['b', new Map([['c', 'b.ts → ../c/y.ts']])],
      ['c', new Map([['a', 'c.ts → ../a/z.ts']])],
    ]);
    expect(findCycle(graph)).toEqual([
      'a → b (a.ts → ../b/x.ts)',
      'b → c (b.ts → ../c/y.ts)',
      'c → a (c.ts → ../a/z.ts)',
    ]);
    expect(findCycle(new Map([['a', new Map([['b', '']])]]))).toBeNull();
  });

  for (const pkg of PACKAGES) {
    it(`${pkg}: import one another one way only`, () => {
      expect(findCycle(folderGraph(join(ROOT, pkg, 'src')))).toBeNull();
    });
  }
});

// Every package, contracts and web included: no two files import each other, however indirectly (the
// event catalogue and the plan rules did, through the plan levels: plan-levels.ts stands apart now).
describe('files', () => {
  for (const pkg of [...PACKAGES, 'contracts', 'server', 'bench']) {
    it(`${pkg}: no files import one another in a loop`, () => {
      expect(findCycle(fileGraph(join(ROOT, pkg, 'src')))).toBeNull();
    });
  }
});
