/** The toolmem-memory format: round trips, the broken-file corpus, merge, and the JSON Schema file. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import {
  importMemoryText,
  memoryFileJsonSchema,
  mergeMemoryFiles,
  parseMemoryFile,
  readMemoryFile,
  serializeMemoryFile,
  type MemoryFile,
} from '../../../src/core/memory-format';

const REPO = resolve(import.meta.dirname, '../../..');
const BAD = resolve(REPO, 'tests/fixtures/bad-inputs');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const fixture = (name: string) => readFileSync(join(BAD, name), 'utf8');
const valid = () => readMemoryFile(fixture('memory-valid.json'));

describe('memory format round trip', { timeout: 30_000 }, () => {
  it('build-memory output is canonical: export → import → export is byte-identical', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'toolmem-format-')), 'memory.json');
    const code = await main(['build-memory', '--data', SLICE, '--train', '15', '--seed', '3', '--out', out], { out: () => {}, err: () => {} });
    expect(code).toBe(0);
    const text = readFileSync(out, 'utf8');
    const file = readMemoryFile(text);
    expect(serializeMemoryFile(file)).toBe(text);
    const again = serializeMemoryFile(readMemoryFile(serializeMemoryFile(file)));
    expect(again).toBe(text);
    expect(Object.keys(file.build.calibration).sort()).toEqual(file.tools.map((t) => t.id));
    for (const c of Object.values(file.build.calibration)) {
      expect(c.mean).toBeGreaterThanOrEqual(1);
      expect(c.mean).toBeLessThanOrEqual(5);
      expect(c.n).toBe(15);
    }
  });

  it('byte-identical with history, embeddings (float32) and unsorted input', () => {
    const f = valid();
    const messy: MemoryFile = {
      ...f,
      tools: [...f.tools].reverse().map((t) => ({ ...t, entries: [...t.entries].reverse() })),
      build: { ...f.build, settings: { z: 1, a: { y: 2, b: [3, { d: 1, c: 2 }] } } },
      historyCount: 1,
      history: [{ ...f.tools[0]!.entries[0]!, id: 'a0', toolId: 'ToolA', validTo: 1700000000001, supersededBy: 'a1', retiredReason: 'merged' }],
      embeddings: { model: 'hash-64', dim: 3, vectors: { b1: [0.1, 0.2, 0.3], a2: [1 / 3, -0.5, 0], a1: [0.6, 0.8, 0] } },
    };
    const first = serializeMemoryFile(messy);
    expect(first.indexOf('"ToolA"')).toBeLessThan(first.indexOf('"ToolB"'));
    expect(first.indexOf('"a": {')).toBeLessThan(first.indexOf('"z": 1'));
    expect(serializeMemoryFile(readMemoryFile(first))).toBe(first);
    expect(readMemoryFile(first).embeddings!.vectors.b1![0]).toBe(Math.fround(0.1));
  });
});

describe('broken memory files', () => {
  const cases: [string, { path: string; message: string | RegExp }[]][] = [
    ['memory-wrong-version.json', [{ path: '$.version', message: 'unsupported version 5: this version of ToolMem Studio reads versions 1, 2, 3 and 4' }]],
    [
      'memory-missing-fields.json',
      [
        { path: '$.build.calibration', message: 'required field is missing (expected record)' },
        { path: '$.tools[0].entries[1].text', message: 'required field is missing (expected string)' },
        { path: '$.tools[1].counts', message: 'required field is missing (expected object)' },
      ],
    ],
    [
      'memory-wrong-types.json',
      [
        { path: '$.memory.createdAt', message: 'expected number, got string "yesterday"' },
        { path: '$.tools[0].entries[0].support', message: 'expected number, got string "2"' },
        { path: '$.tools[1].entries[0].pinned', message: 'expected boolean, got string "yes"' },
      ],
    ],
    ['memory-unknown-level.json', [{ path: '$.tools[0].entries[0].level', message: 'string "excellent" is not one of "proficient", "good", "bad", "weak"' }]],
    [
      'memory-duplicate-ids.json',
      [
        { path: '$.tools[1].entries[0].id', message: "duplicate entry id 'a1' (first at $.tools[0].entries[0].id)" },
        { path: '$.tools[2].id', message: "duplicate tool id 'ToolB' (first at $.tools[1].id)" },
      ],
    ],
    [
      'memory-truncated.json',
      [{ path: '$', message: /^Truncated JSON: the file ends \(character \d+, line 85, column 1\) before the top-level object is closed\.$/ }],
    ],
  ];

  it.each(cases)('%s is rejected with every problem and its path; the current memory is unchanged', (name, expected) => {
    const current = valid();
    const before = serializeMemoryFile(current);
    for (const mode of ['new', 'merge'] as const) {
      const r = importMemoryText(current, fixture(name), mode);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.issues).toHaveLength(expected.length);
      r.issues.forEach((issue, i) => {
        expect(issue.path).toBe(expected[i]!.path);
        if (typeof expected[i]!.message === 'string') expect(issue.message).toBe(expected[i]!.message);
        else expect(issue.message).toMatch(expected[i]!.message);
      });
      expect(r.file).toBe(current);
    }
    expect(serializeMemoryFile(current)).toBe(before);
  });

  it('cross-field rules: level values, counts, calibration and vectors', () => {
    const f = JSON.parse(fixture('memory-valid.json')) as MemoryFile;
    f.tools[0]!.entries[0]!.value = 2;
    f.tools[1]!.counts.weak = 3;
    f.build.calibration.Nope = { mean: 1, slope: 0, n: 1 };
    f.embeddings = { model: 'other', dim: 2, vectors: { zz: [1, 0], a1: [1] } };
    (f.tools[0]!.entries[1] as Record<string, unknown>).extra = 1;
    const r = parseMemoryFile(JSON.stringify(f));
    expect(r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(["$.tools[0].entries[1].extra: unknown field 'extra'"]);
    delete (f.tools[0]!.entries[1] as Record<string, unknown>).extra;
    const r2 = parseMemoryFile(JSON.stringify(f));
    expect(r2.ok ? [] : r2.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "$.tools[0].entries[0].value: value 2 does not match level 'good' (expected 1)",
      "$.tools[1].counts.weak: says 3 but the tool has 1 'weak' entries",
      "$.build.calibration.Nope: calibration for unknown tool 'Nope'",
      "$.embeddings.model: 'other' is not the memory's embedding model 'hash-64'",
      "$.embeddings.vectors.zz: vector for unknown entry 'zz'",
      '$.embeddings.vectors.a1: has 1 numbers, expected dim 2',
    ]);
    expect(parseMemoryFile('')).toEqual({ ok: false, issues: [{ path: '$', message: 'The file is empty.' }] });
    expect(parseMemoryFile('[1]')).toMatchObject({
      ok: false,
      issues: [{ path: '$', message: 'expected a JSON object (a toolmem-memory file), got an array' }],
    });
    expect(parseMemoryFile('{"kind":"other"}')).toMatchObject({ ok: false, issues: [{ path: '$.kind' }] });
  });
});

describe('import modes and merge', () => {
  it('new returns the canonical file; merge adds, dedupes, merges evidence and renames clashing ids', () => {
    const current = valid();
    const incoming = valid();
    incoming.tools[0]!.entries[0]!.evidence.push('e9');
    incoming.tools[0]!.entries[0]!.id = 'x1';
    incoming.tools[0]!.entries[1]!.text = 'Struggles with text';
    incoming.tools.push({
      id: 'ToolC',
      name: 'C',
      modality: 'other',
      description: 'new',
      counts: { proficient: 1, good: 0, bad: 0, weak: 0 },
      entries: [{ ...incoming.tools[1]!.entries[0]!, id: 'c1', level: 'proficient', value: 2 }],
    });
    incoming.build.calibration.ToolC = { mean: 4, slope: 1, n: 3 };
    const created = importMemoryText(current, serializeMemoryFile(incoming), 'new');
    expect(created.ok && serializeMemoryFile(created.file)).toBe(serializeMemoryFile(incoming));
    const { file, report } = mergeMemoryFiles(current, incoming);
    expect(report).toEqual({ added: 2, unchanged: 1, evidenceMerged: 1, renamed: [{ from: 'a2', to: 'a2~import' }], toolsAdded: ['ToolC'] });
    const a = file.tools.find((t) => t.id === 'ToolA')!;
    expect(a.entries.map((e) => e.id)).toEqual(['a1', 'a2', 'a2~import']);
    expect(a.entries[0]).toMatchObject({ evidence: ['e1', 'e2', 'e9'], support: 3 });
    expect(a.counts).toEqual({ proficient: 0, good: 1, bad: 2, weak: 0 });
    expect(file.build.calibration.ToolC).toEqual({ mean: 4, slope: 1, n: 3 });
    expect(parseMemoryFile(serializeMemoryFile(file)).ok).toBe(true);
    expect(serializeMemoryFile(current)).toBe(serializeMemoryFile(valid()));
    const other = { ...incoming, memory: { ...incoming.memory, embeddingModel: 'glove' } };
    expect(importMemoryText(current, serializeMemoryFile(other), 'merge')).toMatchObject({
      ok: false,
      file: current,
      issues: [{ path: '$.memory.embeddingModel' }],
    });
  });
});

describe('docs/memory-format.schema.json', () => {
  it('is the JSON Schema generated from the zod schema', () => {
    expect(readFileSync(resolve(REPO, 'docs/memory-format.schema.json'), 'utf8')).toBe(`${JSON.stringify(memoryFileJsonSchema(), null, 2)}\n`);
  });
});
