/**
 * npm run bench:bootstrap — the paired bootstrap (core/eval/bootstrap.ts) at GenAI-Bench size:
 * 800 test tasks × 6 tools × 7 methods × 1,000 resamples, run in a worker thread as the app runs it
 * in its predictors worker. Synthetic predictions with the benchmark's shape (scores 1–5, a shared task
 * difficulty, tools of different strength, methods of different accuracy); the bootstrap's cost
 * does not depend on the values, only on the sizes.
 *
 * Prints the time of one seed (the goal: ≤ 2 s), of five seeds (the app's default run), the CPU
 * time it used (the same on a busy machine), and the main thread's longest event-loop stall
 * meanwhile (it stays free: the work is in the worker). Also prints the load average: wall times on
 * a shared machine include waiting for a core.
 *
 *   BENCH_TASKS (default 800)   BENCH_RESAMPLES (default 1,000)   BENCH_GOAL_MS (default 2,000)
 *   --smoke: 100 tasks × 100 resamples (npm run bench:smoke)
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { bootstrapIntervals } from '../../src/core/eval/bootstrap';
import type { EvalReport, SeedResult } from '../../src/core/eval/evaluate';
import { createRng } from '../../src/core/eval/rng';
import { loadLine, SMOKE } from './bench-env';

const TASKS = Number(process.env.BENCH_TASKS ?? (SMOKE ? 100 : 800));
const RESAMPLES = Number(process.env.BENCH_RESAMPLES ?? (SMOKE ? 100 : 1000));
const GOAL_MS = Number(process.env.BENCH_GOAL_MS ?? 2000);
const TOOLS = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];
const METHODS = ['tool-mean', 'tool-median', 'knn', 'knn-difficulty', 'ridge', 'ensemble', 'memory'];

function syntheticReport(seeds: number): EvalReport {
  const T = TOOLS.length;
  const out: SeedResult[] = [];
  for (let s = 1; s <= seeds; s++) {
    const rng = createRng(s);
    const strength = TOOLS.map((_, j) => 0.4 - 0.15 * j);
    const difficulty = Array.from({ length: TASKS }, () => (rng.next() - 0.5) * 2.4);
    const truth = new Float64Array(TASKS * T);
    for (let i = 0; i < TASKS; i++)
      for (let j = 0; j < T; j++) truth[i * T + j] = Math.max(1, Math.min(5, Math.round(3.4 + strength[j]! - difficulty[i]! + (rng.next() - 0.5) * 2.5)));
    const predicted = new Map<string, Float64Array>();
    METHODS.forEach((m, k) => {
      const p = new Float64Array(TASKS * T);
      const signal = k < 2 ? 0 : 0.2 + 0.05 * k; // the two constants know nothing of the task
      for (let i = 0; i < TASKS; i++)
        for (let j = 0; j < T; j++)
          p[i * T + j] = Math.max(1, Math.min(5, 3.4 + strength[j]! - signal * difficulty[i]! + (k < 2 ? 0 : (rng.next() - 0.5) * 0.4)));
      predicted.set(m, p);
    });
    const taskIds = Array.from({ length: TASKS }, (_, i) => `t${i}`);
    out.push({
      seed: s,
      split: { seed: s, train: [], test: taskIds },
      tools: TOOLS,
      methods: {},
      matrix: { taskIds, tools: TOOLS, truth, predicted, scored: new Map(METHODS.map((m) => [m, TASKS])) },
      baselines: { alwaysStronger: [], alwaysStrongerSelection: { tasks: 0, selected: NaN, random: NaN, oracle: NaN, gapCaptured: NaN }, trainMean: {} },
    });
  }
  const pairs: [string, string][] = [];
  for (let a = 0; a < T; a++) for (let b = a + 1; b < T; b++) pairs.push([TOOLS[a]!, TOOLS[b]!]);
  return { seeds: out, tools: TOOLS, toolPairs: pairs, methods: METHODS, sizes: { train: 200, test: TASKS } };
}

async function inWorker(): Promise<void> {
  const { seeds } = workerData as { seeds: number };
  const report = syntheticReport(seeds);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await bootstrapIntervals(report, { resamples: RESAMPLES });
  const ms = performance.now() - t0;
  // Process CPU time meanwhile (the main thread only ticks): the bootstrap's own cost, whatever
  // else the machine runs — wall time on a shared machine includes waiting for a core.
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const e = r.methods.ensemble!;
  parentPort!.postMessage({ ms, cpuMs, ensembleMae: e.metrics.mae, vsMae: e.vsBaseline!.mae });
}

interface WorkerReply {
  ms: number;
  cpuMs: number;
  ensembleMae: { mean: number; lo: number; hi: number };
  vsMae: { diff: { mean: number; lo: number; hi: number }; verdict: string };
}

function runInWorker(seeds: number): Promise<{ reply: WorkerReply; wallMs: number; maxStallMs: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let last = start;
    let maxStall = 0;
    // The main thread's event loop meanwhile: a 10 ms tick whose lateness is the stall.
    const tick = setInterval(() => {
      const now = performance.now();
      maxStall = Math.max(maxStall, now - last - 10);
      last = now;
    }, 10);
    const worker = new Worker(
      // tsx's loader does not reach worker threads on Node 20: the worker loads this file through its API.
      `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`,
      // The same switches (`--smoke`), so the worker's sizes are this process's.
      { eval: true, workerData: { seeds }, argv: process.argv.slice(2) },
    );
    worker.once('message', (reply: WorkerReply) => {
      clearInterval(tick);
      void worker.terminate();
      resolve({ reply, wallMs: performance.now() - start, maxStallMs: Math.max(0, maxStall) });
    });
    worker.once('error', (err) => {
      clearInterval(tick);
      reject(err);
    });
  });
}

async function main(): Promise<void> {
  const f = (x: number) => x.toFixed(3);
  console.log(loadLine());
  console.log(
    `Paired bootstrap: ${TASKS} test tasks × ${TOOLS.length} tools × ${METHODS.length} methods × ${RESAMPLES.toLocaleString('en-US')} resamples, in a worker thread`,
  );
  let failed = false;
  for (const seeds of [1, 5]) {
    const { reply, wallMs, maxStallMs } = await runInWorker(seeds);
    const { ensembleMae: m, vsMae: d } = reply;
    console.log(
      `  ${seeds} seed${seeds === 1 ? ' ' : 's'}: bootstrap ${Math.round(reply.ms)} ms wall, ${Math.round(reply.cpuMs)} ms CPU (worker start + data + bootstrap ${Math.round(wallMs)} ms); ` +
        `main thread's longest stall ${Math.round(maxStallMs)} ms. ensemble MAE ${f(m.mean)} [${f(m.lo)}, ${f(m.hi)}], vs tool-mean ${f(d.diff.mean)} [${f(d.diff.lo)}, ${f(d.diff.hi)}] ${d.verdict}`,
    );
    if (seeds === 1 && reply.ms > GOAL_MS) failed = true;
  }
  console.log(failed ? `FAIL: one seed took longer than ${GOAL_MS} ms` : `OK: one seed within ${GOAL_MS} ms`);
  if (failed) process.exitCode = 1;
}

if (isMainThread) void main();
else void inWorker();
