/**
 * The UI's handle on the embedding worker: one worker per tab, started on first use (it loads the
 * model lazily, so starting it is cheap). A crashed worker is replaced on the next call.
 */
import { createClient, type WorkerClient } from '../rpc';
import { isModelLoadError, type EmbedApi, type EmbedBackend, type EmbedModelSource } from '../services/embed-api';
import type { EmbedDatasetApi } from '../services/embed-dataset';

let embedClient: WorkerClient<EmbedApi & EmbedDatasetApi> | null = null;

export function embedWorker(): WorkerClient<EmbedApi & EmbedDatasetApi> {
  if (!embedClient) {
    const worker = new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' });
    const client = createClient<EmbedApi & EmbedDatasetApi>(worker);
    worker.addEventListener('error', () => {
      if (embedClient === client) embedClient = null;
    });
    embedClient = client;
  }
  return embedClient;
}

export const SOURCE_LABEL: Readonly<Record<EmbedModelSource, string>> = {
  bundled: 'Bundled',
  hub: 'Hugging Face',
  'local-folder': 'Local folder',
};

export const BACKEND_LABEL: Readonly<Record<EmbedBackend, string>> = {
  webgpu: 'WebGPU',
  wasm: 'WASM',
  cpu: 'CPU',
};

/** A sentence for the user: what went wrong while loading or embedding. */
export function describeEmbedError(err: unknown): string {
  if (isModelLoadError(err)) return err.message;
  if (err instanceof Error && err.name === 'WorkerCrashedError') return 'The embedding worker stopped unexpectedly. Try again.';
  if (err instanceof Error && err.name === 'StorageFullError') return err.message;
  return err instanceof Error ? err.message : String(err);
}
