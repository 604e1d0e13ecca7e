import { resolve } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../src/core/errors';
import { describeRowError, inferScale, previewRows, rejectedRowsCsv, runImport } from '../../../src/core/import';
import type { ImportProgress } from '../../../src/core/import/types';
import type { Experience } from '../../../src/core/types';
import { BAD, FIXTURES, MemorySink, chunked, fileSource, importFile, importSource, options, readText } from './helpers';

function csvRows(n: number): string {
  const lines = ['id,prompt,model,score'];
  for (let i = 1; i <= n; i++) lines.push(`${i},Prompt ${i},tool-${i % 3},${(i % 5) + 1}`);
  return lines.join('\n') + '\n';
}

describe('runImport', () => {
  it('writes in batches and sums what the sink reports', async () => {
    const stored = new Map<string, Experience>();
    const sink = {
      batches: [] as number[],
      async writeBatch(rows: Experience[]) {
        this.batches.push(rows.length);
        let added = 0;
        let unchanged = 0;
        for (const r of rows) {
          if (stored.has(r.id)) unchanged += 1;
          else added += 1;
          stored.set(r.id, r);
        }
        return { added, updated: 0, unchanged };
      },
    };
    const first = await runImport(chunked(csvRows(25), 10), options('rows.csv', { batchSize: 10 }), sink);
    expect(sink.batches).toEqual([10, 10, 5]);
    expect(first).toMatchObject({ rowsRead: 25, accepted: 25, added: 25, unchanged: 0 });
    // Same file again: same ids, so the sink sees only unchanged rows (idempotent re-import).
    const again = await runImport(chunked(csvRows(25), 10), options('rows.csv', { batchSize: 10 }), sink);
    expect(again).toMatchObject({ added: 0, unchanged: 25 });
    expect(first.tools).toEqual({
      'tool-1': { accepted: 9, rejected: 0, meanScore: 26 / 9 },
      'tool-2': { accepted: 8, rejected: 0, meanScore: 23 / 8 },
      'tool-0': { accepted: 8, rejected: 0, meanScore: 26 / 8 },
    });
  });

  it('reports progress with bytes and rows', async () => {
    const events: ImportProgress[] = [];
    const text = csvRows(50);
    await runImport(chunked(text, 100), options('rows.csv', { batchSize: 20, totalBytes: text.length, onProgress: (p) => events.push(p) }), new MemorySink());
    const last = events.at(-1);
    expect(last).toMatchObject({ bytesRead: text.length, totalBytes: text.length, rowsRead: 50, accepted: 50, rejected: 0 });
    expect(events.length).toBeGreaterThanOrEqual(3); // after each of the 3 batches at least
    expect(last?.rowsPerSecond).toBeGreaterThan(0);
  });

  it('stops with CancelledError when the signal is aborted', async () => {
    const controller = new AbortController();
    const sink = new MemorySink();
    const writeBatch = sink.writeBatch.bind(sink);
    sink.writeBatch = async (rows) => {
      const result = await writeBatch(rows);
      controller.abort();
      return result;
    };
    const run = runImport(chunked(csvRows(5000), 256), options('rows.csv', { batchSize: 100, signal: controller.signal }), sink);
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(sink.batches).toBe(1);
  });

  it('counts every read row as accepted or rejected', async () => {
    const { summary } = await importFile(resolve(BAD, 'bad-line.jsonl'));
    expect(summary.accepted + summary.rejected).toBe(summary.rowsRead);
  });

  it('keeps every error', async () => {
    const lines = ['prompt,model,score', ...Array.from({ length: 30 }, (_, i) => `p${i},m,bad${i}`)];
    const { summary } = await importSource(chunked(lines.join('\n')), 'many.csv');
    expect(summary.errors).toHaveLength(30);
    expect(summary.tools.m).toEqual({ accepted: 0, rejected: 30, meanScore: null });
  });
});

describe('inferScale', () => {
  it('picks the smallest common scale that holds the scores', () => {
    expect(inferScale(1, 5, true)).toMatchObject({ min: 1, max: 5, integer: true });
    expect(inferScale(0, 1, false)).toMatchObject({ min: 0, max: 1, integer: false });
    expect(inferScale(0, 1, true)).toMatchObject({ min: 0, max: 1, integer: true });
    expect(inferScale(1, 7, true)).toMatchObject({ min: 1, max: 10, integer: true });
    expect(inferScale(0, 73, true)).toMatchObject({ min: 0, max: 100, integer: true });
    expect(inferScale(-3, 250, false)).toMatchObject({ min: -3, max: 250, integer: false });
    expect(inferScale(Infinity, -Infinity, true)).toMatchObject({ min: 1, max: 5 });
  });
});

describe('previewRows', () => {
  it('returns the first n canonical rows with the mapping it used, and stops reading', async () => {
    let pulled = 0;
    const text = csvRows(10_000); // well beyond the 64 KB the import peeks at
    async function* counting(): AsyncGenerator<string> {
      for await (const chunk of chunked(text, 50)) {
        pulled += 1;
        yield chunk;
      }
    }
    const all = Math.ceil(text.length / 50);
    const preview = await previewRows(counting(), { fileName: 'rows.csv', mapping: { tool: 'model' } }, 3);
    expect(preview.rows.map((r) => [r.taskId, r.prompt, r.tool, r.score])).toEqual([
      ['1', 'Prompt 1', 'tool-1', '2'],
      ['2', 'Prompt 2', 'tool-2', '3'],
      ['3', 'Prompt 3', 'tool-0', '4'],
    ]);
    expect(preview.mapping).toEqual({ tool: 'model', id: 'id', prompt: 'prompt', score: 'score' });
    expect(preview.preset).toBe('generic');
    expect(pulled).toBeLessThan(all);
  });

  it('includes validation errors for the previewed rows', async () => {
    const preview = await previewRows(fileSource(resolve(FIXTURES, 'genai_image_slice.json')), { fileName: 'genai_image_slice.json' }, 400);
    expect(preview.rows).toHaveLength(360);
    expect(preview.errors.map((e) => e.reason)).toEqual(['score 41 is outside the scale 1–5', 'score 33 is outside the scale 1–5']);
  });
});

describe('rejectedRowsCsv', () => {
  it('gives the raw rows plus an error column, parseable again', async () => {
    const { summary } = await importFile(resolve(BAD, 'non-numeric-score.csv'));
    const csv = rejectedRowsCsv(summary.errors);
    expect(csv).toBe('prompt,model,score,error\nWrite a limerick,gpt-4,excellent,"row 2, column score: score \'excellent\' is not a number"');
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true });
    expect(parsed.data[0]?.score).toBe('excellent');
  });

  it('handles mixed raw shapes and JSONL parse errors', async () => {
    const csv = rejectedRowsCsv([
      { file: 'a', row: 7, column: '', reason: 'line 7: invalid JSON: oops', raw: { line: '{oops' } },
      { file: 'a', row: 2, column: 'models.X[0]', reason: 'score 9 is outside the scale 1–5', raw: { id: '1', score: 9, extra: { a: 1 } } },
    ]);
    expect(csv).toBe(
      'line,id,score,extra,error\n{oops,,,,line 7: invalid JSON: oops\n,1,9,"{""a"":1}","row 2, column models.X[0]: score 9 is outside the scale 1–5"',
    );
    expect(describeRowError({ file: 'a', row: 4, column: '', reason: 'has 2 fields' })).toBe('row 4: has 2 fields');
  });
});

describe('genai-bench via JSON in tiny chunks', () => {
  it('gives the same rows for 1-byte, 7-byte and whole chunks', async () => {
    const text = readText(resolve(FIXTURES, 'genai_image_slice.json'));
    const results = [];
    for (const size of [1, 7, 0]) {
      const { summary, sink } = await importSource(chunked(text, size), 'genai_image_slice.json');
      results.push({ rows: sink.rows, errors: summary.errors, rowsRead: summary.rowsRead });
    }
    expect(results[0]?.rowsRead).toBe(360);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});
