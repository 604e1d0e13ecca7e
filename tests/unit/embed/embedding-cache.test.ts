import { describe, expect, it } from 'vitest';
import {
  cachedEmbed,
  MemoryEmbeddingStore,
  normaliseRows,
  rowOf,
  sha256Hex,
  type EmbedOptions,
  type Embedder,
  type EmbeddingBatch,
  type EmbeddingKey,
  type EmbeddingRecord,
} from '../../../src/core/embed';
import { CancelledError } from '../../../src/core/errors';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';

/** A deterministic fake model: the vector depends only on the text. */
function fakeEmbedder(dim = 8): Embedder {
  return {
    id: 'fake@1',
    dim,
    async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
      const data = new Float32Array(texts.length * dim);
      texts.forEach((t, i) => {
        for (let d = 0; d < dim; d++) data[i * dim + d] = Math.sin((t.length + 1) * (d + 1) + (t.charCodeAt(0) || 0));
      });
      return { dim, count: texts.length, data: normaliseRows(data, dim) };
    },
  };
}

/** Wraps an embedder and counts model calls and texts seen; can abort after n calls. */
function counting(inner: Embedder, abortAfter?: { calls: number; controller: AbortController }) {
  const stats = { calls: 0, texts: 0 };
  const embedder: Embedder = {
    id: inner.id,
    dim: inner.dim,
    async embed(texts: readonly string[], opts?: EmbedOptions) {
      stats.calls++;
      stats.texts += texts.length;
      const out = await inner.embed(texts, opts);
      if (abortAfter && stats.calls === abortAfter.calls) abortAfter.controller.abort();
      return out;
    },
  };
  return { embedder, stats };
}

const texts = Array.from({ length: 100 }, (_, i) => `prompt number ${i} about ${i % 7 === 0 ? 'cats' : 'dogs'}`);

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vector and handles non-ASCII text', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('一位面包师')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cachedEmbed', () => {
  it('embeds misses in batches, and a second run over the same texts makes 0 model calls', async () => {
    const store = new MemoryEmbeddingStore();
    const { embedder, stats } = counting(fakeEmbedder());
    const progress: number[] = [];
    const first = await cachedEmbed(embedder, store, texts, { onProgress: (p) => progress.push(p.done) });
    expect(first.modelCalls).toBe(4); // 100 texts / batch 32
    expect(stats.calls).toBe(4);
    expect(first.misses).toBe(100);
    expect(progress).toEqual([0, 32, 64, 96, 100]);
    expect(store.size).toBe(100);

    const second = await cachedEmbed(embedder, store, texts);
    expect(second.modelCalls).toBe(0);
    expect(stats.calls).toBe(4);
    expect(second.hits).toBe(100);
    expect(Array.from(second.batch.data)).toEqual(Array.from(first.batch.data));
  });

  it('deduplicates texts and only embeds the ones the store lacks', async () => {
    const store = new MemoryEmbeddingStore();
    const { embedder, stats } = counting(fakeEmbedder());
    await cachedEmbed(embedder, store, texts.slice(0, 10));
    const mixed = [...texts.slice(5, 15), ...texts.slice(5, 15)];
    const res = await cachedEmbed(embedder, store, mixed, { batchSize: 4 });
    expect(res.hits).toBe(5);
    expect(res.misses).toBe(5);
    expect(res.modelCalls).toBe(2);
    expect(stats.texts).toBe(15);
    expect(res.batch.count).toBe(20);
    expect(Array.from(rowOf(res.batch, 12))).toEqual(Array.from(rowOf(res.batch, 2)));
  });

  it('keys by model id: another model does not reuse the vectors', async () => {
    const store = new MemoryEmbeddingStore();
    await cachedEmbed(fakeEmbedder(), store, texts.slice(0, 3));
    const other = { ...fakeEmbedder(), id: 'fake@2' };
    const res = await cachedEmbed(other, store, texts.slice(0, 3));
    expect(res.modelCalls).toBe(1);
  });

  it('throws CancelledError when cancelled mid-way and keeps the batches already done', async () => {
    const store = new MemoryEmbeddingStore();
    const controller = new AbortController();
    const { embedder, stats } = counting(fakeEmbedder(), { calls: 2, controller });
    await expect(cachedEmbed(embedder, store, texts, { signal: controller.signal, batchSize: 10 })).rejects.toBeInstanceOf(CancelledError);
    expect(stats.calls).toBe(2);
    expect(store.size).toBe(20);
    // Resuming embeds only the rest.
    const resumed = counting(fakeEmbedder());
    const res = await cachedEmbed(resumed.embedder, store, texts, { batchSize: 10 });
    expect(res.hits).toBe(20);
    expect(resumed.stats.calls).toBe(8);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { embedder, stats } = counting(fakeEmbedder());
    await expect(cachedEmbed(embedder, new MemoryEmbeddingStore(), texts, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(stats.calls).toBe(0);
  });

  it('treats stored vectors of the wrong size as misses', async () => {
    const store = {
      async get(keys: readonly EmbeddingKey[]) {
        return keys.map(() => new Float32Array(3));
      },
      async put(_records: readonly EmbeddingRecord[]) {},
    };
    const res = await cachedEmbed(fakeEmbedder(), store, texts.slice(0, 5));
    expect(res.misses).toBe(5);
  });

  it('works with the real offline model: second run makes 0 model calls', async () => {
    const store = new MemoryEmbeddingStore();
    const { embedder, stats } = counting(createTransformersEmbedder());
    const a = await cachedEmbed(embedder, store, texts.slice(0, 40));
    const b = await cachedEmbed(embedder, store, texts.slice(0, 40));
    expect(a.modelCalls).toBe(2);
    expect(b.modelCalls).toBe(0);
    expect(stats.calls).toBe(2);
    expect(Array.from(b.batch.data)).toEqual(Array.from(a.batch.data));
  });
});
