/**
 * The page's way to reach a language model: in-browser models through the llm worker, endpoints
 * directly (the same OpenAI-compatible engine the build uses), both through the one `resolveEngine`.
 * Used by Settings ("try it"), and by the build panel and Evaluate to load a model, with progress,
 * before a job starts.
 */
import { NO_ENGINE, readEngineSpec, resolveEngine, type EngineSpec, type LlmEngine } from '../core/llm';
import { llmWorkerEngines } from '../model-host/worker-engine';
import { llmWorker } from './workers';

export function engineInPage(spec: EngineSpec, apiKey?: string): Promise<LlmEngine> {
  return resolveEngine(spec, { engineOf: llmWorkerEngines(() => llmWorker()), apiKey: () => apiKey });
}

/**
 * A stored engine (Settings' choice, a build's config: canonical strings), parsed once where a page reads it.
 * A spec this version cannot read counts as no model: Settings shows it with its error.
 */
export function storedEngine(stored: string | null | undefined): EngineSpec {
  try {
    return readEngineSpec(stored);
  } catch {
    return NO_ENGINE;
  }
}

/** Whole bytes as "12.3 MB of 1.2 GB". */
export function describeBytes(loaded?: number, total?: number): string {
  const mb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : `${(n / 1e6).toFixed(1)} MB`);
  if (loaded === undefined) return '';
  return total ? `${mb(loaded)} of ${mb(total)}` : mb(loaded);
}
