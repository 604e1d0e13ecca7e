import { describe, expect, it } from 'vitest';
import { cycles, readGraph, resolveSpecifier, specifiersOf, ROOT, type ImportGraph } from '../../../scripts/arch/import-graph';

// Issue #29: no import cycles in src/ and workers/, type imports included. The reader is checked
// first on every import form it must see, so a clean tree means something.
const graph = readGraph();

function graphOf(edges: Record<string, string[]>): ImportGraph {
  const files = Object.keys(edges).sort();
  return { files, edges: new Map(files.map((f) => [f, edges[f] ?? []])) };
}

describe('the import reader', () => {
  it('sees static, type-only, re-export, dynamic and type-query imports, and no commented-out ones', () => {
    const code = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c.js';",
      "export type * from './d';",
      "const e = () => import('./e.svelte');",
      "type F = import('./f').F;",
      "// import { g } from './g';",
      "/* import('./h') */",
      'const s = "import x from \'./i\'";',
      "import Papa from 'papaparse';",
    ].join('\n');
    expect(specifiersOf(code).sort()).toEqual(['../b', './a', './c.js', './d', './e.svelte', './f', 'papaparse']);
  });

  it('reads the script blocks of a Svelte component, not its markup', () => {
    const svelte =
      "<script module lang=\"ts\">import { x } from './m';</script>\n<script lang=\"ts\">import Y from './Y.svelte';</script>\n<p>import z from './z'</p>";
    expect(specifiersOf(svelte, true).sort()).toEqual(['./Y.svelte', './m']);
  });

  it('resolves .js to .ts, folders to index.ts, .svelte files as they are, and skips packages', () => {
    const from = `${ROOT}/src/ui/pages.ts`;
    expect(resolveSpecifier(from, '../core/types.js')).toBe(`${ROOT}/src/core/types.ts`);
    expect(resolveSpecifier(from, '../db')).toBe(`${ROOT}/src/db/index.ts`);
    expect(resolveSpecifier(from, './pages/DataPage.svelte')).toBe(`${ROOT}/src/ui/pages/DataPage.svelte`);
    expect(resolveSpecifier(from, 'dexie')).toBeUndefined();
  });

  it('finds each cycle once, a self-import included, and nothing in a tree without one', () => {
    expect(cycles(graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['e'], f: ['d'] }))).toEqual([['a', 'b', 'c'], ['e']]);
    expect(cycles(graphOf({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('reads the whole tree: the app entry reaches the pages, workers and a type-only import are edges', () => {
    expect(graph.files.length).toBeGreaterThan(300);
    expect(graph.edges.get('src/ui/pages.ts')).toContain('src/ui/pages/DataPage.svelte');
    expect(graph.edges.get('workers/data.worker.ts')?.some((f) => f.startsWith('src/app/'))).toBe(true);
    expect(graph.edges.get('src/core/records.ts')).toContain('src/core/capability/types.ts');
  });
});

describe('import cycles', () => {
  it('there are none in src/ and workers/ (each cycle is listed by its files)', () => {
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the ground floor, src/core/types.ts, imports nothing', () => {
    expect(graph.edges.get('src/core/types.ts')).toEqual([]);
  });
});
