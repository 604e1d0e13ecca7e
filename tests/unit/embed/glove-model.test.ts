/**
 * The generated public/models/glove-100d folder loads in Node through transformers.js with remote
 * loading off and no network, and computes what the build says it computes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { env } from '@huggingface/transformers';
import { rowOf } from '../../../src/core/embed';
import { createTransformersEmbedder, DEFAULT_MODELS_DIR, type TransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { forbidNetwork } from './offline-guard';

const MODEL_DIR = join(DEFAULT_MODELS_DIR, 'glove-100d');
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('glove-100d static model (Node, offline)', () => {
  let guard: { attempts: string[] };
  let embedder: TransformersEmbedder;
  const loadEvents: string[] = [];

  beforeAll(async () => {
    guard = forbidNetwork();
    embedder = createTransformersEmbedder({ onLoadProgress: (p) => loadEvents.push(p.status) });
    await embedder.load();
  });
  afterAll(() => vi.unstubAllGlobals());

  it('loads from the local folder with remote loading disabled and no network attempt', () => {
    expect(embedder.local).toBe(true);
    expect(env.allowRemoteModels).toBe(false);
    expect(guard.attempts).toEqual([]);
    expect(loadEvents).toContain('ready');
    expect(embedder.id).toMatch(/^glove-100d@[0-9a-f]{8}$/);
  });

  it('returns 100-d unit vectors, deterministically', async () => {
    const texts = ['A red apple on a wooden table.', 'The model miscounts objects.', 'Dogs running in the snow'];
    const a = await embedder.embed(texts);
    expect(a.dim).toBe(100);
    expect(a.count).toBe(3);
    for (let i = 0; i < 3; i++) expect(norm(rowOf(a, i))).toBeCloseTo(1, 5);
    const b = await embedder.embed(texts);
    expect(Array.from(b.data)).toEqual(Array.from(a.data));
    // Batch composition (padding) must not change a text's vector.
    const single = await embedder.embed([texts[1]!]);
    for (let d = 0; d < 100; d++) expect(single.data[d]).toBeCloseTo(rowOf(a, 1)[d]!, 6);
    expect(guard.attempts).toEqual([]);
  });

  it('gives zero vectors for blank or all-unknown texts instead of NaN', async () => {
    const out = await embedder.embed(['', '   ', 'qzxv blorptastic ?!', 'a cat']);
    for (let i = 0; i < 3; i++) expect(Array.from(rowOf(out, i)).every((x) => x === 0)).toBe(true);
    expect(norm(rowOf(out, 3))).toBeCloseTo(1, 5);
  });

  it('unknown words and punctuation do not change the direction (zero rows only rescale the mean)', async () => {
    const out = await embedder.embed(['red apple', 'red apple qzxv , blorptastic !!']);
    for (let d = 0; d < 100; d++) expect(out.data[100 + d]).toBeCloseTo(out.data[d]!, 6);
  });

  it('equals the normalised sum of dequantised rows read straight from the ONNX file', async () => {
    const { onnx } = onnxProto;
    const model = onnx.ModelProto.decode(readFileSync(join(MODEL_DIR, 'onnx/model_quantized.onnx')));
    const init = Object.fromEntries((model.graph?.initializer ?? []).map((t) => [t.name, t]));
    // Copy into fresh arrays: protobufjs hands out Node Buffers that view a larger pool.
    const table = new Int8Array(Uint8Array.from(init.embeddings_int8!.rawData).buffer);
    const scales = new Float32Array(Uint8Array.from(init.row_scales!.rawData).buffer);
    const vocab = (JSON.parse(readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
    const words = ['the', 'painter', 'mixes', 'blue', 'paint'];
    const expected = new Float64Array(100);
    for (const w of words) {
      const id = vocab[w];
      if (id === undefined) throw new Error(`test word ${w} is not in the vocabulary`);
      for (let d = 0; d < 100; d++) expected[d]! += table[id * 100 + d]! * scales[id]!;
    }
    const n = Math.sqrt(expected.reduce((s, x) => s + x * x, 0));
    const got = await embedder.embed(['The painter mixes blue paint.']);
    for (let d = 0; d < 100; d++) expect(got.data[d]).toBeCloseTo(expected[d]! / n, 5);
  });

  it('refuses a hub model id when network is not allowed', () => {
    expect(() => createTransformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2' })).toThrow(/network loading is off/);
  });
});
