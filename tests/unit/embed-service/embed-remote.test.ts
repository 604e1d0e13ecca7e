/**
 * The embedder other workers use (src/model-host/embed-remote.ts): the embed worker's handlers
 * behind an in-thread client, and behind a real MessageChannel the way the memory and predictors workers
 * reach the embed worker (a `connect`ed port, kept by a PortClient).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryEmbeddingStore, type Embedder } from '../../../src/core/embed';
import { CancelledError, ValidationError } from '../../../src/core/errors';
import { createInThreadClient, expose, PortClient, type ConnectApi, type Handlers } from '../../../src/rpc';
import type { EmbedApi } from '../../../src/model-host/embed-api';
import { REMOTE_EMBED_CHUNK, remoteEmbedder } from '../../../src/model-host/embed-remote';
import { createEmbedHandlers, type EmbedHost } from '../../../src/model-host/embed-service';

const DIM = 3;

/** A model whose vector of a text is [length, 1, 0] (unnormalised: the values are checked as they are). */
function fakeHost(opts: { gate?: Promise<void> } = {}) {
  const calls: string[][] = [];
  const signals: AbortSignal[] = [];
  const embedderOf = (model: string): Embedder => ({
    id: `${model}@1`,
    dim: DIM,
    async embed(texts, o = {}) {
      calls.push([...texts]);
      if (o.signal) signals.push(o.signal);
      if (opts.gate) await opts.gate;
      o.signal?.throwIfAborted();
      const data = new Float32Array(texts.length * DIM);
      texts.forEach((t, i) => data.set([t.length, 1, 0], i * DIM));
      return { dim: DIM, count: texts.length, data };
    },
  });
  const host: EmbedHost = {
    describe: async (model) => ({ source: 'bundled', id: `${model}@1`, dim: DIM, sizeBytes: 0, backend: 'cpu', threads: 0 }),
    load: async (model) => ({ embedder: embedderOf(model), source: 'bundled', backend: 'cpu', threads: 0, sizeBytes: 0 }),
  };
  return { host, calls, signals };
}

function handlers(host: EmbedHost) {
  let model: string | undefined = 'fake';
  return createEmbedHandlers({ host, store: new MemoryEmbeddingStore(), setting: { get: async () => model, set: async (m) => void (model = m) } });
}

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** The embed worker as the app wires it: its handlers plus `connect`, served on one end of a channel. */
function embedWorkerOver(table: Handlers<EmbedApi>): PortClient<EmbedApi> {
  const serving: Handlers<EmbedApi & ConnectApi> = {
    ...table,
    connect({ port }) {
      expose<EmbedApi & ConnectApi>(serving, port);
      return null;
    },
  };
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const page = createInThreadClient(serving); // the page, which hands the consumer its port
  void page.call('connect', { port: port1 });
  const consumer = new PortClient<EmbedApi>('The embed worker');
  consumer.attach(port2);
  return consumer;
}

describe('remoteEmbedder', () => {
  it('embeds with the active model through the shared cache', async () => {
    const fake = fakeHost();
    const embedder = await remoteEmbedder(createInThreadClient(handlers(fake.host)));
    expect([embedder.id, embedder.dim]).toEqual(['fake@1', DIM]);

    const first = await embedder.embed(['a', 'bbb', 'a']);
    expect(first).toMatchObject({ dim: DIM, count: 3 });
    expect([...first.data]).toEqual([1, 1, 0, 3, 1, 0, 1, 1, 0]);
    expect(fake.calls).toEqual([['a', 'bbb']]); // duplicates embedded once

    const again = await embedder.embed(['bbb', 'cc']);
    expect([...again.data]).toEqual([3, 1, 0, 2, 1, 0]);
    expect(fake.calls).toEqual([['a', 'bbb'], ['cc']]); // 'bbb' came from the cache
  });

  it('runs the model for every text when the caller caches itself (cache: false)', async () => {
    const fake = fakeHost();
    const embedder = await remoteEmbedder(createInThreadClient(handlers(fake.host)), { cache: false });
    await embedder.embed(['a', 'b']);
    await embedder.embed(['a', 'b']);
    expect(fake.calls).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it('crosses a MessageChannel: vectors, progress in texts, and no call for no texts', async () => {
    const fake = fakeHost();
    const embedder = await remoteEmbedder(embedWorkerOver(handlers(fake.host)));
    const texts = Array.from({ length: 70 }, (_, i) => 'x'.repeat(i + 1));
    const seen: { done: number; total: number }[] = [];
    const batch = await embedder.embed(texts, { onProgress: (p) => seen.push(p) });
    expect(batch.count).toBe(70);
    expect(batch.data[69 * DIM]).toBe(70);
    expect(fake.calls.map((c) => c.length)).toEqual([32, 32, 6]);
    expect(seen[0]).toEqual({ done: 0, total: 70 });
    expect(seen.at(-1)).toEqual({ done: 70, total: 70 });
    expect(seen.map((p) => p.done)).toEqual([...seen.map((p) => p.done)].sort((a, b) => a - b));

    const none = await embedder.embed([]);
    expect(none).toEqual({ dim: DIM, count: 0, data: new Float32Array(0) });
    expect(fake.calls).toHaveLength(3);
  });

  it('cancels the embed worker’s batches when the caller aborts', async () => {
    let open!: () => void;
    const fake = fakeHost({ gate: new Promise<void>((resolve) => (open = resolve)) });
    const embedder = await remoteEmbedder(embedWorkerOver(handlers(fake.host)));
    const controller = new AbortController();
    const pending = embedder.embed(['a', 'b'], { signal: controller.signal });
    await expect.poll(() => fake.calls.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(() => fake.signals[0]?.aborted).toBe(true); // the cancel message reached the worker
    open();
  });

  it('fails instead of mixing two models when the model is switched in between', async () => {
    const fake = fakeHost();
    const client = createInThreadClient(handlers(fake.host));
    const embedder = await remoteEmbedder(client);
    await client.call('setModel', { model: 'other' });
    const err = await embedder.embed(['a']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe('The embedding model changed from fake@1 to other@1 while this was running; run it again to use other@1 throughout.');
  });

  it('splits very long lists into calls of 20,000 texts and puts every row in its place', async () => {
    const fake = fakeHost();
    const embedder = await remoteEmbedder(createInThreadClient(handlers(fake.host)), { cache: false });
    const texts = Array.from({ length: REMOTE_EMBED_CHUNK + 2 }, (_, i) => (i === REMOTE_EMBED_CHUNK + 1 ? 'last!' : 'a'));
    const seen: number[] = [];
    const batch = await embedder.embed(texts, { onProgress: (p) => seen.push(p.done) });
    expect(batch.count).toBe(20_002);
    expect(batch.data[20_001 * DIM]).toBe(5);
    expect(batch.data[19_999 * DIM]).toBe(1);
    expect(fake.calls.reduce((n, c) => n + c.length, 0)).toBe(20_002);
    expect(seen.at(-1)).toBe(20_002);
  });
});
