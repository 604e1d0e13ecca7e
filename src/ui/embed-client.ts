/**
 * The UI's handle on the embedding worker (started lazily by src/ui/workers.ts, the one place that
 * starts workers; it loads the model lazily, so starting it is cheap), and how embedding facts and
 * errors read to a person.
 */
import { isModelLoadError, type EmbedBackend, type EmbedModelSource } from '../model-host/embed-api';

export { embedWorker } from './workers';

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
