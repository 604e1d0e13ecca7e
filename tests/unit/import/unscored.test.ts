/**
 * Issue #26: rows without a score — no score column, or an empty cell — are outputs awaiting
 * labels, in every reader of the generic preset (CSV, TSV, JSON, JSONL, Parquet): accepted,
 * counted apart as `unscored`, handed to the sink as label items (one per task × tool), never
 * rejected and never experiences.
 */
import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { countRows } from '../../../src/core/import';
import { bytesSource } from '../../../src/core/import/parquet-reader';
import { chunked, importSource } from './helpers';
import { parquetSchema } from '../helpers/parquet-schema';

/** What every case below must come to: 2 outputs to label of t2i-a and t2i-b, task p1 of t2i-a scored 4. */
function expectTwelve(summary: Awaited<ReturnType<typeof importSource>>['summary'], sink: Awaited<ReturnType<typeof importSource>>['sink']) {
  expect([summary.rowsRead, summary.accepted, summary.unscored, summary.rejected, summary.added]).toEqual([3, 3, 2, 0, 1]);
  expect(sink.items.map((i) => [i.id, i.prompt, i.importId])).toEqual([
    ['test|p1|t2i-b', 'a red cube', 'imp-test'],
    ['test|p2|t2i-a', 'two cats', 'imp-test'],
  ]);
  expect(sink.rows.map((r) => [r.id, r.score])).toEqual([['test|t2i-a|p1|default', 4]]);
  // The tool tallies count the outputs to label as accepted; the mean is over scores only.
  expect(summary.tools['t2i-a']).toEqual({ accepted: 2, rejected: 0, meanScore: 4 });
  expect(summary.tools['t2i-b']).toEqual({ accepted: 1, rejected: 0, meanScore: null });
}

describe('rows without a score are outputs awaiting labels', () => {
  it('CSV without a score column: every row is an output to label, the scale the default 1–5', async () => {
    const csv = 'id,prompt,model\np1,a red cube,sdxl\np1,a red cube,flux\np2,two cats,sdxl\n';
    const { summary, sink } = await importSource(chunked(csv, 7), 'outputs.csv');
    expect([summary.rowsRead, summary.accepted, summary.unscored, summary.rejected, summary.added]).toEqual([3, 3, 3, 0, 0]);
    expect(summary.mapping).toEqual({ id: 'id', prompt: 'prompt', tool: 'model' });
    expect(sink.items.map((i) => i.id)).toEqual(['test|p1|sdxl', 'test|p1|flux', 'test|p2|sdxl']);
    expect(sink.rows).toEqual([]);
    expect(summary.scale).toEqual({ min: 1, max: 5, direction: 'higher-better', integer: true });
    expect(summary.errors).toEqual([]);
  });

  it('CSV with empty score cells', async () => {
    const csv = 'id,prompt,tool,score\np1,a red cube,t2i-a,4\np1,a red cube,t2i-b,\np2,two cats,t2i-a,  \n';
    const { summary, sink } = await importSource(chunked(csv), 'mixed.csv');
    expectTwelve(summary, sink);
  });

  it('TSV with empty score cells', async () => {
    const tsv = 'id\tprompt\ttool\tscore\np1\ta red cube\tt2i-a\t4\np1\ta red cube\tt2i-b\t\np2\ttwo cats\tt2i-a\t\n';
    const { summary, sink } = await importSource(chunked(tsv), 'mixed.tsv');
    expect(summary.format).toBe('csv');
    expectTwelve(summary, sink);
  });

  it('JSON: a missing key, null or an empty string', async () => {
    const json = JSON.stringify([
      { id: 'p1', prompt: 'a red cube', tool: 't2i-a', score: 4 },
      { id: 'p1', prompt: 'a red cube', tool: 't2i-b', score: null },
      { id: 'p2', prompt: 'two cats', tool: 't2i-a' },
    ]);
    const { summary, sink } = await importSource(chunked(json, 5), 'mixed.json');
    expect(summary.format).toBe('json');
    expectTwelve(summary, sink);
  });

  it('JSONL: a missing key and an empty string', async () => {
    const jsonl = [
      '{"id":"p1","prompt":"a red cube","tool":"t2i-a","score":4}',
      '{"id":"p1","prompt":"a red cube","tool":"t2i-b","score":""}',
      '{"id":"p2","prompt":"two cats","tool":"t2i-a"}',
    ].join('\n');
    const { summary, sink } = await importSource(chunked(jsonl), 'mixed.jsonl');
    expect(summary.format).toBe('jsonl');
    expectTwelve(summary, sink);
  });

  it('Parquet: null scores', async () => {
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: ['p1', 'p1', 'p2'] },
          { name: 'prompt', data: ['a red cube', 'a red cube', 'two cats'] },
          { name: 'tool', data: ['t2i-a', 't2i-b', 't2i-a'] },
          { name: 'score', data: [4, null, null] },
        ],
        schema: parquetSchema({ id: 'text', prompt: 'text', tool: 'text', score: 'double' }),
      }),
    );
    async function* stream() {
      yield bytes;
    }
    const { summary, sink } = await importSource(stream(), 'mixed.parquet', { randomAccess: bytesSource(bytes) });
    expect(summary.format).toBe('parquet');
    expectTwelve(summary, sink);
  });

  it('the same output twice without a score is a duplicate row error; bad scores stay errors', async () => {
    const csv = 'id,prompt,tool,score\np1,a,x,\np1,a,x,\np2,b,x,3 stars\n';
    const { summary, sink } = await importSource(chunked(csv), 'dups.csv');
    expect([summary.accepted, summary.unscored, summary.rejected]).toEqual([1, 1, 2]);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [2, 'id', "duplicate of row 1: same task 'p1' and tool 'x', both without a score"],
      [3, 'score', "score '3 stars' is not a number"],
    ]);
    expect(sink.items).toHaveLength(1);
  });

  it('countRows: what the dialog says before importing ("2 outputs to label")', async () => {
    const csv = 'id,prompt,tool,score\np1,a red cube,t2i-a,4\np1,a red cube,t2i-b,\np2,two cats,t2i-a,\np3,x,,2\n';
    // One score cannot tell the scale (issue #27): the dialog is told to ask for it (issue #38).
    expect(await countRows(chunked(csv), { fileName: 'mixed.csv', datasetId: 'test' })).toMatchObject({
      rowsRead: 4,
      scored: 1,
      unscored: 2,
      rejected: 1,
      scaleUndecided: true,
    });
    const scored = 'id,prompt,tool,score\np1,a,x,0.25\np2,b,x,1\np3,c,x,\n';
    expect(await countRows(chunked(scored), { fileName: 'scored.csv', datasetId: 'test' })).toMatchObject({
      scored: 2,
      unscored: 1,
      scale: { min: 0, max: 1, direction: 'higher-better', integer: false },
      scaleInferred: true,
      scaleUndecided: false,
      scaleNote: '0–1 inferred from the 2 scores (lowest 0.25, highest 1)',
    });
  });
});
