/**
 * Memory files that parse but cannot work (issue #14 class 4) and data-keyed ids (`__proto__`,
 * `constructor`). Each corpus file (tests/fixtures/bad-inputs/README.md, "Memory files and MCP")
 * is checked three ways with the same expected problems: the format's parser, the CLI/MCP loader
 * (`toolmem mcp --memory FILE` exits 2 listing every problem with its JSON path) and the app's
 * memory import service (every table unchanged, new and merge).
 */
import { dropDbs } from '../helpers/db';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { ParseError } from '../../../src/core/errors';
import { assertTextFile } from '../../../src/core/import/sniff';
import { formatIssues, MemoryFilePredictor, parseMemoryFile, readMemoryFile, serializeMemoryFile, type MemoryFile } from '../../../src/core/memory-format';
import type { ToolMemDB } from '../../../src/db';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { memoryApps } from '../helpers/memory-app';
import { mcpServers } from '../mcp/helpers';

const REPO = resolve(import.meta.dirname, '../../..');
const BAD = resolve(REPO, 'tests/fixtures/bad-inputs');
const fixture = (name: string) => readFileSync(join(BAD, name), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'toolmem-bad-memory-'));
const embedder = createTransformersEmbedder();
const FLOAT_MSG = 'does not fit a float32 (at most ±3.4e38): vectors are float32 values';
const INF = (sign: string) => `number too large: it overflows to ${sign}Infinity (numbers in a memory file must be finite, within ±1.8e308)`;

/** The sniff's own message for a file's text (owned by src/core/import/sniff.ts). */
function sniffMessage(text: string): string {
  try {
    assertTextFile(text.slice(0, 4096), 'memory file');
  } catch (err) {
    if (err instanceof ParseError) return err.message;
  }
  throw new Error('the sniff accepted the file');
}

type Expected = { path: string; message: string | RegExp }[];

/** Problems found by the parser itself (so by the CLI and the app too). */
const PARSE_CASES: [string, Expected][] = [
  [
    'memory-inverted-scale.json',
    [
      {
        path: '$.build.scale',
        message:
          'min 5 is not below max 1: every prediction would be clamped to one value. Write the lowest score as min and the highest as max (for a scale where lower is better, keep min < max and set direction "lower-better").',
      },
    ],
  ],
  [
    'memory-infinity.json',
    [
      { path: '$.build.settings.limit', message: INF('-') },
      { path: '$.build.calibration.ToolA.mean', message: INF('') },
    ],
  ],
  [
    'memory-nan.json',
    [
      {
        path: '$',
        message:
          "Invalid JSON (line 48, column 18): NaN is not a JSON number (writers such as Python's json.dump emit it for a float that is not finite); every number in a memory file must be finite.",
      },
    ],
  ],
  [
    'memory-huge-numbers.json',
    [
      { path: '$.embeddings.vectors.a1[1]', message: `1e+39 ${FLOAT_MSG}` },
      { path: '$.embeddings.vectors.b1[2]', message: `-3.5e+38 ${FLOAT_MSG}` },
    ],
  ],
  ['memory-huge-int.json', [{ path: '$.memory.createdAt', message: 'number 1e+300: Too big: expected int to be <=9007199254740991' }]],
  [
    'memory-utf16.json',
    [
      {
        path: '$',
        message:
          'The file is UTF-16 encoded (every other byte is 0), but imports must be UTF-8. Save it as UTF-8 (Excel: "CSV UTF-8"; other editors: Save As → Encoding UTF-8) and import it again.',
      },
    ],
  ],
  ['memory-utf32.json', [{ path: '$', message: /^The file is UTF-(32|16) encoded/ }]],
  [
    'memory-deep-nesting.json',
    [{ path: `$.build.settings.deep${'[0]'.repeat(61)}`, message: 'nested more than 64 levels deep (arrays/objects); a memory file nests at most 64' }],
  ],
  [
    'memory-many-problems.json',
    [
      ...Array.from({ length: 50 }, (_, i) => ({
        path: `$.tools[1].entries[${i}].level`,
        message: 'string "excellent" is not one of "proficient", "good", "bad", "weak"',
      })),
      { path: '$', message: '… and 70 more problems (the first 50 are listed)' },
    ],
  ],
];

/** Problems only visible against the embedding model (glove-100d makes 100-number vectors). */
const MODEL_CASES: [string, Expected][] = [
  [
    'memory-dim-mismatch.json',
    [
      {
        path: '$.embeddings.dim',
        message:
          "the vectors have 3 numbers each, but the embedding model 'glove-100d@2790b023' makes vectors of 100: they cannot be compared with its task vectors. Export the memory again with this model's vectors, or without vectors.",
      },
    ],
  ],
];

function expectIssues(issues: readonly { path: string; message: string }[], expected: Expected) {
  expect(issues.map((i) => i.path)).toEqual(expected.map((e) => e.path));
  issues.forEach((issue, i) => {
    const want = expected[i]!.message;
    if (typeof want === 'string') expect(issue.message).toBe(want);
    else expect(issue.message).toMatch(want);
    expect(issue.message.length).toBeLessThanOrEqual(2048);
  });
}

async function cli(file: string): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(['mcp', '--memory', file], { out: () => {}, err: (t) => void (err += t) });
  return { code, err };
}

// --- the app's memory import service on fake-indexeddb ---
const app = memoryApps('bad-memory', embedder);
/** Every table's row count and SHA-256 of its rows (as memory-import.test.ts's dump, hashed). */
async function digest(db: ToolMemDB): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of db.tables) {
    const rows = await t.toArray();
    out[t.name] = `${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`;
  }
  return out;
}
afterEach(dropDbs);

const connectMcp = mcpServers();

describe('memory files that cannot work are refused at load', () => {
  it.each(PARSE_CASES)('%s: the parser lists every problem with its path', (name, expected) => {
    const r = parseMemoryFile(fixture(name));
    expect(r.ok).toBe(false);
    if (!r.ok) expectIssues(r.issues, expected);
  });

  it('the UTF-16 and UTF-32 messages are the importer sniff’s own', () => {
    for (const name of ['memory-utf16.json', 'memory-utf32.json']) {
      const r = parseMemoryFile(fixture(name));
      expect(r.ok ? '' : r.issues[0]!.message).toBe(sniffMessage(fixture(name)));
    }
  });

  it.each([...PARSE_CASES, ...MODEL_CASES])('%s: toolmem mcp exits 2 listing every problem with its JSON path', async (name, expected) => {
    const { code, err } = await cli(join(BAD, name));
    expect(code).toBe(2);
    for (const e of expected) {
      const line = err.split('\n').find((l) => l.startsWith(`  ${e.path}: `));
      expect(line, `${e.path} in ${err.slice(0, 500)}`).toBeDefined();
      if (typeof e.message === 'string') expect(line).toBe(`  ${e.path}: ${e.message}`);
    }
    const count = expected.length === 51 ? 120 : expected.length;
    expect(err).toContain(count === 1 ? 'has 1 problem:' : `has ${count} problems:`);
  });

  it.each([...PARSE_CASES, ...MODEL_CASES])('%s: the app’s memory import refuses it with the same problems; no table changes', async (name, expected) => {
    const { db, memory } = await app();
    await memory.call('importMemory', { text: fixture('memory-valid.json'), mode: 'new' });
    const before = await digest(db);
    for (const mode of ['new', 'merge'] as const) {
      for (const dryRun of [true, false]) {
        const res = await memory.call('importMemory', { text: fixture(name), mode, memoryId: 'mem-test', dryRun });
        expect(res.ok).toBe(false);
        if (!res.ok) expectIssues(res.issues, expected);
      }
    }
    expect(await digest(db)).toEqual(before);
  });

  it('a 20 MB string (generated) is refused with a bounded message, by the parser, the CLI and the app', async () => {
    const f = JSON.parse(fixture('memory-valid.json')) as MemoryFile;
    f.tools[0]!.entries[0]!.text = 'x'.repeat(20_000_000);
    const text = JSON.stringify(f);
    const expected = [
      { path: '$.tools[0].entries[0].text', message: `string of 20,000,000 characters is too long (at most 100,000): '${'x'.repeat(60)}… (19,999,940 more)'` },
    ];
    const r = parseMemoryFile(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expectIssues(r.issues, expected);
    const file = join(tmp, 'memory-20mb-string.json');
    writeFileSync(file, text);
    const { code, err } = await cli(file);
    expect(code).toBe(2);
    expect(err.length).toBeLessThan(2048);
    const { db, memory } = await app();
    const before = await digest(db);
    const res = await memory.call('importMemory', { text, mode: 'new' });
    expect(res.ok ? [] : res.issues).toEqual(expected);
    expect(await digest(db)).toEqual(before);
  }, 30_000);
});

describe('ids that are Object.prototype names keep their data', () => {
  it('memory-proto-tool.json: tool `__proto__` keeps its calibration (not the scale midpoint) and round-trips byte-identically', () => {
    const text = fixture('memory-proto-tool.json');
    const file = readMemoryFile(text);
    expect(Object.hasOwn(file.build.calibration, '__proto__')).toBe(true);
    expect(new MemoryFilePredictor(file, { entries: [], vectors: new Map() }).calibration('__proto__')).toEqual({ mean: 3.5, slope: 0.5, n: 4 });
    expect(serializeMemoryFile(file)).toBe(text);
  });

  it('memory-constructor-entry-id.json: tools `constructor`/`toString`, entries `__proto__`/`constructor`/`hasOwnProperty` round-trip', () => {
    const text = fixture('memory-constructor-entry-id.json');
    const file = readMemoryFile(text);
    expect(file.tools.map((t) => t.id).sort()).toEqual(['constructor', 'toString']);
    expect(file.tools.flatMap((t) => t.entries.map((e) => e.id)).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    expect(new MemoryFilePredictor(file, { entries: [], vectors: new Map() }).calibration('constructor')).toEqual({ mean: 3.5, slope: 0.5, n: 4 });
    expect(serializeMemoryFile(file)).toBe(text);
  });

  it('vectors keyed `__proto__` and a settings key `__proto__` survive parse and canonical export', () => {
    const raw = JSON.parse(fixture('memory-constructor-entry-id.json')) as MemoryFile;
    const text = JSON.stringify({
      ...raw,
      build: { ...raw.build },
      embeddings: { model: 'hash-64', dim: 2, vectors: { constructor: [1, 0], hasOwnProperty: [0, 1] } },
    })
      .replace('"constructor":[1,0]', '"__proto__":[0.6,0.8],"constructor":[1,0]')
      .replace('"settings":{', '"settings":{"__proto__":{"x":1},');
    const file = readMemoryFile(text);
    expect(Object.keys(file.embeddings!.vectors).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    const out = serializeMemoryFile(file);
    expect(JSON.parse(out).embeddings.vectors.__proto__).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Object.hasOwn(JSON.parse(out).build.settings, '__proto__')).toBe(true);
    expect(serializeMemoryFile(readMemoryFile(out))).toBe(out);
    // A bad value under `__proto__` is reported, not skipped.
    const bad = text.replace('"__proto__":[0.6,0.8]', '"__proto__":["x"]');
    expect(parseMemoryFile(bad)).toMatchObject({
      ok: false,
      issues: [{ path: '$.embeddings.vectors.__proto__[0]', message: 'expected number, got string "x"' }],
    });
  });

  it.each(['memory-proto-tool.json', 'memory-constructor-entry-id.json'])(
    '%s: the app imports it and exports the same bytes; merging it again changes nothing',
    async (name) => {
      const { memory } = await app();
      const text = fixture(name);
      const id = readMemoryFile(text).memory.id;
      expect(await memory.call('importMemory', { text, mode: 'new' })).toMatchObject({ ok: true, memoryId: id, renamedIds: false });
      expect((await memory.call('exportMemory', { memoryId: id })).text).toBe(text);
      expect(await memory.call('importMemory', { text, mode: 'merge', memoryId: id })).toMatchObject({ ok: true, merge: { added: [], replaced: [] } });
      expect((await memory.call('exportMemory', { memoryId: id })).text).toBe(text);
    },
  );

  it('toolmem mcp: predict_score for tool `__proto__` uses its calibration', async () => {
    const client = await connectMcp(join(BAD, 'memory-proto-tool.json'));
    const res = (await client.callTool({ name: 'predict_score', arguments: { tool: '__proto__', task: 'a red fox by a fence' } })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    expect(res.isError).toBeUndefined();
    const p = JSON.parse(res.content[0]!.text) as { mean: number; slope: number; score: number };
    expect(p).toMatchObject({ mean: 3.5, slope: 0.5 });
    const listed = (await client.callTool({ name: 'list_tools', arguments: {} })) as { content: { text: string }[] };
    expect(
      (JSON.parse(listed.content[0]!.text) as { tools: { id: string; calibration: unknown }[] }).tools.find((t) => t.id === '__proto__')!.calibration,
    ).toEqual({ mean: 3.5, slope: 0.5, n: 4 });
  }, 30_000);
});

describe('problem lists are bounded', () => {
  it('formatIssues counts the problems left out', () => {
    const r = parseMemoryFile(fixture('memory-many-problems.json'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(formatIssues(r.issues).split('\n')[0]).toBe('The memory file has 120 problems:');
  });
});
