import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

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
    const errors = await errorsFor("import { LEVELS } from './types';\nimport Papa from 'papaparse';\nexport const x = [LEVELS, Papa];\n", 'src/core/example.ts');
    expect(errors).toEqual([]);
  });

  it('allows the db layer to import dexie but not the UI', async () => {
    expect(await errorsFor("import Dexie from 'dexie';\nexport const x = Dexie;\n", 'src/db/example.ts')).toEqual([]);
    expect(await errorsFor("import X from '../ui/App.svelte';\nexport const x = X;\n", 'src/db/example.ts')).toHaveLength(1);
  });
});
