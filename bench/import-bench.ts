// Runs inside Chromium (driven by bench/drivers/import-bench.mjs): the app's data worker (imports) vs the
// raw Papa Parse + Dexie baseline on the same file, plus main-thread long tasks during our import.
import { createClient } from '../src/rpc';
import type { ImportApi } from '../src/app/import/api';
import { runStages, stages as stageTable } from './import-stages';

interface BenchResult {
  ours: { rows: number; ms: number; accepted: number; rejected: number; counted: { rows: number; tasks: number } };
  baseline: { rows: number; ms: number; stored: number };
  longTasks: { count: number; maxMs: number };
}

async function baseline(file: File, schema: 'key' | 'app' = 'key'): Promise<BenchResult['baseline']> {
  const worker = new Worker(new URL('./baseline.worker.ts', import.meta.url), { type: 'module' });
  const result = await new Promise<BenchResult['baseline']>((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ file, schema });
  });
  worker.terminate();
  return result;
}

async function ours(file: File): Promise<{ result: BenchResult['ours']; longTasks: BenchResult['longTasks'] }> {
  const worker = new Worker(new URL('../workers/data.worker.ts', import.meta.url), { type: 'module' });
  const client = createClient<ImportApi>(worker);
  const long: number[] = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => long.push(e.duration)));
  observer.observe({ type: 'longtask' });
  const t0 = performance.now();
  const outcome = await client.call('import', {
    file,
    datasetName: 'bench',
    preset: 'generic',
    mapping: { id: 'id', prompt: 'prompt', tool: 'model', score: 'score', response: 'response', feedback: 'feedback' },
    scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
  });
  const ms = performance.now() - t0;
  observer.disconnect();
  // After the timing: the stored counts (db/dataset-counts.ts) as the Data page reads them, so a run
  // shows that the cheap count path still counted every row and task in Chromium's IndexedDB.
  const stats = await client.call('stats', { datasetId: outcome.record.datasetId });
  worker.terminate();
  return {
    result: {
      rows: outcome.summary.rowsRead,
      ms,
      accepted: outcome.summary.accepted,
      rejected: outcome.summary.rejected,
      counted: { rows: stats.raters.reduce((sum, r) => sum + r.n, 0), tasks: stats.tasks },
    },
    longTasks: { count: long.filter((d) => d > 50).length, maxMs: Math.max(0, ...long) },
  };
}

/** `--stages`: the stage breakdown (bench/import-stages.worker.ts), one worker for all stages. */
async function stages(file: File, only?: string[]): Promise<unknown> {
  const worker = new Worker(new URL('./import-stages.worker.ts', import.meta.url), { type: 'module' });
  const result = await new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ file, stages: only });
  });
  worker.terminate();
  return result;
}
(window as unknown as { stageNames: () => string[] }).stageNames = () => Object.keys(stageTable);
/** `--profile`: stages on this page's main thread, where the runner's CDP session can profile them. */
(window as unknown as { runStagesHere: (only?: string[]) => Promise<unknown> }).runStagesHere = async (only) => {
  const file = (document.getElementById('file') as HTMLInputElement).files?.[0];
  if (!file) throw new Error('no file');
  return runStages(file, only);
};
(window as unknown as { runStages: (only?: string[]) => Promise<unknown> }).runStages = async (only) => {
  const file = (document.getElementById('file') as HTMLInputElement).files?.[0];
  if (!file) throw new Error('no file');
  return stages(file, only);
};

/**
 * One pipeline per call: the runner gives each its own browser context, because every IndexedDB
 * database of an origin shares one backing store, and the pipeline run second would otherwise pay
 * for compacting the 46 MB the first one just wrote.
 */
(window as unknown as { runOne: (which: 'ours' | 'baseline' | 'schema') => Promise<unknown> }).runOne = async (which) => {
  const input = document.getElementById('file') as HTMLInputElement;
  const file = input.files?.[0];
  if (!file) throw new Error('no file');
  return which === 'ours' ? ours(file) : baseline(file, which === 'schema' ? 'app' : 'key');
};
