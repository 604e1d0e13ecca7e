import { createClient, type ApiSpec, type WorkerClient } from '../rpc';
import type { ImportApi } from '../services/import-api';
import type { LabelApi } from '../services/label-api';
import type { MemoryApi } from '../services/memory-api';
import type { EvalApi } from '../services/eval-api';

/** The data worker serves imports and labelling queries. */
export type DataApi = ImportApi & LabelApi;

/**
 * One worker per kind and tab, started lazily on first use. When it crashes, the next call starts
 * a fresh one (the crashed call rejects with WorkerCrashedError and the UI offers a retry).
 * `start` must contain the literal `new Worker(new URL(…, import.meta.url))` so Vite bundles it.
 */
function lazyWorker<A extends ApiSpec<A>>(start: () => Worker): () => WorkerClient<A> {
  let current: WorkerClient<A> | null = null;
  return () => {
    if (!current) {
      const worker = start();
      const client = createClient<A>(worker);
      worker.addEventListener('error', () => {
        if (current === client) current = null;
      });
      current = client;
    }
    return current;
  };
}

/** Imports, dataset statistics, exports, image attachment and labelling queues. */
export const importWorker = lazyWorker<DataApi>(() => new Worker(new URL('../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' }));

/** Memory builds (embeddings + LLM calls), undo and export. */
export const memoryWorker = lazyWorker<MemoryApi>(() => new Worker(new URL('../../workers/memory.worker.ts', import.meta.url), { type: 'module', name: 'memory' }));

/** Evaluations and predictions (fits predictors over whole datasets). */
export const evalWorker = lazyWorker<EvalApi>(() => new Worker(new URL('../../workers/eval.worker.ts', import.meta.url), { type: 'module', name: 'eval' }));
