/**
 * The embed service as the worker runs it, in-thread: real model (glove-100d through
 * transformers.js on onnxruntime-node), real Dexie store (fake-indexeddb), no network.
 */
import { withDb } from '../helpers/db';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cosine, rowOf, type ModelLoadProgress } from '../../../src/core/embed';
import { CancelledError } from '../../../src/core/errors';
import { DexieEmbeddingStore, EMBEDDING_MODEL_KEY, embeddingModelSetting, type ToolMemDB } from '../../../src/db';
import { DEFAULT_MODELS_DIR } from '../../../src/model-host/transformers-embedder';
import { createClient, createInThreadClient, expose, isTransferred, type Client } from '../../../src/rpc';
import { isModelLoadError, type EmbedApi, type EmbedCallProgress } from '../../../src/model-host/embed-api';
import { createNodeEmbedHost } from '../../../src/model-host/embed-node';
import { createEmbedHandlers, thinProgress } from '../../../src/model-host/embed-service';
import { forbidNetwork } from '../embed/offline-guard';

const GLOVE_ID = /^glove-100d@[0-9a-f]{8}$/;
let db: ToolMemDB;
let store: DexieEmbeddingStore;
let client: Client<EmbedApi>;
let guard: { attempts: string[] };
let modelsDir: string;

function service(dir = DEFAULT_MODELS_DIR) {
  return createEmbedHandlers({ host: createNodeEmbedHost({ modelsDir: dir }), store, setting: embeddingModelSetting(db) });
}

beforeAll(() => {
  guard = forbidNetwork();
  // A second local model: the bundled files under another folder name.
  modelsDir = mkdtempSync(join(tmpdir(), 'toolmem-models-'));
  symlinkSync(join(DEFAULT_MODELS_DIR, 'glove-100d'), join(modelsDir, 'glove-100d'), 'dir');
  symlinkSync(join(DEFAULT_MODELS_DIR, 'glove-100d'), join(modelsDir, 'glove-copy'), 'dir');
});
afterAll(() => {
  vi.unstubAllGlobals();
  rmSync(modelsDir, { recursive: true, force: true });
  expect(guard.attempts).toEqual([]);
});
withDb('embed-svc', (t) => {
  db = t.db;
  store = new DexieEmbeddingStore(db);
  client = createInThreadClient(service());
});

const TEXTS = ['A red apple on a wooden table.', 'An apple sits on a table made of wood.', 'The stock market fell sharply.'];

describe('embed service (in-thread, Node embedder, fake-indexeddb)', () => {
  it('describes the bundled model without loading it, then loads it with progress', async () => {
    const before = await client.call('info', {});
    expect(before).toMatchObject({ model: 'glove-100d', source: 'bundled', dim: 100, backend: 'cpu', loaded: false });
    expect(before.id).toMatch(GLOVE_ID);

    const events: ModelLoadProgress[] = [];
    const loaded = await client.call('load', {}, { onProgress: (p) => events.push(p) });
    expect(loaded).toMatchObject({ model: 'glove-100d', id: before.id, dim: 100, loaded: true });
    expect(loaded.sizeBytes).toBeGreaterThan(4_000_000);
    expect(events.map((e) => e.status)).toContain('ready');
    expect(await client.call('info', {})).toEqual(loaded);
  });

  it('embeds through the IndexedDB cache: a second run of the same texts makes 0 model calls', async () => {
    const first = await client.call('embed', { texts: TEXTS });
    expect(first).toMatchObject({ dim: 100, count: 3, modelCalls: 1, hits: 0, misses: 3 });
    expect(first.id).toMatch(GLOVE_ID);
    expect(first.data).toBeInstanceOf(Float32Array);
    expect(first.data.length).toBe(300);
    expect(await store.count(first.id)).toBe(3);

    const second = await client.call('embed', { texts: TEXTS });
    expect(second).toMatchObject({ modelCalls: 0, hits: 3, misses: 0 });
    expect(Array.from(second.data)).toEqual(Array.from(first.data));
    expect(cosine(rowOf(first, 0), rowOf(first, 1))).toBeGreaterThan(cosine(rowOf(first, 0), rowOf(first, 2)));

    // A new service over the same database (a reloaded tab) still hits the cache.
    const fresh = createInThreadClient(service());
    expect(await fresh.call('embed', { texts: [TEXTS[2]!, TEXTS[0]!] })).toMatchObject({ modelCalls: 0, hits: 2 });
  });

  it('embeds in batches of 32, deduplicates and reports progress up to the total', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `sentence number ${i} about a quiet river`);
    const events: EmbedCallProgress[] = [];
    const res = await client.call('embed', { texts: [...texts, texts[0]!] }, { onProgress: (p) => events.push(p) });
    expect(res).toMatchObject({ count: 71, modelCalls: 3, misses: 70, hits: 0 });
    expect(Array.from(rowOf(res, 70))).toEqual(Array.from(rowOf(res, 0)));
    const embed = events.filter((e) => e.phase === 'embed');
    expect(embed.at(-1)).toEqual({ phase: 'embed', done: 70, total: 70 });
    expect(embed.map((e) => e.done)).toEqual([...embed.map((e) => e.done)].sort((a, b) => a - b));
  });

  it('thins progress to steps of at least 2% of the total, always passing the first and the last', () => {
    const seen: number[] = [];
    const report = thinProgress((p) => seen.push(p.done));
    for (let done = 0; done < 4000; done += 32) report({ done, total: 4000 });
    report({ done: 4000, total: 4000 }); // the last batch is short: 4,000 is not a step after 3,968
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(4000);
    expect(seen.length).toBeLessThanOrEqual(52);
    for (let i = 1; i < seen.length - 1; i++) expect(seen[i]! - seen[i - 1]!).toBeGreaterThanOrEqual(80);
    const small: number[] = [];
    const each = thinProgress((p) => small.push(p.done));
    for (const done of [0, 32, 64, 70]) each({ done, total: 70 });
    expect(small).toEqual([0, 32, 64, 70]); // small calls keep every batch
  });

  it('cache: false always runs the model and stores nothing', async () => {
    const res = await client.call('embed', { texts: TEXTS, cache: false, batchSize: 2 });
    expect(res).toMatchObject({ count: 3, modelCalls: 2, hits: 0, misses: 3 });
    expect(await store.count()).toBe(0);
    const cached = await client.call('embed', { texts: TEXTS });
    expect(Array.from(cached.data)).toEqual(Array.from(res.data));
  });

  it('gives blank and unknown-only texts zero vectors (not NaN)', async () => {
    const res = await client.call('embed', { texts: ['', '   ', '!!! ???', 'a river'] });
    for (let i = 0; i < 3; i++) expect(Array.from(rowOf(res, i)).every((x) => x === 0)).toBe(true);
    expect(Array.from(rowOf(res, 3)).every(Number.isFinite)).toBe(true);
  });

  it('cancels between batches and keeps the batches already stored', async () => {
    const texts = Array.from({ length: 200 }, (_, i) => `cancel test ${i} with a red bicycle`);
    await client.call('load', {});
    const controller = new AbortController();
    const call = client.call(
      'embed',
      { texts, batchSize: 32 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'embed' && p.done >= 32) controller.abort();
        },
      },
    );
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    await vi.waitFor(async () => expect(await store.count()).toBeGreaterThanOrEqual(32));
    const stored = await store.count();
    expect(stored).toBeLessThan(200);
    const again = await client.call('embed', { texts });
    expect(again.hits).toBe(stored);
  });

  it('rejects bad requests', async () => {
    await expect(client.call('embed', { texts: 'no' as unknown as string[] })).rejects.toThrow(TypeError);
    await expect(client.call('embed', { texts: [1 as unknown as string] })).rejects.toThrow(/array of strings/);
  });
});

describe('transfer', () => {
  it('the handler marks the packed vectors for transfer', async () => {
    const handlers = service();
    const ctx = { signal: new AbortController().signal, progress: () => undefined };
    const reply = await handlers.embed({ texts: TEXTS }, ctx);
    expect(isTransferred(reply)).toBe(true);
    if (!isTransferred(reply)) return;
    const value = reply.value as { data: Float32Array };
    expect(reply.transferables).toEqual([value.data.buffer]);
  });

  it('over a MessageChannel the buffer moves: detached on the worker side, whole on the client side', async () => {
    const handlers = service();
    const sent: Float32Array[] = [];
    const spying = {
      ...handlers,
      embed: async (req: Parameters<typeof handlers.embed>[0], ctx: Parameters<typeof handlers.embed>[1]) => {
        const reply = await handlers.embed(req, ctx);
        if (isTransferred(reply)) sent.push((reply.value as { data: Float32Array }).data);
        return reply;
      },
    };
    const channel = new MessageChannel();
    const server = expose<EmbedApi>(spying, channel.port1);
    const remote = createClient<EmbedApi>(channel.port2);
    try {
      const res = await remote.call('embed', { texts: TEXTS });
      expect(res.data).toBeInstanceOf(Float32Array);
      expect(res.data.length).toBe(300);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.buffer.byteLength).toBe(0); // transferred, not copied
    } finally {
      remote.dispose();
      server.dispose();
      channel.port1.close();
      channel.port2.close();
    }
  });
});

describe('model choice', () => {
  it('switches to another local model, persists it, and re-embeds nothing eagerly', async () => {
    client = createInThreadClient(service(modelsDir));
    const before = await client.call('embed', { texts: TEXTS });
    expect(await store.count()).toBe(3);

    const info = await client.call('setModel', { model: 'glove-copy' });
    expect(info).toMatchObject({ model: 'glove-copy', source: 'local-folder', dim: 100, loaded: true });
    expect(info.id).toMatch(/^glove-copy@[0-9a-f]{8}$/);
    expect((await db.settings.get(EMBEDDING_MODEL_KEY))?.value).toBe('glove-copy');
    expect(await store.count()).toBe(3); // nothing re-embedded

    // The new id is the cache key: same texts are misses now, then hits.
    const after = await client.call('embed', { texts: TEXTS });
    expect(after).toMatchObject({ id: info.id, modelCalls: 1, misses: 3 });
    expect(Array.from(after.data)).toEqual(Array.from(before.data)); // same files, same vectors
    expect(await store.count(info.id)).toBe(3);

    // A new service (a reloaded worker) starts with the persisted choice.
    const reloaded = createInThreadClient(service(modelsDir));
    expect(await reloaded.call('info', {})).toMatchObject({ model: 'glove-copy', loaded: false });
    expect(await reloaded.call('embed', { texts: TEXTS })).toMatchObject({ modelCalls: 0, hits: 3 });

    // And back to the bundled one.
    expect(await client.call('setModel', { model: 'glove-100d' })).toMatchObject({ model: 'glove-100d', source: 'bundled' });
    expect(await client.call('embed', { texts: TEXTS })).toMatchObject({ modelCalls: 0, hits: 3 });
  });

  it('a model that cannot be loaded leaves the previous one active and the setting unchanged', async () => {
    await client.call('load', {});
    const err = await client.call('setModel', { model: 'Xenova/all-MiniLM-L6-v2' }).catch((e: unknown) => e);
    expect(isModelLoadError(err)).toBe(true);
    expect(err).toMatchObject({ reason: 'not-found', model: 'Xenova/all-MiniLM-L6-v2' });
    expect(await db.settings.get(EMBEDDING_MODEL_KEY)).toBeUndefined();
    expect(await client.call('info', {})).toMatchObject({ model: 'glove-100d', loaded: true });
    expect(await client.call('embed', { texts: ['still works'] })).toMatchObject({ count: 1 });
  });

  it('rejects ids that are not model ids (paths, URLs, blanks)', async () => {
    for (const bad of ['', '  ', '../secret', 'https://example.com/model', 'a/b/c', 'x'.repeat(300)]) {
      const err = await client.call('setModel', { model: bad }).catch((e: unknown) => e);
      expect(err, bad).toMatchObject({ name: 'ModelLoadError', reason: 'invalid' });
    }
  });

  it('a persisted id that is no longer valid falls back to the bundled model', async () => {
    await db.settings.put({ key: EMBEDDING_MODEL_KEY, value: '../../etc' });
    expect(await createInThreadClient(service()).call('info', {})).toMatchObject({ model: 'glove-100d' });
  });
});
