// The v4 → v5 upgrade of the embedding cache: one-vector rows become blocks, and every cached text
// stays a hit with the same vector (fake-indexeddb).
import { SCHEMA_V4 as V4 } from '../helpers/db';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { sha256HexSync } from '../../../src/core/embed/sha256';
import { BLOCK_VECTORS } from '../../../src/db/embedding-blocks';
import { DexieEmbeddingStore, ToolMemDB, exportBackup, restoreBackup } from '../../../src/db';

let n = 0;

describe('schema v5: the embedding cache in blocks', () => {
  it('upgrades a v4 cache: every old row is a hit with the same vector, per model; the old table is gone', async () => {
    const name = `embed-v4-${++n}`;
    const old = new Dexie(name);
    old.version(4).stores(V4);
    // 600 vectors of one model (more than a block holds), 2 of another of another length, one unusable row.
    const glove = Array.from({ length: 600 }, (_, i) => ({
      model: 'glove-100d@2790b023',
      hash: sha256HexSync(`prompt ${i}`),
      vector: new Float32Array([i, -i, 0.5]),
    }));
    const mini = [
      { model: 'mini@1', hash: sha256HexSync('prompt 0'), vector: new Float32Array([0.6, 0.8]) },
      { model: 'mini@1', hash: sha256HexSync('other'), vector: new Float32Array([1, 0]) },
    ];
    await old.table('embeddings').bulkAdd([...glove, ...mini, { model: 'mini@1', hash: 'broken', vector: [1, 2] }]);
    await old.table('settings').put({ key: 'embeddingModel', value: 'glove-100d' });
    old.close();

    const db = new ToolMemDB(name);
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(5);
    expect(db.tables.map((t) => t.name)).not.toContain('embeddings');
    expect((await db.settings.get('embeddingModel'))?.value).toBe('glove-100d');
    // In write order (the key rows' auto-increment ids; block ids are random).
    const keys = await db.embeddingKeys.toArray();
    const blocks = (await db.embeddingBlocks.bulkGet(keys.map((k) => k.block))).map((b) => b!);
    // glove: 512 + 88; mini: 2 (the row whose vector is not a Float32Array was a miss and is dropped).
    expect(blocks.map((b) => [b.model, b.hashes.length, b.dim])).toEqual([
      ['glove-100d@2790b023', BLOCK_VECTORS, 3],
      ['glove-100d@2790b023', 88, 3],
      ['mini@1', 2, 2],
    ]);
    expect(keys.map((k) => [k.model, k.hashes])).toEqual(blocks.map((b) => [b.model, b.hashes]));
    expect(await db.embeddingBlocks.count()).toBe(3);

    const store = new DexieEmbeddingStore(db);
    const got = await store.get(glove.map((r) => ({ modelId: r.model, hash: r.hash })));
    expect(got.every((v, i) => v !== undefined && Array.from(v).join() === [i, -i, 0.5].join())).toBe(true);
    const other = await store.get([...mini.map((r) => ({ modelId: r.model, hash: r.hash })), { modelId: 'mini@1', hash: 'broken' }]);
    expect(other.map((v) => (v ? Array.from(v) : undefined))).toEqual([[Math.fround(0.6), Math.fround(0.8)], [1, 0], undefined]);
    expect([await store.count('glove-100d@2790b023'), await store.count('mini@1'), await store.count()]).toEqual([600, 2, 602]);
    await db.delete();
  });

  it('upgrades an empty v4 cache to empty block tables', async () => {
    const name = `embed-v4-${++n}`;
    const old = new Dexie(name);
    old.version(4).stores(V4);
    await old.open();
    old.close();
    const db = new ToolMemDB(name);
    await db.open();
    expect([await db.embeddingBlocks.count(), await db.embeddingKeys.count()]).toEqual([0, 0]);
    await db.delete();
  });

  it('backups leave the cache out, a restore keeps it, and a file listing the old `embeddings` table restores', async () => {
    const db = new ToolMemDB(`embed-backup-${++n}`);
    await db.open();
    const store = new DexieEmbeddingStore(db);
    await store.put([{ modelId: 'm@1', hash: 'h', vector: new Float32Array([0.5, 0.25]) }]);
    await db.tools.put({ id: 'T', name: 'T', modality: 'other', description: '', createdAt: 1 });
    const doc = JSON.parse(await (await exportBackup(db)).text()) as { tables: Record<string, unknown[]> };
    expect(Object.keys(doc.tables)).toContain('tools');
    expect(Object.keys(doc.tables).filter((t) => t.startsWith('embedding'))).toEqual([]);
    const counts = await restoreBackup(db, JSON.stringify({ ...doc, tables: { ...doc.tables, embeddings: [] } }));
    expect(counts).toMatchObject({ tools: 1 });
    expect(counts).not.toHaveProperty('embeddings');
    expect(Array.from((await store.get([{ modelId: 'm@1', hash: 'h' }]))[0]!)).toEqual([0.5, 0.25]);
    await db.delete();
  });
});
