import { createClient, WorkerCrashedError, type WorkerClient } from '../rpc';
import type { ImportApi } from '../services/import-api';
import type { LabelApi } from '../services/label-api';
import type { MemoryApi } from '../services/memory-api';
import type { EvalApi } from '../services/eval-api';

/** The data worker serves imports and labelling queries. */
export type DataApi = ImportApi & LabelApi;

/**
 * One import worker per tab, started lazily on first use. When it crashes, the next call starts a
 * fresh one (the crashed call rejects with WorkerCrashedError and the UI offers a retry).
 */
let importClient: WorkerClient<DataApi> | null = null;

export function importWorker(): WorkerClient<DataApi> {
  if (!importClient) {
    const worker = new Worker(new URL('../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
    const client = createClient<DataApi>(worker);
    worker.addEventListener('error', () => {
      if (importClient === client) importClient = null;
    });
    importClient = client;
  }
  return importClient;
}

export function isWorkerCrash(err: unknown): boolean {
  return err instanceof WorkerCrashedError;
}

let memoryClient: WorkerClient<MemoryApi> | null = null;

/** The memory worker (builds: embeddings + LLM calls), started lazily, restarted after a crash. */
export function memoryWorker(): WorkerClient<MemoryApi> {
  if (!memoryClient) {
    const worker = new Worker(new URL('../../workers/memory.worker.ts', import.meta.url), { type: 'module', name: 'memory' });
    const client = createClient<MemoryApi>(worker);
    worker.addEventListener('error', () => {
      if (memoryClient === client) memoryClient = null;
    });
    memoryClient = client;
  }
  return memoryClient;
}

let evalClient: WorkerClient<EvalApi> | null = null;

/** The evaluation worker (fits predictors, runs evaluations), started lazily. */
export function evalWorker(): WorkerClient<EvalApi> {
  if (!evalClient) {
    const worker = new Worker(new URL('../../workers/eval.worker.ts', import.meta.url), { type: 'module', name: 'eval' });
    const client = createClient<EvalApi>(worker);
    worker.addEventListener('error', () => {
      if (evalClient === client) evalClient = null;
    });
    evalClient = client;
  }
  return evalClient;
}
