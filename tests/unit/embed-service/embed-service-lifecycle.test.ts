/** The service's model lifecycle with a scripted host: lazy singleton, shared loads, retries, switching. */
import { describe, expect, it } from 'vitest';
import { MemoryEmbeddingStore, type Embedder, type ModelLoadProgress } from '../../../src/core/embed';
import { CancelledError } from '../../../src/core/errors';
import { createInThreadClient } from '../../../src/rpc';
import { ModelLoadError, type EmbedApi, type EmbedCallProgress } from '../../../src/model-host/embed-api';
import { createEmbedHandlers, type EmbedHost, type LoadedModel } from '../../../src/model-host/embed-service';

interface Pending {
  model: string;
  progress: (p: ModelLoadProgress) => void;
  resolve: (m: LoadedModel) => void;
  reject: (e: unknown) => void;
}

function fakeEmbedder(id: string, log: string[]): Embedder {
  return {
    id,
    dim: 2,
    async embed(texts) {
      log.push(`embed:${id}:${texts.length}`);
      return { dim: 2, count: texts.length, data: new Float32Array(texts.length * 2).fill(Math.SQRT1_2) };
    },
    async dispose() {
      log.push(`dispose:${id}`);
    },
  };
}

function scriptedHost() {
  const pending: Pending[] = [];
  const log: string[] = [];
  const host: EmbedHost = {
    async describe(model) {
      return { source: model.includes('/') ? 'hub' : 'bundled', id: model, dim: 2, sizeBytes: null, backend: 'wasm', threads: 1 };
    },
    load(model, progress) {
      log.push(`load:${model}`);
      return new Promise((resolve, reject) => pending.push({ model, progress, resolve, reject }));
    },
  };
  const finish = (i = 0) => {
    const p = pending.splice(i, 1)[0]!;
    p.progress({ status: 'progress_total', loaded: 10, total: 10, progress: 100 });
    p.resolve({ embedder: fakeEmbedder(p.model, log), source: 'bundled', backend: 'wasm', threads: 1, sizeBytes: 10 });
  };
  return { host, pending, log, finish };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

function setup(persisted?: string) {
  const s = scriptedHost();
  let stored = persisted;
  const client = createInThreadClient<EmbedApi>(
    createEmbedHandlers({
      host: s.host,
      store: new MemoryEmbeddingStore(),
      setting: { get: async () => stored, set: async (m) => void (stored = m) },
    }),
  );
  return { ...s, client, stored: () => stored };
}

describe('embed service lifecycle', () => {
  it('loads lazily, once, and every concurrent caller gets the progress and the result', async () => {
    const t = setup();
    expect(await t.client.call('info', {})).toMatchObject({ model: 'glove-100d', loaded: false });
    expect(t.log).toEqual([]);
    const a: ModelLoadProgress[] = [];
    const b: EmbedCallProgress[] = [];
    const load = t.client.call('load', {}, { onProgress: (p) => a.push(p) });
    const embed = t.client.call('embed', { texts: ['x'] }, { onProgress: (p) => b.push(p) });
    await tick();
    expect(t.log).toEqual(['load:glove-100d']);
    t.finish();
    expect(await load).toMatchObject({ loaded: true, sizeBytes: 10 });
    expect(await embed).toMatchObject({ count: 1, modelCalls: 1 });
    expect(a).toEqual([{ status: 'progress_total', loaded: 10, total: 10, progress: 100 }]);
    expect(b[0]).toEqual({ phase: 'load', load: a[0] });
    expect(b.at(-1)).toEqual({ phase: 'embed', done: 1, total: 1 });
  });

  it('forgets a failed load, so the next call tries again', async () => {
    const t = setup();
    const first = t.client.call('load', {});
    await tick();
    t.pending.shift()!.reject(new ModelLoadError('nope', 'failed', 'glove-100d'));
    await expect(first).rejects.toThrow('nope');
    const second = t.client.call('load', {});
    await tick();
    t.finish();
    expect(await second).toMatchObject({ loaded: true });
    expect(t.log.filter((l) => l.startsWith('load:'))).toHaveLength(2);
  });

  it('cancelling a waiting caller does not cancel the shared load', async () => {
    const t = setup();
    const controller = new AbortController();
    const cancelled = t.client.call('load', {}, { signal: controller.signal });
    const other = t.client.call('load', {});
    await tick();
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    t.finish();
    expect(await other).toMatchObject({ loaded: true });
  });

  it('setModel switches only after the new model loaded; a cancelled switch keeps the old model', async () => {
    const t = setup();
    await Promise.all([t.client.call('load', {}), tick().then(() => t.finish())]);

    const controller = new AbortController();
    const switching = t.client.call('setModel', { model: 'org/model-a' }, { signal: controller.signal });
    await tick();
    controller.abort();
    await expect(switching).rejects.toBeInstanceOf(CancelledError);
    t.finish(); // the abandoned load finishes later and is thrown away
    await tick();
    expect(t.log).toContain('dispose:org/model-a');
    expect(t.stored()).toBeUndefined();
    expect(await t.client.call('info', {})).toMatchObject({ model: 'glove-100d', loaded: true });

    const ok = t.client.call('setModel', { model: 'org/model-b' });
    await tick();
    t.finish();
    expect(await ok).toMatchObject({ model: 'org/model-b', loaded: true });
    expect(t.stored()).toBe('org/model-b');
    await tick();
    expect(t.log).toContain('dispose:glove-100d'); // the old model is released once unused
    expect(await t.client.call('embed', { texts: ['y'] })).toMatchObject({ id: 'org/model-b' });
  });

  it('starts with the persisted model', async () => {
    const t = setup('org/model-c');
    expect(await t.client.call('info', {})).toMatchObject({ model: 'org/model-c', source: 'hub' });
  });
});
