/**
 * The embedders' direct path (tokenizer → ONNX session → the graph's token sums or our mean pooling)
 * gives the same vectors as transformers.js' feature-extraction pipeline. Run here on onnxruntime-node with the
 * bundled model; in the browser the same code runs on onnxruntime-web.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { DEFAULT_MODELS_DIR } from '../../../src/model-host/transformers-embedder';
import { maskCounts, meanFromSumsInto, meanPoolInto, pipelineEmbedder } from '../../../src/model-host/pipeline-embedder';
import { forbidNetwork } from '../embed/offline-guard';
import { TOKEN_SUM_OUTPUT } from '../../../src/core/embed';

let extractor: FeatureExtractionPipeline;

beforeAll(async () => {
  forbidNetwork();
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = DEFAULT_MODELS_DIR;
  extractor = await pipeline('feature-extraction', 'glove-100d', { local_files_only: true });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await extractor?.dispose();
});

describe('meanPoolInto', () => {
  it('averages the unmasked positions of each row into the given output rows', () => {
    // batch 2, seq 3, dim 2; row 0 keeps positions 0 and 1, row 1 keeps position 0 only.
    const hidden = [1, 2, 3, 4, 100, 100, 5, 6, 100, 100, 100, 100];
    const mask = new BigInt64Array([1n, 1n, 0n, 1n, 0n, 0n]);
    const out = new Float32Array(6);
    meanPoolInto(hidden, { mask, batch: 2, seq: 3, dim: 2, out, rows: [2, 0] });
    expect(Array.from(out)).toEqual([5, 6, 0, 0, 2, 3]);
  });
});

describe('maskCounts', () => {
  it('counts unmasked tokens per row from an int64 mask and from plain numbers alike', () => {
    const bits = [1, 1, 0, 1, 0, 0, 1, 1, 1];
    expect(Array.from(maskCounts(BigInt64Array.from(bits.map(BigInt)), 3, 3))).toEqual([2, 1, 3]);
    expect(Array.from(maskCounts(bits, 3, 3))).toEqual([2, 1, 3]);
    // A view into a larger buffer (offset) is read from its own start.
    const big = BigInt64Array.from([9n, ...bits.map(BigInt)]);
    expect(Array.from(maskCounts(big.subarray(1), 3, 3))).toEqual([2, 1, 3]);
  });
});

describe('meanFromSumsInto', () => {
  it('divides each sum by its unmasked token count, into the given output rows', () => {
    // batch 2, seq 3, dim 2: row 0 has 2 tokens, row 1 has 1 (a single token is not divided).
    const sums = [6, 8, 5, 7];
    const mask = new BigInt64Array([1n, 1n, 0n, 1n, 0n, 0n]);
    const out = new Float32Array(6);
    meanFromSumsInto(sums, { mask, batch: 2, seq: 3, dim: 2, out, rows: [2, 0] });
    expect(Array.from(out)).toEqual([5, 7, 0, 0, 3, 4]);
  });
});

describe('pipelineEmbedder', () => {
  it('fetches only the in-graph token sums of the bundled static model', async () => {
    const session = (extractor.model as unknown as { sessions: { model: { outputNames: string[]; run: (...a: unknown[]) => unknown } } }).sessions.model;
    expect(session.outputNames).toEqual(['last_hidden_state', TOKEN_SUM_OUTPUT]);
    const run = vi.spyOn(session, 'run');
    await pipelineEmbedder(extractor, 'glove', 100, 32, true).embed(['a red apple', 'two dogs']);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]![1]).toEqual([TOKEN_SUM_OUTPUT]);
    run.mockRestore();
  });

  it('direct path = pipeline path, blanks and unknown-only texts stay zero', async () => {
    const texts = [
      'A red apple on a wooden table.',
      '',
      'Dogs running in the snow',
      '!!! ???',
      'the bused children',
      ...Array.from({ length: 40 }, (_, i) => `sentence ${i} about a quiet river at night`),
    ];
    const call = vi.spyOn(extractor as unknown as { _call: () => unknown }, '_call');
    const direct = await pipelineEmbedder(extractor, 'glove', 100, 32, true).embed(texts);
    expect(call).not.toHaveBeenCalled(); // really the direct path
    const viaPipeline = await pipelineEmbedder(extractor, 'glove', 100, 32, false).embed(texts);
    expect(direct.count).toBe(texts.length);
    let maxDiff = 0;
    for (let i = 0; i < direct.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(direct.data[i]! - viaPipeline.data[i]!));
    expect(call).toHaveBeenCalledTimes(2); // 43 non-blank texts = 2 batches of 32
    call.mockRestore();
    expect(maxDiff).toBeLessThan(1e-6);
    for (const i of [1, 3]) expect(Array.from(direct.data.subarray(i * 100, (i + 1) * 100)).every((x) => x === 0)).toBe(true);
  });
});
