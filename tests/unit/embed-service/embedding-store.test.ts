import { withDb } from '../helpers/db';
import { describe, expect, it } from 'vitest';
import { cachedEmbed, type Embedder } from '../../../src/core/embed';
import { DexieEmbeddingStore, EMBEDDING_MODEL_KEY, ToolMemDB, embeddingModelSetting } from '../../../src/db';

let db: ToolMemDB;

/** Blocks in the order they were written: their key rows' auto-increment order (block ids are random). */
async function blocksInWriteOrder(d: ToolMemDB) {
  const keys = await d.embeddingKeys.toArray();
  return (await d.embeddingBlocks.bulkGet(keys.map((k) => k.block))).map((b) => b!);
}
let store: DexieEmbeddingStore;

withDb('embed-store', (t) => {
  db = t.db;
  store = new DexieEmbeddingStore(db);
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

  it('packs each put into one block (its own bytes, hashes in row order); a later put of a key wins', async () => {
    const pool = new Float32Array(1000).fill(0.5);
    await store.put([
      { modelId: 'm', hash: 'h', vector: pool.subarray(10, 12) },
      { modelId: 'm', hash: 'g', vector: new Float32Array([1, 2]) },
    ]);
    const [block] = await db.embeddingBlocks.toArray();
    expect(block).toMatchObject({ model: 'm', dim: 2, hashes: ['h', 'g'] });
    expect(Array.from(block!.vectors)).toEqual([0.5, 0.5, 1, 2]);
    expect(block!.vectors.buffer.byteLength).toBe(16);
    expect(await db.embeddingKeys.toArray()).toEqual([{ id: 1, block: block!.id, model: 'm', hashes: ['h', 'g'] }]);
    await store.put([{ modelId: 'm', hash: 'h', vector: new Float32Array([3, 4]) }]);
    expect(
      (
        await store.get([
          { modelId: 'm', hash: 'h' },
          { modelId: 'm', hash: 'g' },
        ])
      ).map((v) => Array.from(v!)),
    ).toEqual([
      [3, 4],
      [1, 2],
    ]);
    expect(await store.count('m')).toBe(2);
  });

  it('splits a put into blocks of at most 512 vectors, one vector length per block', async () => {
    const recs = Array.from({ length: 1030 }, (_, i) => ({ modelId: 'm', hash: `h${i}`, vector: new Float32Array(i === 1029 ? [i, 0, 0] : [i, 0]) }));
    await store.put(recs);
    expect((await blocksInWriteOrder(db)).map((b) => [b.hashes.length, b.dim])).toEqual([
      [512, 2],
      [512, 2],
      [5, 2],
      [1, 3],
    ]);
    const got = await store.get([
      { modelId: 'm', hash: 'h1028' },
      { modelId: 'm', hash: 'h1029' },
      { modelId: 'm', hash: 'h513' },
    ]);
    expect(got.map((v) => Array.from(v!))).toEqual([
      [1028, 0],
      [1029, 0, 0],
      [513, 0],
    ]);
  });

  it('sees what another store (another worker) writes, reading only the new key rows', async () => {
    const other = new DexieEmbeddingStore(db);
    await store.put([{ modelId: 'm', hash: 'a', vector: new Float32Array([1, 1]) }]);
    expect(Array.from((await other.get([{ modelId: 'm', hash: 'a' }]))[0]!)).toEqual([1, 1]);
    await store.put([{ modelId: 'm', hash: 'b', vector: new Float32Array([2, 2]) }]);
    const ask = ['a', 'b', 'c'].map((hash) => ({ modelId: 'm', hash }));
    expect((await other.get(ask)).map((v) => (v ? Array.from(v) : undefined))).toEqual([[1, 1], [2, 2], undefined]);
    // A cleared cache (e.g. by the bench, or a reset) is noticed: its key count no longer adds up.
    await db.embeddingKeys.clear();
    await db.embeddingBlocks.clear();
    expect(await other.get(ask)).toEqual([undefined, undefined, undefined]);
    expect(await other.count()).toBe(0);
  });

  it('never answers another text’s vector when the database was deleted and refilled under it', async () => {
    await store.put([{ modelId: 'm', hash: 'a', vector: new Float32Array([1, 1]) }]);
    expect(await store.count()).toBe(1); // this store now knows: block 1 holds 'a'
    const ui = new ToolMemDB(db.name);
    await ui.delete();
    await ui.open();
    // Block 1 of the new database holds 'b', and the key count (1) is what this store expects.
    await new DexieEmbeddingStore(ui).put([{ modelId: 'm', hash: 'b', vector: new Float32Array([2, 2]) }]);
    expect(await store.get([{ modelId: 'm', hash: 'a' }])).toEqual([undefined]);
    expect(Array.from((await store.get([{ modelId: 'm', hash: 'b' }]))[0]!)).toEqual([2, 2]);
    ui.close();
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
