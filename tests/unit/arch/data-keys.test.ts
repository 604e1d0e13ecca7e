/**
 * Keys from data never index a plain object (issue #14 class 1). The ESLint selectors in
 * eslint.config.js (DATA_KEY_SELECTORS) reject the patterns that built plain-object dictionaries;
 * this proves they fire on the old code's shapes, stay quiet on the replacements, cover every
 * layer, and that src/core/data-keys.ts does what the replacements rely on.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { dict, dictFrom, mapOf, own } from '../../../src/core/data-keys';

const eslint = new ESLint();
const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

async function dataKeyErrors(code: string, filePath = 'src/core/example.ts'): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax' && /issue #14/.test(m.message)).length;
}

describe('the data-keys lint rule', () => {
  it.each([
    // The exact line that lost 6 of 11 tools (src/core/import/pipeline.ts before the fix).
    ['const tools: Record<string, { accepted: number }> = {};\nexport const tally = (tool: string) => (tools[tool] ??= { accepted: 0 });', 2],
    // The Tools page's grouping that crashed with `e[n.toolId].push is not a function`.
    [
      'export function group(ids: string[]) {\n  const byTool = {} as Record<string, string[]>;\n  for (const id of ids) (byTool[id] ||= []).push(id);\n  return byTool;\n}',
      2,
    ],
    ['export const counts: Record<string, number> = {};', 1],
    ['declare function state<T>(v: T): T;\nexport const stats = state<Record<string, number>>({});', 1],
  ])('rejects %s', async (code, errors) => {
    expect(await dataKeyErrors(`${code}\n`)).toBe(errors);
  });

  it('allows Maps, null-prototype dictionaries and literal keys', async () => {
    const code = [
      "import { dict, own } from './data-keys';",
      'const tools = new Map<string, { accepted: number }>();',
      'export const tally = (tool: string) => { let t = tools.get(tool); if (!t) tools.set(tool, (t = { accepted: 0 })); return t; };',
      'export const out = dict<number>();',
      'export const read = (k: string) => own(out, k);',
      "const cfg: { a?: number } = {};\ncfg['a'] ??= 1;",
      'export const options: Record<string, number> = { a: 1 };',
      '',
    ].join('\n');
    expect(await dataKeyErrors(code)).toBe(0);
  });

  it.each([
    'src/core/import/pipeline.ts',
    'src/app/import/handlers.ts',
    'src/db/dataset-counts.ts',
    'src/ui/pages/ToolsPage.svelte',
    'src/ui/tool-cards.ts',
    'src/cli/format-import.ts',
    'workers/data.worker.ts',
  ])('applies to %s', async (file) => {
    const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown[]> };
    const selectors = (config.rules?.['no-restricted-syntax'] ?? []).slice(1) as { selector: string }[];
    expect(selectors.some((s) => s.selector.includes('operator=/^(\\?\\?|\\|\\|)=$/'))).toBe(true);
  });

  it('the converted files pass it', async () => {
    const files = [
      'src/core/import/pipeline.ts',
      'src/core/eval/evaluate.ts',
      'src/core/eval/report.ts',
      'src/core/memory/job.ts',
      'src/app/evaluate/evaluate.ts',
      'src/db/backup.ts',
      'src/ui/tool-cards.ts',
    ];
    const results = await eslint.lintFiles(files);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`))).toEqual([]);
  });
});

describe('src/core/data-keys.ts', () => {
  it('dict/dictFrom keep every hostile key as an own property, in JSON too', () => {
    const d = dictFrom(HOSTILE.map((k, i) => [k, i]));
    expect(Object.getPrototypeOf(d)).toBeNull();
    expect(Object.keys(d)).toEqual(HOSTILE);
    expect(Object.keys(JSON.parse(JSON.stringify(d)) as object)).toEqual(HOSTILE);
    const e = dict<number>();
    e['__proto__'] = 1;
    expect(Object.keys(e)).toEqual(['__proto__']);
  });

  it('own reads only own properties, whatever the prototype (plain, null, parsed, cloned)', () => {
    const parsed = JSON.parse('{"__proto__": 7, "x": 1}') as Record<string, number>;
    for (const k of HOSTILE) expect(own({}, k), k).toBeUndefined();
    expect(own(parsed, '__proto__')).toBe(7);
    expect(own(structuredClone(parsed), '__proto__')).toBe(7);
    expect(own(undefined, 'x')).toBeUndefined();
    expect([...mapOf(parsed)]).toEqual([
      ['__proto__', 7],
      ['x', 1],
    ]);
  });
});
