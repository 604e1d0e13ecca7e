import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { readGraph, type ImportGraph } from '../../../scripts/arch/import-graph';
import { layerEdges, layerOf, layerViolations } from '../../../scripts/arch/layers';

// The layer rule is part of the product's architecture: prove it rejects what it must.
const eslint = new ESLint();

async function errorsFor(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('src/core import boundary', () => {
  it.each([
    ["import Dexie from 'dexie';", /storage belongs in src\/db/],
    ["import { mount } from 'svelte';", /UI belongs in src\/ui/],
    ["import { pipeline } from '@huggingface/transformers';", /models are hosted by workers/],
    ["import { Chart } from 'chart.js';", /charts belong in src\/ui/],
    ["import { ToolMemDB } from '../db/schema';", /may not import the layers above/],
    ["import X from '../ui/App.svelte';", /may not import the layers above/],
    ["import { readFile } from 'node:fs';", /no Node built-ins/],
  ])('rejects %s', async (code, message) => {
    const errors = await errorsFor(`${code}\nexport const x = 1;\n`, 'src/core/example.ts');
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(message);
  });

  it('allows core-internal and pure library imports', async () => {
    const errors = await errorsFor(
      "import { LEVELS } from './types';\nimport Papa from 'papaparse';\nexport const x = [LEVELS, Papa];\n",
      'src/core/example.ts',
    );
    expect(errors).toEqual([]);
  });

  it('allows the db layer to import dexie but not the UI', async () => {
    expect(await errorsFor("import Dexie from 'dexie';\nexport const x = Dexie;\n", 'src/db/example.ts')).toEqual([]);
    expect(await errorsFor("import X from '../ui/App.svelte';\nexport const x = X;\n", 'src/db/example.ts')).toHaveLength(1);
  });
});

// Every layer, not only core and db: the table in scripts/arch/layers.ts says what each may import,
// and every file of src/ and workers/ is held to it through the import graph (type imports too).
describe('layers of src/ and workers/', () => {
  const graph = readGraph();

  it('every file belongs to a layer', () => {
    expect(graph.files.filter((f) => !layerOf(f))).toEqual([]);
  });

  it('no import reaches a layer its own may not import', () => {
    expect(layerViolations(graph).map((v) => `${v.rule}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('the rule catches an upward import, a UI file reaching storage, and a file outside every layer', () => {
    const fake: ImportGraph = {
      files: ['src/model-host/a.ts', 'src/app/b.ts', 'src/ui/c.ts', 'src/db/d.ts', 'src/ui/storage.ts', 'src/elsewhere/e.ts'],
      edges: new Map([
        ['src/model-host/a.ts', ['src/app/b.ts']],
        ['src/app/b.ts', ['src/model-host/a.ts']],
        ['src/ui/c.ts', ['src/db/d.ts']],
        ['src/ui/storage.ts', ['src/db/d.ts']],
        ['src/db/d.ts', []],
        ['src/elsewhere/e.ts', []],
      ]),
    };
    expect(layerViolations(fake).map((v) => v.rule)).toEqual(['model-host → app', 'app → model-host', 'ui → db', 'src/elsewhere/e.ts belongs to no layer']);
  });

  it('the model hosts are imported by the workers, the CLI and the UI, and import only rpc and core', () => {
    const edges = layerEdges(graph);
    expect(edges.get('workers → model-host')).toBeGreaterThan(0);
    expect(edges.get('cli → model-host')).toBeGreaterThan(0);
    expect(edges.get('ui → model-host')).toBeGreaterThan(0);
    expect([...edges.keys()].filter((k) => k.startsWith('model-host →')).sort()).toEqual(['model-host → core', 'model-host → rpc']);
  });

  it('the use cases are imported by every host — the workers, the CLI and the UI — and import no host', () => {
    const edges = layerEdges(graph);
    for (const host of ['workers', 'cli', 'ui']) expect(edges.get(`${host} → app`), host).toBeGreaterThan(0);
    expect([...edges.keys()].filter((k) => k.startsWith('app →')).sort()).toEqual(['app → core', 'app → platform', 'app → rpc']);
  });
});
