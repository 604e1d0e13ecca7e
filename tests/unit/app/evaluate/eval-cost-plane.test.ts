/**
 * Cost and latency through the services: the promptfoo fixture (cost and latencyMs per call)
 * imported, its medians read by the data worker's `toolCosts`, the cost–quality plane filled by
 * `evaluate`, a card price taking over from the data, and the predict handler's limits.
 * Medians per call in the fixture: chatty-model $0.000084, terse-model $0.000002, sloppy-model $0.000001.
 */
import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { createEvalHandlers } from '../../../../src/app/evaluate/evaluate';
import type { EvalApi, EvalResult } from '../../../../src/app/evaluate/api';
import type { ImportApi } from '../../../../src/app/import/api';
import type { Repositories } from '../../../../src/core/repositories';

const REPO = resolve(import.meta.dirname, '../../../..');
let repos: Repositories;
let imports: Client<ImportApi>;
let evals: Client<EvalApi>;
let datasetId = '';

withDb(
  'eval-cost-plane',
  async (t) => {
    repos = t.repos;
    imports = createInThreadClient(createImportHandlers(repos));
    evals = createInThreadClient(createEvalHandlers({ repos, embedder: async () => null }));
    const out = await imports.call('import', {
      file: new File([readFileSync(resolve(REPO, 'tests/fixtures/import/promptfoo/results.json'))], 'results.json'),
      datasetName: 'pf',
    });
    datasetId = out.record.datasetId;
    expect(out.summary.added).toBe(60);
  },
  { scope: 'file' },
);

const plane = async () => {
  const run = await evals.call('evaluate', { datasetId, train: 10, test: 10, seeds: 1, methods: ['tool-mean', 'knn'] });
  expect(run.state).toBe('completed');
  return (run.metrics as unknown as EvalResult).costPlane!;
};

describe('cost and latency in the services', () => {
  it('toolCosts: the median cost and latency per tool, over its 20 logged calls', async () => {
    const stats = await imports.call('toolCosts', { datasetId });
    expect(stats.map((s) => s.toolId)).toEqual(['chatty-model', 'sloppy-model', 'terse-model']);
    expect(stats.map((s) => s.cost?.n)).toEqual([20, 20, 20]);
    expect(stats.map((s) => s.cost?.median)).toEqual([expect.closeTo(0.000084, 12), 0.000001, 0.000002]);
    for (const s of stats) expect(s.latencyMs?.n).toBe(20);
  });

  it('evaluate fills the cost–quality plane from the data: an always point per tool at its median, random, oracle, the frontier', async () => {
    const p = await plane();
    expect(p.tasks).toBe(10);
    expect(Object.keys(p.costs).sort()).toEqual(['chatty-model', 'sloppy-model', 'terse-model']);
    expect(p.costs['terse-model']).toEqual({ cost: 0.000002, source: 'data', n: 20 });
    const always = p.points.filter((x) => x.kind === 'always');
    expect(always.map((x) => [x.label, x.cost])).toEqual([
      ['chatty-model', expect.closeTo(0.000084, 12)],
      ['sloppy-model', 0.000001],
      ['terse-model', 0.000002],
    ]);
    const random = p.points.find((x) => x.kind === 'random')!;
    expect(random.cost).toBeCloseTo((0.000084 + 0.000001 + 0.000002) / 3, 12);
    // Random is the mean of the always points' scores (same tasks, uniform pick).
    expect(random.quality).toBeCloseTo(always.reduce((a, x) => a + x.quality, 0) / 3, 12);
    const oracle = p.points.find((x) => x.kind === 'oracle')!;
    for (const x of p.points) expect(x.quality).toBeLessThanOrEqual(oracle.quality + 1e-12);
    expect(oracle.frontier).toBe(false);
    // The cheapest always point is on the frontier unless something as cheap scores higher.
    expect(p.points.filter((x) => x.frontier).length).toBeGreaterThan(0);
    expect(new Set(p.points.filter((x) => x.kind === 'method').map((x) => x.label))).toEqual(new Set(['tool-mean', 'knn']));
  });

  it('a price on the card wins over the data', async () => {
    const tool = (await repos.tools.get('terse-model'))!;
    await repos.tools.put({ ...tool, price: { amount: 0.01, per: '1k-tokens', tokensPerCall: 500 } });
    const p = await plane();
    expect(p.costs['terse-model']).toEqual({ cost: 0.005, source: 'card', example: false });
    expect(p.points.find((x) => x.kind === 'always' && x.label === 'terse-model')?.cost).toBe(0.005);
    await repos.tools.put(tool);
  });

  it('predict with a cost limit leaves out the tools over it, and those without a cost', async () => {
    const res = await evals.call('predict', {
      datasetId,
      method: 'tool-mean',
      prompt: 'What is 2 + 2?',
      costs: { 'terse-model': 0.000002, 'chatty-model': 0.000084 },
      maxCost: 0.00001,
      costWeight: 0,
    });
    expect(res.selection.ranked.map((r) => r.toolId)).toEqual(['terse-model']);
    expect(res.selection.choice).toBe('terse-model');
    expect(res.selection.excluded).toEqual([
      { toolId: 'chatty-model', reason: 'cost-over', value: 0.000084, limit: 0.00001 },
      { toolId: 'sloppy-model', reason: 'cost-unknown', limit: 0.00001 },
    ]);
  });
});
