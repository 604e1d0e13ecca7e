/**
 * Model-loading progress in our own shape, plus the mapping from transformers.js progress events
 * (both the Node adapter and the browser worker host transformers.js, so both reuse this). Pure:
 * it reads a plain object and does not import the library.
 */

export interface ModelLoadProgress {
  status: 'initiate' | 'download' | 'progress' | 'progress_total' | 'done' | 'ready';
  file?: string;
  /** 0–100 for `progress` / `progress_total` events. */
  progress?: number;
  loaded?: number;
  total?: number;
}

const STATUSES = new Set<ModelLoadProgress['status']>(['initiate', 'download', 'progress', 'progress_total', 'done', 'ready']);

/** Maps one transformers.js `progress_callback` event; unknown shapes give `null`. */
export function toModelLoadProgress(info: unknown): ModelLoadProgress | null {
  if (typeof info !== 'object' || info === null) return null;
  const o = info as Record<string, unknown>;
  if (typeof o.status !== 'string' || !STATUSES.has(o.status as ModelLoadProgress['status'])) return null;
  const out: ModelLoadProgress = { status: o.status as ModelLoadProgress['status'] };
  if (typeof o.file === 'string') out.file = o.file;
  for (const k of ['progress', 'loaded', 'total'] as const) if (typeof o[k] === 'number') out[k] = o[k];
  return out;
}

/**
 * Embedder id from model name and revision, e.g. `glove-100d@3f2a9c1b`. The revision (a prefix of
 * the ONNX file's SHA-256, recorded in the generated config.json) changes when the model is
 * rebuilt, so cached vectors of an older build are never mixed with new ones.
 */
export function embedderId(model: string, revision?: string | null): string {
  return revision ? `${model}@${revision}` : model;
}
