import type { ImportGraph } from './import-graph';

// The layers of src/ and workers/, and which layers each may import (docs/architecture.md draws
// them). Imports go downward only; a layer not listed under `may` is one an import may not reach.
// tests/unit/arch/layers.test.ts holds every file of the tree to this table, and
// scripts/arch/counts.ts reports the number of imports that break it.

export type LayerName = 'ui' | 'workers' | 'cli' | 'app' | 'model-host' | 'db' | 'platform' | 'rpc' | 'core';

export interface Layer {
  name: LayerName;
  /** Path prefixes (repo-relative) of the layer's files. */
  paths: readonly string[];
  /** What it is, in a few words (the doc's layer list). */
  role: string;
  may: readonly LayerName[];
}

export const LAYERS: readonly Layer[] = [
  {
    name: 'ui',
    paths: ['src/ui/', 'src/main.ts', 'src/App.svelte'],
    role: 'pages, components, rune state; the app entry',
    may: ['app', 'model-host', 'rpc', 'db', 'core'],
  },
  { name: 'workers', paths: ['workers/'], role: 'thin hosts of one handler table each', may: ['app', 'model-host', 'platform', 'rpc', 'db', 'core'] },
  { name: 'cli', paths: ['src/cli/'], role: 'the toolmem command, the MCP and HTTP servers', may: ['app', 'model-host', 'core'] },
  { name: 'app', paths: ['src/app/'], role: 'the use cases by feature, and the handler tables the workers expose', may: ['platform', 'rpc', 'core'] },
  {
    name: 'model-host',
    paths: ['src/model-host/'],
    role: 'the models: the embedding host and the in-browser language models, their worker protocols and tables',
    may: ['rpc', 'core'],
  },
  { name: 'db', paths: ['src/db/'], role: 'Dexie schema, repositories, backup, quota, middlewares', may: ['core'] },
  { name: 'platform', paths: ['src/platform/'], role: 'browser facilities the use cases run on: Web Locks, Blob streaming', may: ['core'] },
  { name: 'rpc', paths: ['src/rpc/'], role: 'typed worker RPC: calls, progress, cancel, errors, ports', may: ['core'] },
  { name: 'core', paths: ['src/core/'], role: 'pure TypeScript domain; imports no other layer', may: [] },
];

/**
 * The only UI files that may import src/db: the storage adapter (tests/unit/arch/ui-storage.test.ts)
 * and the app entry, which opens the database and hands it to the adapter.
 */
export const UI_DB_IMPORTERS: readonly string[] = ['src/ui/storage.ts', 'src/main.ts', 'src/App.svelte'];

export function layerOf(file: string): Layer | undefined {
  return LAYERS.find((l) => l.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

export interface LayerViolation {
  from: string;
  to: string;
  /** `ui → db`, or `? → …` for a file that belongs to no layer. */
  rule: string;
}

/** Every import that leaves its layer for one the table does not allow, plus files in no layer. */
export function layerViolations(graph: ImportGraph): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const [from, targets] of graph.edges) {
    const a = layerOf(from);
    if (!a) {
      out.push({ from, to: '', rule: `${from} belongs to no layer` });
      continue;
    }
    for (const to of targets) {
      const b = layerOf(to);
      if (!b || b.name === a.name) continue;
      const allowed = a.may.includes(b.name) && !(a.name === 'ui' && b.name === 'db' && !UI_DB_IMPORTERS.includes(from));
      if (!allowed) out.push({ from, to, rule: `${a.name} → ${b.name}` });
    }
  }
  return out;
}

/** Imports from each layer into each other one: `ui → app` → count. */
export function layerEdges(graph: ImportGraph): Map<string, number> {
  const out = new Map<string, number>();
  for (const [from, targets] of graph.edges) {
    for (const to of targets) {
      const a = layerOf(from)?.name ?? '?';
      const b = layerOf(to)?.name ?? '?';
      if (a !== b) out.set(`${a} → ${b}`, (out.get(`${a} → ${b}`) ?? 0) + 1);
    }
  }
  return out;
}
