import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { createEvalHandlers } from '../../../../src/app/evaluate/evaluate';
import type { EvalApi, EvalResult } from '../../../../src/app/evaluate/api';
import { createTransformersEmbedder } from '../../../../src/model-host/transformers-embedder';
import { toolmem } from '../../helpers/cli';

/** The CLI in-process (same entry as the bin), returning what it printed. */
const runCli = async (args: string[]) => (await toolmem(args)).stdout;

const REPO = resolve(import.meta.dirname, '../../../..');
const FIXTURE = 'tests/fixtures/import/genai_image_slice.json';
const embedder = createTransformersEmbedder();
let client: Client<EvalApi>;

withDb(
  'eval-svc',
  async ({ repos }) => {
    client = createInThreadClient(createEvalHandlers({ repos, embedder: async () => embedder }));
    const imports = createInThreadClient(createImportHandlers(repos));
    await imports.call('import', { file: new File([readFileSync(resolve(REPO, FIXTURE))], 'genai_image.json'), datasetName: 'G' });
  },
  { scope: 'file' },
);

describe('eval service', () => {
  it('gives the same numbers as `toolmem eval` for the same config and seeds', async () => {
    const run = await client.call('evaluate', { datasetId: 'g', train: 10, test: 10, seeds: 2, methods: ['tool-mean', 'knn', 'ensemble'] });
    expect(run.state).toBe('completed');
    const result = run.metrics as unknown as EvalResult;
    const cli = JSON.parse(
      await runCli(['eval', '--data', FIXTURE, '--train', '10', '--test', '10', '--seeds', '2', '--methods', 'tool-mean,knn,ensemble', '--json', '-']),
    );
    for (const m of ['tool-mean', 'knn', 'ensemble']) {
      for (const k of ['mae', 'rmse'] as const) expect(result.report.methods[m]!.mean[k]).toBeCloseTo(cli.methods[m].mean[k], 6);
    }
    expect(result.report.pairs.knn).toEqual(cli.pairs.knn);
    expect(result.points['tool-mean']!.length).toBe(10 * 6);
    expect(result.sizes).toEqual({ train: 10, test: 10 });
    // The paired-bootstrap intervals come from the same function as the CLI's ci95: the same bounds.
    expect(result.intervals).toMatchObject({ baseline: 'tool-mean', resamples: 1000, seed: 1, level: 0.95 });
    for (const m of ['tool-mean', 'knn', 'ensemble']) {
      const [lo, hi] = cli.methods[m].ci95.mae as [number, number];
      expect(result.intervals!.methods[m]!.metrics.mae.lo).toBeCloseTo(lo, 6);
      expect(result.intervals!.methods[m]!.metrics.mae.hi).toBeCloseTo(hi, 6);
    }
    expect(result.intervals!.methods.knn!.vsBaseline!.mae.verdict).toBe(cli.methods.knn.vsBaseline.mae.verdict);
  });

  it('predicts every tool with evidence and selects the best', async () => {
    const res = await client.call('predict', { datasetId: 'g', method: 'knn', prompt: 'A baker pulling bread out of an oven' });
    expect(res.predictions).toHaveLength(6);
    for (const p of res.predictions) {
      expect(p.score).toBeGreaterThanOrEqual(1);
      expect(p.score).toBeLessThanOrEqual(5);
      expect(p.evidence.length).toBeGreaterThan(0);
    }
    const best = [...res.predictions].sort((a, b) => b.score - a.score)[0]!;
    expect(res.selection.choice ?? res.selection.tied[0]).toBe(best.toolId);
    expect(res.predictions[0]!.evidence[0]!.text).toMatch(/\w/);
  });

  it('weighs cost against quality when the user gives costs: the best tool loses to a free one once it costs enough', async () => {
    const prompt = 'A baker pulling bread out of an oven';
    const plain = await client.call('predict', { datasetId: 'g', method: 'knn', prompt, candidates: ['DALLE_3', 'SDXL_2_1'] });
    const [best, other] = [...plain.predictions].sort((a, b) => b.score - a.score);
    const gap = best!.score - other!.score;
    expect(gap).toBeGreaterThan(0);
    // utility = score − weight × cost: a cost of (gap / 0.5) × 1.01 at weight 0.5 costs the best tool a little more than its lead.
    const costly = await client.call('predict', {
      datasetId: 'g',
      method: 'knn',
      prompt,
      candidates: ['DALLE_3', 'SDXL_2_1'],
      costs: { [best!.toolId]: (gap / 0.5) * 1.01 },
      costWeight: 0.5,
    });
    expect(costly.selection.choice).toBe(other!.toolId);
    const ranked = costly.selection.ranked.find((r) => r.toolId === best!.toolId)!;
    expect(ranked.utility).toBeCloseTo(best!.score - gap * 1.01, 9);
    // Without a weight the costs change nothing.
    const unweighted = await client.call('predict', {
      datasetId: 'g',
      method: 'knn',
      prompt,
      candidates: ['DALLE_3', 'SDXL_2_1'],
      costs: { [best!.toolId]: 100 },
    });
    expect(unweighted.selection.choice).toBe(best!.toolId);
  });

  it('gives each tool a range from out-of-fold residuals, the margin of the pick, and flags mean-only predictions', async () => {
    const res = await client.call('predict', { datasetId: 'g', method: 'knn', prompt: 'A baker pulling bread out of an oven' });
    expect(res.ranges).toEqual({ folds: 5, tasks: 20, maxTrain: 400, allTasks: 20 });
    // The counts add up (issue #38): 120 scored outputs, the slice's 20 tasks × 6 tools.
    expect([res.trainedOn, res.trainedTasks, res.trainedTools]).toEqual([120, 20, 6]);
    for (const p of res.predictions) {
      const r = p.range!;
      expect(r.level).toBe(0.8);
      expect(r.lo).toBeLessThanOrEqual(p.score);
      expect(r.hi).toBeGreaterThanOrEqual(p.score);
      // 20 training tasks: never 20 similar ones with their own residual, so every tool's range is read from all 20.
      expect(r).toMatchObject({ source: 'overall', n: 20 });
      expect(p.onlyMean).toBeUndefined();
    }
    const [first, second] = res.selection.ranked;
    expect(res.pick!.runnerUp).toBe(second!.toolId);
    expect(res.pick!.margin).toBeCloseTo(first!.utility - second!.utility, 12);
    // The share is counted over the same 20 held-out tasks, both tools' errors paired per task (ties count half).
    const share = res.pick!.share!;
    expect(share).toMatchObject({ n: 20, source: 'overall', paired: true });
    expect(Number.isInteger(share.share * 40)).toBe(true);
    expect(share.share).toBeGreaterThanOrEqual(0);
    expect(share.share).toBeLessThanOrEqual(1);
    const mean = await client.call('predict', { datasetId: 'g', method: 'tool-mean', prompt: 'A baker pulling bread out of an oven' });
    expect(mean.predictions.every((p) => p.onlyMean === true && p.range !== undefined)).toBe(true);
  });

  it('rejects unknown methods with their names', async () => {
    await expect(client.call('evaluate', { datasetId: 'g', seeds: 1, methods: ['magic'] })).rejects.toThrow(/Unknown method\(s\): magic/);
  });
});
