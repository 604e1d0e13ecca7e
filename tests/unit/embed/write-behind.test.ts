import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cachedEmbed,
  MemoryEmbeddingStore,
  sha256Hex,
  writeSize,
  type EmbeddingBatch,
  type Embedder,
  type EmbeddingKey,
  type EmbeddingRecord,
} from '../../../src/core/embed';
import { sha256HexSync } from '../../../src/core/embed/sha256';
import { WriteBehind } from '../../../src/core/embed/write-behind';
import { CancelledError } from '../../../src/core/errors';

/** A store whose writes wait until the test releases them, recording each `put`'s size. */
function gatedStore() {
  const inner = new MemoryEmbeddingStore();
  const puts: number[] = [];
  const gates: (() => void)[] = [];
  let failWith: unknown = null;
  return {
    inner,
    puts,
    failNext(err: unknown) {
      failWith = err;
    },
    release() {
      gates.splice(0).forEach((open) => open());
    },
    pending: () => gates.length,
    store: {
      get: (keys: readonly EmbeddingKey[]) => inner.get(keys),
      async put(records: readonly EmbeddingRecord[]) {
        puts.push(records.length);
        await new Promise<void>((resolve) => gates.push(resolve));
        if (failWith) throw failWith;
        await inner.put(records);
      },
    },
  };
}

const record = (i: number): EmbeddingRecord => ({ modelId: 'm@1', hash: String(i), vector: new Float32Array([i]) });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sha256HexSync', () => {
  it('matches the FIPS 180-2 vectors, including a two-block message and one million a’s', async () => {
    expect(sha256HexSync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexSync('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    expect(sha256HexSync('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('equals the standard digest of the UTF-8 bytes at every padding boundary and for non-ASCII text', () => {
    const texts = ['一位面包师', '😀 a cat \u0000 on a mat', 'lone \ud800 surrogate'];
    for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 128]) texts.push('x'.repeat(n), 'é'.repeat(n));
    for (const t of texts)
      expect(sha256HexSync(t), JSON.stringify(t)).toBe(
        createHash('sha256')
          .update(Buffer.from(new TextEncoder().encode(t)))
          .digest('hex'),
      );
    // A long text after a short one: the reused buffer holds no stale bytes.
    expect(sha256HexSync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('WriteBehind', () => {
  it('keeps one write in flight and sends what queued meanwhile as one write, in order', async () => {
    const g = gatedStore();
    const w = new WriteBehind(g.store);
    w.add([record(1), record(2)]);
    await tick();
    w.add([record(3)]);
    w.add([record(4), record(5)]);
    expect(g.puts).toEqual([2]);
    g.release();
    await tick();
    expect(g.puts).toEqual([2, 3]);
    g.release();
    await w.drain();
    expect(g.inner.size).toBe(5);
    expect(w.failure).toBeUndefined();
  });

  it('waits for minWrite records before a write, and writes the rest when asked for room or drained', async () => {
    const g = gatedStore();
    const w = new WriteBehind(g.store, 3);
    w.add([record(1), record(2)]);
    await tick();
    expect(g.puts).toEqual([]);
    w.add([record(3)]);
    await tick();
    expect(g.puts).toEqual([3]);
    w.add([record(4)]);
    g.release();
    await tick();
    // One record waits, fewer than minWrite: no write until room is needed.
    expect(g.puts).toEqual([3]);
    const room = w.waitForRoom(1);
    await tick();
    expect(g.puts).toEqual([3, 1]);
    g.release();
    await room;
    w.add([record(5)]);
    const drained = w.drain();
    await tick();
    expect(g.puts).toEqual([3, 1, 1]);
    g.release();
    await drained;
    expect(g.inner.size).toBe(5);
  });

  it('keeps the first failure, starts no later write, and drain still resolves', async () => {
    const g = gatedStore();
    const w = new WriteBehind(g.store);
    const full = new Error('disk full');
    g.failNext(full);
    w.add([record(1)]);
    await tick();
    w.add([record(2)]);
    g.release();
    await w.drain();
    expect(w.failure).toBe(full);
    expect(() => w.throwIfFailed()).toThrow('disk full');
    w.add([record(3)]);
    await w.drain();
    expect(g.puts).toEqual([1]);
  });
});

/** A fake model (vector from the text length) that counts calls and can abort after n calls. */
function fakeModel(abortAfter?: { calls: number; controller: AbortController }) {
  const stats = { calls: 0 };
  const embedder: Embedder = {
    id: 'fake@1',
    dim: 2,
    async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
      stats.calls++;
      if (abortAfter && stats.calls === abortAfter.calls) abortAfter.controller.abort();
      return { dim: 2, count: texts.length, data: Float32Array.from(texts.flatMap((t) => [t.length, 1])) };
    },
  };
  return { embedder, stats };
}

const texts = Array.from({ length: 40 }, (_, i) => `text ${i}`);

describe('cachedEmbed writes behind the model', () => {
  it('groups a long call into writes of writeSize vectors (an eighth of the misses, from a batch to 256)', async () => {
    expect(writeSize(4000, 32, 512)).toBe(256);
    expect(writeSize(150, 32, 512)).toBe(32);
    expect(writeSize(1000, 32, 512)).toBe(125);
    expect(writeSize(4000, 32, 100)).toBe(50);
    const inner = new MemoryEmbeddingStore();
    const puts: number[] = [];
    const store = { get: (keys: readonly EmbeddingKey[]) => inner.get(keys), put: (r: readonly EmbeddingRecord[]) => (puts.push(r.length), inner.put(r)) };
    const many = Array.from({ length: 4000 }, (_, i) => `text ${i}`);
    await cachedEmbed(fakeModel().embedder, store, many);
    expect(inner.size).toBe(4000);
    expect(puts.reduce((a, b) => a + b, 0)).toBe(4000);
    // 256 = 8 batches of 32 per write, the last one what remains (4,000 = 15 × 256 + 160).
    expect(puts).toEqual([...Array<number>(15).fill(256), 160]);
  });

  it('embeds the next batch while a write is in flight, never more; returns only once every vector is stored', async () => {
    const g = gatedStore();
    const { embedder, stats } = fakeModel();
    let settled = false;
    const run = cachedEmbed(embedder, g.store, texts, { batchSize: 10, maxUnwritten: 10 }).then((r) => ((settled = true), r));
    await tick();
    // Batch 2 was embedded while batch 1's write is held, and batch 2 waits for it: with maxUnwritten
    // equal to the batch size the model is at most one batch ahead of storage.
    expect(stats.calls).toBe(2);
    expect(g.puts).toEqual([10]);
    for (let i = 0; i < 3; i++) {
      g.release();
      await tick();
      expect(settled).toBe(false);
    }
    expect(g.puts).toEqual([10, 10, 10, 10]);
    expect(stats.calls).toBe(4);
    g.release();
    const res = await run;
    expect(g.inner.size).toBe(40);
    // A read-back is served entirely from the store, byte for byte.
    const again = await cachedEmbed(embedder, g.inner, texts);
    expect(again.modelCalls).toBe(0);
    expect(Array.from(again.batch.data)).toEqual(Array.from(res.batch.data));
  });

  it('runs the model ahead of a held write up to maxUnwritten vectors, then sends what waited as one write', async () => {
    const g = gatedStore();
    const { embedder, stats } = fakeModel();
    const run = cachedEmbed(embedder, g.store, texts, { batchSize: 10, maxUnwritten: 30 });
    await tick();
    // Batch 1 is being written; batches 2 and 3 wait behind it (30 unwritten); batch 4 is embedded and waits.
    expect(stats.calls).toBe(4);
    expect(g.puts).toEqual([10]);
    g.release();
    await tick();
    // Batches 2 and 3 went as one write; batch 4 queued behind it.
    expect(g.puts).toEqual([10, 20]);
    g.release();
    await tick();
    expect(g.puts).toEqual([10, 20, 10]);
    g.release();
    await run;
    expect(g.inner.size).toBe(40);
  });

  it('keeps finished batches when cancelled while their writes are in flight', async () => {
    const g = gatedStore();
    const controller = new AbortController();
    const { embedder } = fakeModel({ calls: 2, controller });
    const run = cachedEmbed(embedder, g.store, texts, { batchSize: 10, signal: controller.signal });
    let error: unknown;
    run.catch((e: unknown) => (error = e));
    await tick();
    expect(error).toBeUndefined(); // still waiting for the held write
    g.release();
    await tick();
    g.release();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(g.inner.size).toBe(20);
  });

  it('stops at the next batch and throws the write error when a write fails', async () => {
    const g = gatedStore();
    const full = new Error('storage full');
    g.failNext(full);
    const { embedder, stats } = fakeModel();
    const slowModel: Embedder = { ...embedder, embed: async (t, o) => (await tick(), embedder.embed(t, o)) };
    const run = cachedEmbed(slowModel, g.store, texts, { batchSize: 10 });
    await tick();
    await tick();
    g.release();
    await expect(run).rejects.toBe(full);
    expect(stats.calls).toBeLessThan(4);
    expect(g.inner.size).toBe(0);
  });
});
