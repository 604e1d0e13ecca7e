import { dropDbs, newDb } from '../helpers/db';
import { until } from '../helpers/until';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildRun } from '../../../src/core/records';
import { BuildJobs } from '../../../src/ui/build-jobs.svelte';
import type { Send } from '../../../src/ui/send';
import { UiStorage } from '../../../src/ui/storage';

// The memory worker, stood in for by the `send` BuildJobs is given: `runBuild` answers from `script` (the build's last commit).
const calls: { method: string; req: unknown }[] = [];
let script: (runId: string) => Promise<BuildRun> = () => Promise.reject(new Error('no build scripted'));
const send = ((method: string, req: { runId?: string; datasetId?: string }) => {
  calls.push({ method, req });
  if (method === 'runBuild' || method === 'build') return script(req.runId!);
  if (method === 'createBuild') return Promise.resolve(run('b-new', 'queued', 9));
  return Promise.reject(new Error(`unexpected ${method}`));
}) as unknown as Send;

function run(id: string, state: BuildRun['state'], startedAt: number): BuildRun {
  return { id, kind: 'build', state, startedAt, config: { datasetId: 'd', memoryId: `mem-${id}` } as unknown as BuildRun['config'] };
}

const storage = () => new UiStorage(newDb('build-jobs'));
afterEach(async () => {
  calls.length = 0;
  await dropDbs();
});

describe('BuildJobs (the Memory page’s builds)', () => {
  it('lists the builds live, newest first: a run written elsewhere shows without a reload', async () => {
    const store = storage();
    await store.repos.runs.put(run('b1', 'completed', 1));
    const jobs = new BuildJobs(store, send);
    jobs.load();
    await until(() => jobs.runs.length === 1);
    await store.repos.runs.put(run('b2', 'paused', 2));
    await until(() => jobs.runs.length === 2);
    expect(jobs.runs.map((r) => `${r.id}:${r.state}`)).toEqual(['b2:paused', 'b1:completed']);
    // A paused build waits for the user: nothing was resumed.
    expect(calls).toEqual([]);
    jobs.stop();
  });

  it('resumes the one build a closed tab left running, once, and reports it completed', async () => {
    const store = storage();
    await store.repos.runs.put(run('b1', 'running', 1));
    const done: string[] = [];
    script = async (id) => {
      const finished = run(id, 'completed', 1);
      await store.repos.runs.put(finished);
      return finished;
    };
    const jobs = new BuildJobs(store, send, (r) => done.push(r.id));
    jobs.load();
    await until(() => done.length === 1 && jobs.active === null);
    expect(calls.map((c) => c.method)).toEqual(['runBuild']);
    expect(jobs.runs.map((r) => r.state)).toEqual(['completed']);
    expect(jobs.error).toBeNull();
    jobs.stop();
  });

  it('a failed build says why; a second run while one is active is ignored', async () => {
    const store = storage();
    await store.repos.runs.put(run('b1', 'paused', 1));
    let release: (r: BuildRun) => void = () => {};
    script = (id) => new Promise((resolve) => (release = (r) => resolve({ ...r, id })));
    const jobs = new BuildJobs(store, send);
    jobs.load();
    await until(() => jobs.runs.length === 1);
    const first = jobs.run('b1');
    expect(jobs.active).toBe('b1');
    await jobs.run('b1'); // returns at once: one build at a time
    release({ ...run('b1', 'failed', 1), error: 'The endpoint refused the key.' });
    await first;
    expect(jobs.error).toBe('The endpoint refused the key.');
    expect(jobs.active).toBeNull();
    expect(calls.filter((c) => c.method === 'runBuild')).toHaveLength(1);
    jobs.stop();
  });

  it('start makes one call, which creates the build and runs it; the page names the Run and follows it', async () => {
    const store = storage();
    script = (id) => Promise.resolve(run(id, 'completed', 9));
    const done: string[] = [];
    const jobs = new BuildJobs(store, send, (r) => done.push(r.id));
    const started = jobs.start({ datasetId: 'd', engine: { kind: 'none' } } as never);
    const runId = (calls[0]?.req as { runId: string }).runId;
    expect(jobs.active).toBe(runId);
    await started;
    expect(calls.map((c) => c.method)).toEqual(['build']);
    expect(runId).toMatch(/^build-/);
    expect(done).toEqual([runId]);
    expect(jobs.runs.map((r) => `${r.id}:${r.state}`)).toEqual([`${runId}:completed`]);
  });
});
