/**
 * The one evaluation use case (src/app/evaluate/run-evaluation.ts), seen from its two hosts: the predictors
 * worker's `evaluate` handler (over fake-indexeddb) and `toolmem eval --json -` on the same file,
 * split and seeds give the same JSON — the metrics, the bootstrap intervals and the top-k ablation,
 * whose rows are the kNN methods' only (memory ignores k, so it is left out in both).
 */
import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from '../../../../src/cli/commands/eval';
import { withIntervals } from '../../../../src/core/eval';
import { createTransformersEmbedder } from '../../../../src/model-host/transformers-embedder';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import type { EvalApi, EvalResult } from '../../../../src/app/evaluate/api';
import { createEvalHandlers } from '../../../../src/app/evaluate/evaluate';
import { createImportHandlers } from '../../../../src/app/import/handlers';

const REPO = resolve(import.meta.dirname, '../../../..');
const FIXTURE = 'tests/fixtures/import/genai_image_slice.json';
const METHODS = ['tool-mean', 'knn', 'memory'];
const embedder = createTransformersEmbedder();
let app: Client<EvalApi>;

withDb(
  'eval-parity',
  async ({ repos }) => {
    app = createInThreadClient(createEvalHandlers({ repos, embedder: async () => embedder }));
    await createInThreadClient(createImportHandlers(repos)).call('import', {
      file: new File([readFileSync(resolve(REPO, FIXTURE))], 'genai_image.json'),
      datasetName: 'G',
    });
  },
  { scope: 'file' },
);

/** The value as JSON carries it (NaN → null, no undefined fields). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('one evaluation use case for the worker and the CLI', () => {
  it('gives identical JSON from the eval handler and `toolmem eval`, ablation included', { timeout: 120_000 }, async () => {
    const run = await app.call('evaluate', { datasetId: 'g', train: 10, test: 10, seeds: 2, methods: METHODS, ablation: true });
    expect(run.state).toBe('completed');
    const result = run.metrics as unknown as EvalResult;
    let stdout = '';
    const code = await runEval(
      ['--data', FIXTURE, '--train', '10', '--test', '10', '--seeds', '2', '--methods', METHODS.join(','), '--ablation', '--json', '-'],
      { out: (t) => void (stdout += t), err: () => undefined },
    );
    expect(code).toBe(0);
    const cli = JSON.parse(stdout) as { ablation: { method: string; cut: string; k: number }[] };
    expect(cli).toEqual(asJson({ ...withIntervals(result.report, result.intervals!), ablation: result.ablation }));
    // k = 0…24, fixed and knee, for knn only: 50 rows; memory has none.
    expect(cli.ablation).toHaveLength(50);
    expect(new Set(cli.ablation.map((r) => r.method))).toEqual(new Set(['knn']));
    expect(cli.ablation.map((r) => `${r.cut}:${r.k}`).slice(0, 2)).toEqual(['fixed:0', 'fixed:1']);
  });
});
