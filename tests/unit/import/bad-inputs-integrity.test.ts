/**
 * Every file of the malformed corpus (tests/fixtures/bad-inputs, see its README) is imported through
 * the real import service into a database that already holds data in EVERY table. Each table is
 * counted and hashed before and after:
 * - a fatal file changes nothing but adds one `failed` import record;
 * - a file with row errors adds exactly its good rows (and the tools they introduce), changes no stored
 *   row, and leaves every other table byte-for-byte as it was.
 */
import { withDb } from '../helpers/db';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DexieEmbeddingStore, type ToolMemDB } from '../../../src/db';
import { createInThreadClient, type Client } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/app/import/handlers';
import type { ImportApi, ImportOutcome } from '../../../src/app/import/api';
import type { Repositories } from '../../../src/core/repositories';
import { BAD, REPO } from './helpers';

/** Expected outcome of each corpus file when imported into the existing "Team log" dataset (1–5). */
const EXPECTED: Record<string, 'fatal' | 'rows'> = {
  'array-line.jsonl': 'rows',
  'bad-line.jsonl': 'rows',
  'binary-nul.csv': 'fatal',
  'blank-lines.csv': 'fatal',
  'bom.csv': 'rows',
  'deep-nesting.jsonl': 'rows',
  'duplicate-header.csv': 'fatal',
  'duplicate-rows.csv': 'rows',
  'empty-header-cell.csv': 'fatal',
  'empty.csv': 'fatal',
  'extreme-scores.csv': 'rows',
  'field-count.csv': 'rows',
  'formula-cells.csv': 'rows',
  'formula-keys.jsonl': 'rows',
  'formula-roundtrip.csv': 'rows',
  'gzipped.csv': 'fatal',
  'header-only.csv': 'rows',
  'latin1.csv': 'rows',
  'malformed-quotes.csv': 'rows',
  'missing-column.csv': 'fatal',
  'nan-score.csv': 'rows',
  'near-miss-collision.csv': 'rows',
  'near-miss-tool.csv': 'rows',
  'near-miss-tools.jsonl': 'rows',
  'non-numeric-score.csv': 'rows',
  'numeric-header.csv': 'fatal',
  'out-of-scale.csv': 'rows',
  'records-not-array.json': 'fatal',
  'scalar.json': 'fatal',
  'semicolon.csv': 'rows',
  'truncated.json': 'fatal',
  'unclosed-quote.csv': 'fatal',
  'utf16.csv': 'fatal',
  'wrapped-array.json': 'fatal',
  // Issue #14 classes 2, 3, 5 (values, nesting, line endings, message size): bad-inputs-values.test.ts.
  'array-prompt.jsonl': 'rows',
  'comments-between.json': 'fatal',
  'comments.jsonl': 'rows',
  'cr-only.csv': 'rows',
  'crlf-in-quotes.csv': 'rows',
  'deep-field.jsonl': 'rows',
  'deep-member.json': 'rows',
  'duplicate-keys.json': 'rows',
  'duplicate-keys.jsonl': 'rows',
  'fffd-literal.csv': 'rows',
  'hex-scores.csv': 'rows',
  'invalid-utf8-tail.csv': 'rows',
  'json-scores.jsonl': 'rows',
  'long-unclosed-quote.csv': 'fatal',
  'mixed-line-endings.csv': 'rows',
  'nul-in-field.csv': 'fatal',
  'object-prompt.json': 'rows',
  'score-spellings.csv': 'rows',
  'single-quotes.jsonl': 'rows',
  'trailing-comma.jsonl': 'rows',
  'utf16be-no-bom.csv': 'fatal',
  'utf32be.csv': 'fatal',
  'utf32le-no-bom.csv': 'fatal',
  'utf32le.csv': 'fatal',
  // Data keys (issue #14 class 1; tests/unit/import/bad-inputs-keys.test.ts has their exact results).
  'proto-tools.csv': 'rows',
  'keys-task-ids.csv': 'rows',
  'keys-raters.csv': 'rows',
  'keys-categories.csv': 'rows',
  'keys-header-columns.csv': 'fatal',
  'keys-only-hostile-headers.csv': 'fatal',
  'keys-proto.jsonl': 'rows',
  'keys-proto-ids.json': 'rows',
};

/** Import files of the corpus (the memory-*.json files belong to the memory-format tests). */
const CORPUS = readdirSync(BAD)
  .filter((f) => /\.(csv|json|jsonl)$/.test(f) && !f.startsWith('memory-'))
  .sort();

const LOG = resolve(REPO, 'tests/fixtures/e2e/team-eval-log.csv');
const fileOf = (path: string, name = path.split('/').pop()!) => new File([readFileSync(path)], name);

let db: ToolMemDB;
let repos: Repositories;
let client: Client<ImportApi>;

/** JSON with stable bytes for what IndexedDB stores: typed arrays as arrays, blobs as their bytes. */
async function canonical(value: unknown): Promise<unknown> {
  if (value instanceof Blob)
    return {
      blob: value.type,
      bytes: createHash('sha256')
        .update(new Uint8Array(await value.arrayBuffer()))
        .digest('hex'),
    };
  if (ArrayBuffer.isView(value)) return { typed: value.constructor.name, values: Array.from(value as unknown as ArrayLike<number>) };
  if (Array.isArray(value)) return Promise.all(value.map(canonical));
  if (value && typeof value === 'object') {
    // Null prototype: a stored key named `__proto__` must be hashed, not become the prototype.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) out[key] = await canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

type Row = { key: string; text: string };

async function rowsOf(tableName: string): Promise<Row[]> {
  const table = db.table(tableName);
  const [keys, values] = await Promise.all([table.toCollection().primaryKeys(), table.toArray()]);
  const rows = await Promise.all(values.map(async (v, i) => ({ key: JSON.stringify(keys[i]), text: JSON.stringify(await canonical(v)) })));
  return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const digest = (rows: Row[]) =>
  createHash('sha256')
    .update(rows.map((r) => `${r.key}\t${r.text}`).join('\n'))
    .digest('hex');

/** Count, SHA-256 and rows of every table. */
async function snapshot(): Promise<Map<string, { count: number; sha: string; rows: Row[] }>> {
  const out = new Map<string, { count: number; sha: string; rows: Row[] }>();
  for (const t of db.tables) {
    const rows = await rowsOf(t.name);
    expect(await t.count()).toBe(rows.length);
    out.set(t.name, { count: rows.length, sha: digest(rows), rows });
  }
  return out;
}

/** A database with something in every table, including rows an import replaced (importBackups). */
async function seed(): Promise<void> {
  const team = { file: fileOf(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' as const };
  await client.call('import', team);
  const edited = readFileSync(LOG, 'utf8').replace('assistant-b,3,', 'assistant-b,4,');
  await client.call('import', { ...team, file: new File([edited], 'team-eval-log.csv') });
  await client.call('import', { file: fileOf(resolve(REPO, 'tests/fixtures/import/genai_image_slice.json'), 'genai_image.json'), datasetName: 'G' });
  const now = 1_700_000_000_000;
  await db.images.put({
    id: 'img:g:DALLE_3/00000',
    datasetId: 'g',
    name: 'DALLE_3/00000.png',
    mime: 'image/png',
    blob: new Blob([new Uint8Array([137, 80, 78, 71, 0, 1])], { type: 'image/png' }),
  });
  await db.memories.put({ id: 'mem-1', name: 'M', datasetIds: ['g'], embeddingModel: 'glove-100d@x', settings: {}, createdAt: now, updatedAt: now });
  await db.entries.bulkPut([
    {
      id: 'e1',
      memoryId: 'mem-1',
      toolId: 'DALLE_3',
      level: 'good',
      value: 1,
      text: 'Good at text in images',
      evidence: ['g|00000|DALLE_3|rater1'],
      support: 1,
      origin: 'stats',
      pinned: false,
      validFrom: now,
      validTo: null,
      supersededBy: null,
      createdAt: now,
      updatedAt: now,
    },
    {
      id: 'e0',
      memoryId: 'mem-1',
      toolId: 'DALLE_3',
      level: 'bad',
      value: -1,
      text: 'old',
      evidence: [],
      support: 0,
      origin: 'stats',
      pinned: false,
      validFrom: now - 1,
      validTo: now,
      supersededBy: 'e1',
      createdAt: now - 1,
      updatedAt: now,
    },
  ]);
  await db.runs.put({
    id: 'eval-1',
    kind: 'eval',
    state: 'completed',
    config: { datasetId: 'g', seeds: 1, methods: ['knn'] },
    startedAt: now,
    finishedAt: now + 1,
  });
  await db.settings.bulkPut([
    { key: 'raterName', value: 'ann' },
    { key: 'embeddingModel', value: 'glove-100d' },
  ]);
  await new DexieEmbeddingStore(db).put([{ modelId: 'glove-100d@x', hash: 'ab'.repeat(32), vector: new Float32Array([0.6, 0.8]) }]);
  await db.items.put({ id: 'manual|t1|gpt-4', datasetId: 'manual', taskId: 't1', prompt: 'p', toolId: 'gpt-4', response: 'r', categories: [], createdAt: now });
  await db.preferences.put({
    id: 'g|00000|DALLE_3|SDXL_Turbo|ann',
    datasetId: 'g',
    taskId: '00000',
    toolA: 'DALLE_3',
    toolB: 'SDXL_Turbo',
    winner: 'A',
    rater: 'ann',
    shownLeft: 'DALLE_3',
    createdAt: now,
  });
}

// A fresh seeded database per file, so each file meets the same stored state.
withDb('bad-inputs-integrity', async (t) => {
  ({ db, repos } = t);
  client = createInThreadClient(createImportHandlers(repos));
  await seed();
});

describe('bad inputs never change what is stored', () => {
  it('the corpus has at least 30 malformed files (with the memory files) and each has an expected outcome', () => {
    const memoryFiles = readdirSync(BAD).filter((f) => f.startsWith('memory-'));
    expect(CORPUS.length + memoryFiles.length).toBeGreaterThanOrEqual(30);
    expect(CORPUS).toEqual(Object.keys(EXPECTED).sort());
  });

  it('the seeded database holds rows in every table', async () => {
    for (const [name, t] of await snapshot()) expect(t.count, name).toBeGreaterThan(0);
  });

  it.each(CORPUS)('%s', async (name) => {
    const before = await snapshot();
    const res = await client.call('import', { file: fileOf(resolve(BAD, name)), datasetName: 'Team log', preset: 'generic' }).then(
      (o): ImportOutcome | Error => o,
      (e: Error) => e,
    );
    const after = await snapshot();
    const changed = new Set([...after].filter(([t, s]) => s.sha !== before.get(t)!.sha).map(([t]) => t));

    // Exactly one new import record, in the state the outcome calls for.
    const newImports = after.get('imports')!.rows.filter((r) => !before.get('imports')!.rows.some((b) => b.key === r.key));
    expect(newImports).toHaveLength(1);
    const record = JSON.parse(newImports[0]!.text) as { state: string; accepted: number; id: string };
    const unchangedBefore = (table: string) => {
      const keys = new Set(before.get(table)!.rows.map((r) => r.key));
      return digest(after.get(table)!.rows.filter((r) => keys.has(r.key)));
    };
    expect(unchangedBefore('imports'), 'earlier import records untouched').toBe(before.get('imports')!.sha);

    if (EXPECTED[name] === 'fatal') {
      expect(res, `${name} should be refused`).toBeInstanceOf(Error);
      const err = res as Error;
      expect(err.message.length).toBeGreaterThan(30);
      expect(['ParseError', 'ValidationError']).toContain(err.name);
      expect(record).toMatchObject({ state: 'failed' });
      expect([...changed]).toEqual(['imports']);
      for (const [t, s] of after) if (t !== 'imports') expect({ t, count: s.count }).toEqual({ t, count: before.get(t)!.count });
      return;
    }

    expect(res, `${name} should import its good rows`).not.toBeInstanceOf(Error);
    const { summary } = res as ImportOutcome;
    expect(record).toMatchObject({ state: 'completed' });
    expect(summary.updated).toBe(0);
    expect(summary.rowsRead).toBe(summary.accepted + summary.rejected);
    // Experiences: the good rows were added, tagged with this import; every stored row is unchanged.
    const exp = after.get('experiences')!;
    expect(exp.count).toBe(before.get('experiences')!.count + summary.added);
    expect(unchangedBefore('experiences')).toBe(before.get('experiences')!.sha);
    const added = exp.rows
      .filter((r) => !before.get('experiences')!.rows.some((b) => b.key === r.key))
      .map((r) => JSON.parse(r.text) as { importId: string; datasetId: string });
    expect(added).toHaveLength(summary.added);
    for (const row of added) expect(row).toMatchObject({ importId: record.id, datasetId: 'team-log' });
    // Tools: the ones the good rows introduced, nothing else.
    const tools = after.get('tools')!;
    expect(unchangedBefore('tools')).toBe(before.get('tools')!.sha);
    const newTools = tools.rows.filter((r) => !before.get('tools')!.rows.some((b) => b.key === r.key)).map((r) => JSON.parse(r.key) as string);
    const knownTools = new Set(before.get('tools')!.rows.map((r) => JSON.parse(r.key) as string));
    expect(newTools.sort()).toEqual(
      Object.keys(summary.tools)
        .filter((t) => summary.tools[t]!.accepted > 0 && !knownTools.has(t))
        .sort(),
    );
    // The import's key lists (db/import-keys.ts) name exactly the rows it added.
    const lists = after
      .get('importKeys')!
      .rows.filter((r) => !before.get('importKeys')!.rows.some((b) => b.key === r.key))
      .map((r) => JSON.parse(r.text) as { importId: string; keys: string[] });
    expect(lists.every((l) => l.importId === record.id)).toBe(true);
    expect(lists.flatMap((l) => l.keys).sort()).toEqual(
      exp.rows
        .filter((r) => !before.get('experiences')!.rows.some((b) => b.key === r.key))
        .map((r) => JSON.parse(r.key) as string)
        .sort(),
    );
    // Rows without a score: new outputs awaiting labels (issue #26), tagged with this import; stored items unchanged.
    expect(unchangedBefore('items')).toBe(before.get('items')!.sha);
    const items = after
      .get('items')!
      .rows.filter((r) => !before.get('items')!.rows.some((b) => b.key === r.key))
      .map((r) => JSON.parse(r.text) as { importId: string; datasetId: string });
    expect(items).toHaveLength(summary.unscored);
    for (const item of items) expect(item).toMatchObject({ importId: record.id, datasetId: 'team-log' });
    // Every other table is byte-for-byte what it was.
    // (countLog: the derived counts of the added experiences; tests/unit/db/dataset-counts.test.ts checks them.)
    for (const t of changed) expect(['experiences', 'countLog', 'importKeys', 'tools', 'imports', ...(summary.unscored ? ['items'] : [])]).toContain(t);
  });
});
