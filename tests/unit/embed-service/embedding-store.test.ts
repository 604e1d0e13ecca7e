import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedEmbed, type Embedder } from '../../../src/core/embed';
import { DexieEmbeddingStore, EMBEDDING_MODEL_KEY, ToolMemDB, embeddingModelSetting } from '../../../src/db';

let db: ToolMemDB;
let store: DexieEmbeddingStore;
let n = 0;

beforeEach(async () => {
  db = new ToolMemDB(`embed-store-${++n}`);
  await db.open();
  store = new DexieEmbeddingStore(db);
});
afterEach(async () => {
  await db.delete();
});

describe('DexieEmbeddingStore', () => {
  it('answers in key order, undefined for misses, per model', async () => {
    await store.put([
      { modelId: 'm@1', hash: 'aa', vector: new Float32Array([1, 0]) },
      { modelId: 'm@1', hash: 'bb', vector: new Float32Array([0, 1]) },
      { modelId: 'm@2', hash: 'aa', vector: new Float32Array([0.6, 0.8]) },
    ]);
    const got = await store.get([
      { modelId: 'm@1', hash: 'bb' },
      { modelId: 'm@1', hash: 'cc' },
      { modelId: 'm@2', hash: 'aa' },
      { modelId: 'm@3', hash: 'aa' },
    ]);
    expect(got.map((v) => (v ? Array.from(v) : undefined))).toEqual([[0, 1], undefined, [Math.fround(0.6), Math.fround(0.8)], undefined]);
    expect(got[0]).toBeInstanceOf(Float32Array);
    expect(await store.get([])).toEqual([]);
    expect(await store.count()).toBe(3);
    expect(await store.count('m@1')).toBe(2);
    expect(await store.count('m@')).toBe(0);
  });

  it('stores only a view’s own bytes, and replaces an entry with the same key', async () => {
    const pool = new Float32Array(1000).fill(0.5);
    await store.put([{ modelId: 'm', hash: 'h', vector: pool.subarray(10, 12) }]);
    const [row] = await db.embeddings.bulkGet([['m', 'h']]);
    expect(row!.vector.buffer.byteLength).toBe(8);
    await store.put([{ modelId: 'm', hash: 'h', vector: new Float32Array([3, 4]) }]);
    expect(Array.from((await store.get([{ modelId: 'm', hash: 'h' }]))[0]!)).toEqual([3, 4]);
  });

  it('answers the same whether it scans the model’s keys (small cache) or fetches each key (large cache)', async () => {
    const row = (hash: string, x: number) => ({ modelId: 'm@1', hash, vector: new Float32Array([x, 1]) });
    await store.put([row('a', 1), row('b', 2), row('c', 3), row('d', 4)]);
    await store.put([{ modelId: 'm@2', hash: 'a', vector: new Float32Array([9, 9]) }]);
    const ask = ['c', 'zz', 'a', 'c'].map((hash) => ({ modelId: 'm@1', hash }));
    const values = async () => (await store.get(ask)).map((v) => (v ? Array.from(v) : undefined));
    // 4 stored ≤ 4 × 4 asked: the key scan; another model's 'a' is not a hit for m@1.
    expect(await values()).toEqual([[3, 1], undefined, [1, 1], [3, 1]]);
    // 4 + 20 stored > 4 × 4 asked: one get per key, same answers.
    await store.put(Array.from({ length: 20 }, (_, i) => row(`x${i}`, 0)));
    expect(await values()).toEqual([[3, 1], undefined, [1, 1], [3, 1]]);
  });

  it('serves cachedEmbed: the second run makes no model call', async () => {
    let calls = 0;
    const embedder: Embedder = {
      id: 'fake@1',
      dim: 2,
      async embed(texts) {
        calls++;
        return { dim: 2, count: texts.length, data: new Float32Array(texts.flatMap((t) => [t.length, 1])) };
      },
    };
    const a = await cachedEmbed(embedder, store, ['x', 'yy', 'x']);
    const b = await cachedEmbed(embedder, store, ['yy', 'x']);
    expect([a.modelCalls, b.modelCalls, b.hits, calls]).toEqual([1, 0, 2, 1]);
    expect(Array.from(b.batch.data)).toEqual([2, 1, 1, 1]);
  });
});

describe('embeddingModelSetting', () => {
  it('reads undefined until set, then the stored id; ignores non-strings', async () => {
    const setting = embeddingModelSetting(db);
    expect(await setting.get()).toBeUndefined();
    await setting.set('Xenova/all-MiniLM-L6-v2');
    expect(await setting.get()).toBe('Xenova/all-MiniLM-L6-v2');
    expect((await db.settings.get(EMBEDDING_MODEL_KEY))?.value).toBe('Xenova/all-MiniLM-L6-v2');
    await db.settings.put({ key: EMBEDDING_MODEL_KEY, value: 42 });
    expect(await setting.get()).toBeUndefined();
  });
});

describe('after "Delete all data" from another connection (the UI)', () => {
  it('the worker’s store reopens the database and keeps working', async () => {
    const ui = new ToolMemDB(db.name);
    await store.put([{ modelId: 'm', hash: 'h', vector: new Float32Array([1]) }]);
    await ui.delete();
    await ui.open();
    expect(await store.get([{ modelId: 'm', hash: 'h' }])).toEqual([undefined]);
    await store.put([{ modelId: 'm', hash: 'h', vector: new Float32Array([1]) }]);
    expect(await store.count()).toBe(1);
    ui.close();
  });
});
