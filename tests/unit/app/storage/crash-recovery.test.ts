/**
 * Crashes and reloads in the middle of work: imports, evaluations and bulk embedding.
 * A "dead tab" is simulated the way the browser presents it: the work's rows stay as they were
 * written, its Web Lock is free (MemoryLocks stands in for navigator.locks), and — for work behind a
 * worker — the pending call rejects with WorkerCrashedError.
 */
import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DexieEmbeddingStore, type ToolMemDB } from '../../../../src/db';
import { createClient, createInThreadClient, expose, WorkerCrashedError, type Endpoint } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { createEvalHandlers } from '../../../../src/app/evaluate/evaluate';
import type { EvalResult } from '../../../../src/app/evaluate/api';
import { createEmbedHandlers, type EmbedHost } from '../../../../src/model-host/embed-service';
import { createEmbedDatasetHandlers, distinctPrompts, type EmbedDatasetApi } from '../../../../src/model-host/embed-dataset';
import { heldLocks, holdLock, importLockName, MemoryLocks, runLockName, whenFree } from '../../../../src/platform/locks';
import { INTERRUPTED_REASON, recoverInterruptedRuns, wasInterrupted, withRunLocks } from '../../../../src/app/storage/run-recovery';
import type { Embedder, EmbeddingStore } from '../../../../src/core/embed';
import type { Experience, ImportRecord } from '../../../../src/core/types';
import type { Run } from '../../../../src/core/records';
import type { Repositories } from '../../../../src/core/repositories';
import { buildConfigFor } from '../../memory/helpers';

const REPO = resolve(import.meta.dirname, '../../../..');
const SLICE = () => new File([readFileSync(resolve(REPO, 'tests/fixtures/import/genai_image_slice.json'))], 'genai_image.json');

let db: ToolMemDB;
let repos: Repositories;
withDb('crash', (t) => ({ db, repos } = t));

describe('Web Locks liveness', () => {
  it('a held lock is listed until released; a second holder waits for it', async () => {
    const locks = new MemoryLocks();
    const release = await holdLock(locks, 'a');
    expect(await heldLocks(locks)).toEqual(new Set(['a']));
    let second = false;
    const next = holdLock(locks, 'a').then((r) => {
      second = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(second).toBe(false);
    release();
    (await next)();
    expect(second).toBe(true);
    await new Promise((r) => setTimeout(r, 0)); // the release settles the holder's promise first
    expect(await heldLocks(locks)).toEqual(new Set());
    expect(await heldLocks(null)).toEqual(new Set());
  });

  it('whenFree runs once the holder lets go within the grace time, and gives up when it does not', async () => {
    const locks = new MemoryLocks();
    const release = await holdLock(locks, 'job');
    setTimeout(release, 20);
    expect(await whenFree(locks, 'job', 1000, async () => 'ran')).toBe('ran');
    await holdLock(locks, 'job'); // never released: the job is alive elsewhere
    expect(await whenFree(locks, 'job', 30, async () => 'ran')).toBeUndefined();
  });

  it('after a reload the old worker may hold the run lock a moment longer: recovery waits for it', async () => {
    const locks = new MemoryLocks();
    await repos.runs.put({ id: 'eval-old', kind: 'eval', state: 'running', config: { datasetId: 'g', seeds: 1, methods: ['tool-mean'] }, startedAt: 1 });
    const release = await holdLock(locks, runLockName('eval-old'));
    expect(await recoverInterruptedRuns(repos, locks, ['eval'], 5, 0)).toEqual([]); // no grace: looks alive
    setTimeout(release, 30); // the old page's worker ends
    expect((await recoverInterruptedRuns(repos, locks, ['eval'], 5, 2000)).map((r) => r.id)).toEqual(['eval-old']);
    expect((await repos.runs.get('eval-old'))?.state).toBe('failed');
  });
});

describe('an import interrupted by a reload', () => {
  const exp = (task: string, importId: string, datasetId = 'big'): Experience => ({
    id: `${datasetId}|${task}|T|r`,
    datasetId,
    taskId: task,
    prompt: `p ${task}`,
    toolId: 'T',
    score: 3,
    rater: 'r',
    scoreSource: 'human',
    categories: [],
    importId,
    createdAt: 1,
  });
  const running = (id: string, datasetId: string, startedAt = 5): ImportRecord => ({
    id,
    datasetId,
    fileName: `${id}.csv`,
    preset: 'generic',
    state: 'running',
    rowsRead: 0,
    accepted: 0,
    unchanged: 0,
    updated: 0,
    rejected: 0,
    errors: [],
    startedAt,
  });

  it('is rolled back when its lock is free, and left alone while another tab still holds it', async () => {
    const locks = new MemoryLocks();
    const client = createInThreadClient(createImportHandlers(repos, undefined, { locks }));
    // A completed import, then two imports that wrote a batch each and are still `running`.
    await client.call('import', { file: SLICE(), datasetName: 'G' });
    const stored = await db.experiences.toArray();
    await repos.imports.put(running('imp-dead', 'g'));
    await repos.experiences.writeImportBatch('imp-dead', [exp('x1', 'imp-dead', 'g'), exp('x2', 'imp-dead', 'g')]);
    await repos.imports.put(running('imp-live', 'other'));
    await repos.experiences.writeImportBatch('imp-live', [exp('y1', 'imp-live', 'other')]);
    const release = await holdLock(locks, importLockName('imp-live'));

    expect(await client.call('recover', {})).toEqual({ rolledBack: 1, files: ['imp-dead.csv'] });
    // With a grace time, a lock that stays held (a live tab) is still left alone.
    expect(await client.call('recover', { graceMs: 30 })).toEqual({ rolledBack: 0, files: [] });
    expect((await repos.imports.get('imp-dead'))?.state).toBe('failed');
    expect((await repos.imports.get('imp-live'))?.state).toBe('running');
    expect((await repos.experiences.byImport('imp-dead')).length).toBe(0);
    expect((await repos.experiences.byImport('imp-live')).length).toBe(1);
    // Nothing that was stored before the interrupted import changed.
    expect((await db.experiences.toArray()).filter((e) => e.importId !== 'imp-live')).toEqual(stored);
    release();
  });

  it('removes the dataset the interrupted import had just created, and a re-import then gives exactly the full rows', async () => {
    const client = createInThreadClient(createImportHandlers(repos, undefined, { locks: new MemoryLocks() }));
    const full = await client.call('import', { file: SLICE(), datasetName: 'G' });
    const expected = (await db.experiences.toArray()).map((e) => e.id).sort();
    await client.call('undo', { importId: full.record.id });
    expect(await repos.datasets.get('g')).toBeUndefined();

    // The tab died after the dataset row was written but before the import was marked completed.
    const rec = running('imp-half', 'g', 42);
    await repos.imports.put(rec);
    await repos.experiences.writeImportBatch(
      'imp-half',
      (await Promise.resolve(expected.slice(0, 50))).map((id) => ({ ...exp(id.split('|')[1]!, 'imp-half', 'g'), id })),
    );
    await repos.datasets.put({
      id: 'g',
      name: 'G',
      source: 'imp-half.csv',
      preset: 'genai-bench',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'mean' },
      createdAt: 42,
    });

    expect((await client.call('recover', {})).rolledBack).toBe(1);
    expect(await repos.datasets.get('g')).toBeUndefined();
    expect(await db.experiences.count()).toBe(0);

    const again = await client.call('import', { file: SLICE(), datasetName: 'G' });
    expect(again.summary.updated).toBe(0);
    expect((await db.experiences.toArray()).map((e) => e.id).sort()).toEqual(expected);
  });
});

describe('an evaluation interrupted by a reload', () => {
  const CONFIG = { datasetId: 'g', train: 10, test: 10, seeds: 2, methods: ['tool-mean', 'tool-median'] };

  beforeEach(async () => {
    await createInThreadClient(createImportHandlers(repos, undefined, { locks: null })).call('import', { file: SLICE(), datasetName: 'G' });
  });

  it('holds its run lock while running, so recovery leaves a live run alone', async () => {
    const locks = new MemoryLocks();
    const seen: Run['state'][] = [];
    const wrapped = withRunLocks(repos, locks);
    const spy: Repositories = {
      ...wrapped,
      runs: {
        ...wrapped.runs,
        put: async (run) => {
          await wrapped.runs.put(run);
          if (run.state === 'running') {
            // Mid-run: the lock is held, and a startup recovery in another tab must not touch the run.
            expect(await heldLocks(locks)).toContain(runLockName(run.id));
            expect(await recoverInterruptedRuns(repos, locks)).toEqual([]);
          }
          seen.push(run.state);
        },
      },
    };
    const client = createInThreadClient(createEvalHandlers({ repos: spy, embedder: async () => null }));
    const run = await client.call('evaluate', CONFIG);
    expect(seen).toEqual(['running', 'completed']);
    expect(run.state).toBe('completed');
    expect(await heldLocks(locks)).toEqual(new Set());
  });

  it('a run left `running` by a dead tab becomes failed/interrupted; its rerun gives the numbers of an uninterrupted run', async () => {
    const client = createInThreadClient(createEvalHandlers({ repos: withRunLocks(repos, new MemoryLocks()), embedder: async () => null }));
    const uninterrupted = await client.call('evaluate', CONFIG);
    const dead: Run = { id: 'eval-dead', kind: 'eval', state: 'running', config: { ...CONFIG }, startedAt: 1 };
    await repos.runs.put(dead);
    await repos.runs.put({ id: 'build-1', kind: 'build', state: 'running', config: buildConfigFor(['A']), startedAt: 2 }); // resumed elsewhere: untouched

    const recovered = await recoverInterruptedRuns(repos, new MemoryLocks(), ['eval'], 99);
    expect(recovered.map((r) => r.id)).toEqual(['eval-dead']);
    const stored = await repos.runs.get('eval-dead');
    expect(stored).toMatchObject({ state: 'failed', error: INTERRUPTED_REASON, finishedAt: 99 });
    expect(wasInterrupted(stored!)).toBe(true);
    expect((await repos.runs.get('build-1'))?.state).toBe('running');
    expect((await repos.runs.list('eval')).filter((r) => r.state === 'running')).toEqual([]);

    const deadConfig = (await repos.runs.list('eval')).find((r) => r.id === 'eval-dead')!.config;
    const rerun = await client.call('evaluate', deadConfig);
    const a = uninterrupted.metrics as unknown as EvalResult;
    const b = rerun.metrics as unknown as EvalResult;
    expect(b.spread).toEqual(a.spread);
    expect(b.report.methods).toEqual(a.report.methods);
  });
});

describe('bulk embedding killed mid-way', () => {
  const DIM = 4;
  /** A deterministic embedder; `crashAfter` model calls in, it "dies" (the worker is gone). */
  function host(state: { calls: number; crashAfter: number; onCrash: () => void }): EmbedHost {
    const embedder: Embedder = {
      id: 'fake@1',
      dim: DIM,
      async embed(texts) {
        if (++state.calls > state.crashAfter) {
          state.onCrash();
          await new Promise(() => undefined); // never returns: the worker was killed mid-batch
        }
        const data = new Float32Array(texts.length * DIM);
        texts.forEach((t, i) => data.set([t.length, 1, 2, 3], i * DIM));
        return { dim: DIM, count: texts.length, data };
      },
    };
    return {
      describe: async () => ({ source: 'bundled', id: 'fake@1', dim: DIM, sizeBytes: 0, backend: 'cpu', threads: 0 }),
      load: async () => ({ embedder, source: 'bundled', backend: 'cpu', threads: 0, sizeBytes: 0 }),
    };
  }

  /** The embed worker behind a real RPC client; `kill()` is what the browser does when the worker dies. */
  function worker(state: { calls: number; crashAfter: number; onCrash: () => void }) {
    // A dead worker starts no write; one it had started lands or not as IndexedDB decides (here: lands).
    const dexie = new DexieEmbeddingStore(db);
    let dead = false;
    const started = new Set<Promise<void>>();
    const store: EmbeddingStore = {
      get: (keys) => dexie.get(keys),
      put(records) {
        if (dead) return new Promise<void>(() => undefined);
        const p = dexie.put(records);
        started.add(p);
        return p;
      },
    };
    const embed = createEmbedHandlers({ host: host(state), store, setting: { get: async () => 'fake', set: async () => undefined } });
    const handlers = {
      ...embed,
      ...createEmbedDatasetHandlers({ embed: embed.embed, prompts: async (id) => distinctPrompts(await repos.experiences.byDataset(id)) }),
    };
    const { port1, port2 } = new MessageChannel();
    const server = expose<EmbedDatasetApi>(handlers, port2);
    const endpoint = Object.assign(new EventTarget(), {
      postMessage: (m: unknown, t: Transferable[] = []) => port1.postMessage(m, t),
    }) as EventTarget & Endpoint;
    port1.addEventListener('message', (e) => endpoint.dispatchEvent(new MessageEvent('message', { data: (e as MessageEvent).data })));
    port1.start();
    const client = createClient<EmbedDatasetApi>(endpoint);
    const kill = () => {
      dead = true;
      endpoint.dispatchEvent(Object.assign(new Event('error'), { message: 'killed' }));
      server.dispose();
      port1.close();
    };
    /** Resolves once the writes the worker started before it died have landed. */
    const settled = () => Promise.allSettled([...started]);
    return { client, kill, settled };
  }

  it('keeps only complete vectors; a rerun embeds exactly the missing prompts', async () => {
    const imports = createInThreadClient(createImportHandlers(repos, undefined, { locks: null }));
    const csv = ['id,prompt,tool,score', ...Array.from({ length: 300 }, (_, i) => `${i % 150},prompt number ${i % 150},tool-${i % 2},${1 + (i % 5)}`)];
    await imports.call('import', { file: new File([csv.join('\n')], 'g.csv'), datasetName: 'G', preset: 'generic' });
    const prompts = distinctPrompts(await repos.experiences.byDataset('g'));
    expect(prompts.length).toBe(150);

    // Dies in its 3rd model batch (batches of 32). Batch 1's write had started; batch 2 waited behind
    // it (up to DEFAULT_MAX_UNWRITTEN vectors may wait), so one or both batches are committed, whole.
    const first = worker({ calls: 0, crashAfter: 2, onCrash: () => queueMicrotask(() => first.kill()) });
    const err = await first.client.call('embedDataset', { datasetId: 'g' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerCrashedError);
    await first.settled();
    // The cache stores blocks of vectors (schema v5): whole batches of complete vectors only.
    const blocks = await db.embeddingBlocks.toArray();
    const kept = blocks.reduce((sum, b) => sum + b.hashes.length, 0);
    expect([32, 64]).toContain(kept);
    for (const block of blocks) {
      expect(block.vectors).toBeInstanceOf(Float32Array);
      expect(block.vectors.length).toBe(block.hashes.length * DIM);
      expect([...block.vectors].every(Number.isFinite)).toBe(true);
    }

    const state = { calls: 0, crashAfter: Infinity, onCrash: () => undefined };
    const second = worker(state);
    const res = await second.client.call('embedDataset', { datasetId: 'g' });
    expect(res).toMatchObject({ model: 'fake@1', texts: prompts.length, hits: kept, misses: prompts.length - kept });
    expect(state.calls).toBe(Math.ceil((prompts.length - kept) / 32));
    expect(await new DexieEmbeddingStore(db).count()).toBe(prompts.length);
    // And a third run finds everything cached.
    expect(await second.client.call('embedDataset', { datasetId: 'g' })).toMatchObject({ hits: prompts.length, misses: 0, modelCalls: 0 });
  });
});
