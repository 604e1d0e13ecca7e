/**
 * The page's way to reach a language model: in-browser models through the llm worker, endpoints
 * directly (the same OpenAI-compatible engine the build uses). Used by Settings ("try it") and by
 * the build panel to load a model, with progress, before a build starts.
 */
import { createEngine, formatEngineSpec, isBrowserEngine, parseEngineSpec, type LlmEngine } from '../core/llm';
import { WorkerLlmEngine } from '../llm/worker-engine';
import { llmWorker } from './workers';

export function engineInPage(specText: string, apiKey?: string): LlmEngine {
  const spec = parseEngineSpec(specText);
  if (isBrowserEngine(spec)) return new WorkerLlmEngine(llmWorker(), formatEngineSpec(spec));
  return createEngine(spec, apiKey ? { apiKey } : {});
}

/** Whole bytes as "12.3 MB of 1.2 GB". */
export function describeBytes(loaded?: number, total?: number): string {
  const mb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : `${(n / 1e6).toFixed(1)} MB`);
  if (loaded === undefined) return '';
  return total ? `${mb(loaded)} of ${mb(total)}` : mb(loaded);
}
