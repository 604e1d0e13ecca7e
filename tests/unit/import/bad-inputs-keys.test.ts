/**
 * Issue #14 class 1 — data keys. Tool names, task ids, raters, categories, column headers and JSON
 * keys named `__proto__`, `constructor`, `toString`, … must be ordinary data: every tool listed,
 * every count right, nothing left on `Object.prototype`. Corpus and expected results:
 * tests/fixtures/bad-inputs/README.md, section "Data keys (issue #14 class 1)".
 */
import { withDb } from '../helpers/db';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { own } from '../../../src/core/data-keys';
import type { ImportSummary } from '../../../src/core/import/types';
import { createInThreadClient } from '../../../src/rpc';
import type { ImportOutcome } from '../../../src/app/import/api';
import { createImportHandlers } from '../../../src/app/import/handlers';
import { BAD, importFile, REPO } from './helpers';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** proto-tools.csv: tool → [accepted, mean]. (Entries, not a literal: a bare `__proto__:` key in a literal sets the prototype.) */
const PROTO_TOOLS: Record<string, [number, number]> = Object.fromEntries<[number, number]>([
  ['__proto__', [2, 3]],
  ['constructor', [2, 4]],
  ['toString', [3, 2]],
  ['hasOwnProperty', [1, 4]],
  ['valueOf', [2, 5]],
  ['__defineGetter__', [2, 3.5]],
  ['gpt-4', [2, 4.5]],
  ['claude-3', [2, 3]],
  ['DALLE_3', [1, 3]],
  ['SDXL_Turbo', [2, 3]],
  ['llama-3', [2, 3]],
]);

/** What `Object.prototype` holds, to prove an import left it alone. */
const prototypeShape = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');
const PROTOTYPE = prototypeShape();
function expectPrototypeUntouched() {
  expect(prototypeShape()).toBe(PROTOTYPE);
  const probe: Record<string, unknown> = {};
  for (const k of ['accepted', 'rejected', 'meanScore', 'sum', 'score', 'model', 'polluted', 'clustered']) expect(probe[k], k).toBeUndefined();
}
afterEach(expectPrototypeUntouched);

const tallies = (s: ImportSummary) => Object.fromEntries(Object.entries(s.tools).map(([t, x]) => [t, [x.accepted, x.meanScore]]));

describe('data keys: the import pipeline', () => {
  it('proto-tools.csv: all 11 tools, with their counts and means', async () => {
    const { summary, sink } = await importFile(resolve(BAD, 'proto-tools.csv'));
    expect(Object.keys(summary.tools).sort()).toEqual(Object.keys(PROTO_TOOLS).sort());
    expect(tallies(summary)).toEqual(Object.fromEntries(Object.entries(PROTO_TOOLS)));
    for (const t of HOSTILE) expect(Object.hasOwn(summary.tools, t), t).toBe(true);
    expect(Object.getPrototypeOf(summary.tools)).toBeNull();
    expect(summary).toMatchObject({ rowsRead: 21, accepted: 21, rejected: 0 });
    expect(new Set(sink.rows.map((r) => r.toolId)).size).toBe(11);
  });

  it('keys-task-ids.csv: task ids __proto__, constructor, toString, hasOwnProperty, valueOf', async () => {
    const { summary, sink } = await importFile(resolve(BAD, 'keys-task-ids.csv'));
    expect(summary).toMatchObject({ accepted: 6, rejected: 0 });
    expect([...new Set(sink.rows.map((r) => r.taskId))].sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']);
    expect(
      sink.rows
        .filter((r) => r.taskId === '__proto__')
        .map((r) => r.toolId)
        .sort(),
    ).toEqual(['claude-3', 'gpt-4']);
  });

  it('keys-raters.csv: raters __proto__, constructor, toString, valueOf', async () => {
    const { summary, sink } = await importFile(resolve(BAD, 'keys-raters.csv'));
    expect(summary).toMatchObject({ accepted: 5, rejected: 0 });
    expect(sink.rows.map((r) => r.rater)).toEqual(['__proto__', 'constructor', 'toString', '__proto__', 'valueOf']);
  });

  it('keys-categories.csv: categories __proto__, constructor, toString, hasOwnProperty, valueOf', async () => {
    const { sink } = await importFile(resolve(BAD, 'keys-categories.csv'));
    expect(sink.rows.map((r) => r.categories)).toEqual([['__proto__', 'constructor'], ['toString'], ['__proto__'], ['hasOwnProperty', 'valueOf']]);
  });

  it('keys-header-columns.csv: a tool column named constructor imports when mapped; fatal when not', async () => {
    const { summary, sink } = await importFile(resolve(BAD, 'keys-header-columns.csv'), { mapping: { tool: 'constructor' } });
    expect(summary.headers).toEqual(['prompt', 'constructor', 'score', '__proto__']);
    expect(tallies(summary)).toEqual({ 'gpt-4': [1, 4], 'claude-3': [1, 5] });
    expect(sink.rows.map((r) => r.toolId)).toEqual(['gpt-4', 'claude-3']);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([[3, 'score', "score 'high' is not a number"]]);
    await expect(importFile(resolve(BAD, 'keys-header-columns.csv'))).rejects.toThrow(
      "No column for the required field 'tool': none of the columns (prompt, constructor, score, __proto__) looks like it. Map it explicitly (CLI: --map tool=COLUMN).",
    );
  });

  // Each CSV record's `data` is a null-prototype dictionary (csv-records.ts): a column named
  // `__proto__` is a column like any other, kept in the rejected row for the download.
  it('keys-header-columns.csv: the __proto__ column is kept in a rejected row (csv-records.ts)', async () => {
    const { summary } = await importFile(resolve(BAD, 'keys-header-columns.csv'), { mapping: { tool: 'constructor' } });
    expect(own(summary.errors[0]?.raw, '__proto__')).toBe('z');
  });

  it('keys-only-hostile-headers.csv: fatal, the message names the three columns', async () => {
    await expect(importFile(resolve(BAD, 'keys-only-hostile-headers.csv'))).rejects.toThrow(
      "No column for the required fields 'prompt', 'tool': none of the columns (__proto__, constructor, toString) looks like them. Map them explicitly (CLI: --map prompt=COLUMN).",
    );
  });

  it('keys-proto.jsonl: a "__proto__" key is data, never a default score or tool', async () => {
    const { summary, sink } = await importFile(resolve(BAD, 'keys-proto.jsonl'));
    // Line 3 holds a score only under "__proto__": it has none, so it is an output to label (issue #26), never score 5.
    expect(tallies(summary)).toEqual({ ['__proto__']: [1, 4], constructor: [1, 5], toString: [1, null], valueOf: [1, 2] });
    expect(summary.errors).toEqual([]);
    expect(summary.unscored).toBe(1);
    expect(sink.rows.map((r) => [r.toolId, r.score])).toEqual([
      ['__proto__', 4],
      ['constructor', 5],
      ['valueOf', 2],
    ]);
  });

  it('keys-proto-ids.json: members (record ids) named __proto__, constructor, toString', async () => {
    const { summary, sink } = await importFile(resolve(BAD, 'keys-proto-ids.json'));
    expect(tallies(summary)).toEqual({ ['__proto__']: [1, 4], hasOwnProperty: [1, 3], toString: [1, 5] });
    expect(sink.rows.map((r) => r.taskId)).toEqual(['__proto__', 'constructor', 'toString']);
  });
});

describe('data keys: toolmem import --json', () => {
  it('lists all 11 tools of proto-tools.csv with their counts, and leaves Object.prototype untouched', async () => {
    let stdout = '';
    const code = await main(['import', '--data', resolve(BAD, 'proto-tools.csv'), '--dry-run', '--json'], {
      out: (t) => void (stdout += `${t}\n`),
      err: () => {},
    });
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as ImportSummary;
    expect(Object.keys(out.tools).sort()).toEqual(Object.keys(PROTO_TOOLS).sort());
    expect(tallies(out)).toEqual(Object.fromEntries(Object.entries(PROTO_TOOLS)));
    // The text as written carries the hostile names as plain JSON keys.
    for (const t of HOSTILE) expect(stdout).toContain(`"${t}": {`);
  });
});

describe('data keys: the import service (fake-indexeddb)', () => {
  const ctx = withDb('bad-inputs-keys', ({ repos }) => ({ client: createInThreadClient(createImportHandlers(repos)) }));
  const fileOf = (name: string) => new File([readFileSync(resolve(BAD, name))], name);
  const importOf = (name: string, extra: { datasetName?: string } = {}) =>
    ctx.client.call('import', { file: fileOf(name), datasetName: 'Keys', preset: 'generic', ...extra });

  /** SHA-256 of every table but `imports` (a refused file adds one failed record there). */
  async function digests(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const t of ctx.db.tables) {
      if (t.name === 'imports') continue;
      const rows = await t.toArray();
      out.set(
        t.name,
        createHash('sha256')
          .update(JSON.stringify(rows.map((r) => JSON.stringify(Object.entries(r as object)))).concat(String(rows.length)))
          .digest('hex'),
      );
    }
    return out;
  }

  it('proto-tools.csv: 11 tool rows, 21 experiences, and dataset counts for all 11 tools', async () => {
    const { summary } = (await importOf('proto-tools.csv')) as ImportOutcome;
    expect(Object.keys(summary.tools)).toHaveLength(11);
    expect((await ctx.repos.tools.list()).map((t) => t.id).sort()).toEqual(Object.keys(PROTO_TOOLS).sort());
    expect(await ctx.repos.experiences.count('keys')).toBe(21);
    const byTool = await ctx.repos.experiences.countsByTool('keys');
    expect(Object.fromEntries(byTool)).toEqual(Object.fromEntries(Object.entries(PROTO_TOOLS).map(([t, [k]]) => [t, k])));
    const stats = await ctx.client.call('stats', { datasetId: 'keys' });
    expect(Object.fromEntries(stats.tools.map((t) => [t.toolId, [t.n, t.mean]]))).toEqual(Object.fromEntries(Object.entries(PROTO_TOOLS)));
    expect(stats.tasks).toBe(3); // no id column: rows with the same prompt are one task (3 prompts)
  });

  it('keys-raters.csv and keys-task-ids.csv: the stored counts name every rater and task', async () => {
    await importOf('keys-raters.csv');
    const raters = await ctx.client.call('stats', { datasetId: 'keys' });
    expect(raters.raters).toEqual([
      { rater: '__proto__', n: 2 },
      { rater: 'constructor', n: 1 },
      { rater: 'toString', n: 1 },
      { rater: 'valueOf', n: 1 },
    ]);
    await importOf('keys-task-ids.csv', { datasetName: 'Tasks' });
    expect((await ctx.client.call('stats', { datasetId: 'tasks' })).tasks).toBe(5);
  });

  it('a re-import of proto-tools.csv changes nothing, and undo removes it all', async () => {
    const first = (await importOf('proto-tools.csv')) as ImportOutcome;
    const again = (await importOf('proto-tools.csv')) as ImportOutcome;
    expect(again.summary).toMatchObject({ added: 0, unchanged: 21 });
    await ctx.client.call('undo', { importId: again.record.id });
    await ctx.client.call('undo', { importId: first.record.id });
    expect(await ctx.repos.experiences.count('keys')).toBe(0);
    expect((await ctx.repos.experiences.countsByTool('keys')).size).toBe(0);
  });

  it.each(['keys-header-columns.csv', 'keys-only-hostile-headers.csv'])('%s (fatal): nothing stored changes', async (name) => {
    await importOf('proto-tools.csv');
    const before = await digests();
    const failed = await importOf(name).then(
      () => null,
      (e: Error) => e,
    );
    expect(failed?.name).toBe('ValidationError');
    expect(await digests()).toEqual(before);
    const records = await ctx.repos.imports.list();
    expect(records.filter((r) => r.state === 'failed')).toHaveLength(1);
  });
});

it('the corpus files of this section exist', () => {
  for (const f of [
    'proto-tools.csv',
    'keys-task-ids.csv',
    'keys-raters.csv',
    'keys-categories.csv',
    'keys-header-columns.csv',
    'keys-only-hostile-headers.csv',
    'keys-proto.jsonl',
    'keys-proto-ids.json',
  ]) {
    expect(readFileSync(resolve(REPO, 'tests/fixtures/bad-inputs', f), 'utf8').length, f).toBeGreaterThan(0);
  }
});
