/**
 * What the eval service needs around the LLM methods: loading the engine of a spec (through the
 * host's engines, so the browser can hand out in-browser ones), counting calls for
 * progress, the exact number of calls an evaluation will make, and the tools' descriptions.
 */
import { ValidationError } from '../../core/errors';
import type { LlmEngine } from '../../core/llm/engine';
import { isNoEngine, resolveEngine, type EngineHost, type EngineSpec } from '../../core/llm/spec';
import type { PromptTool } from '../../core/prompts/shared';
import type { Repositories } from '../../core/repositories';

// The pure parts live in the shared use case (src/app/evaluate/methods.ts), used by `toolmem eval` too.
export { countingEngine, DEFAULT_LLM_MAX_TEST, llmCallsPerMethod } from './methods';

export const NO_ENGINE_MESSAGE = 'The LLM methods need a language model: choose one in Settings.';

/**
 * The loaded engine of `spec` for the LLM methods, through the one `resolveEngine` over the host's
 * engines (in-browser ones download / compile here, with progress). No model: refused.
 */
export async function loadLlmEngine(
  spec: EngineSpec,
  host: EngineHost,
  opts: { signal?: AbortSignal; onProgress?: (text: string, fraction?: number) => void } = {},
): Promise<LlmEngine> {
  if (isNoEngine(spec)) throw new ValidationError(NO_ENGINE_MESSAGE);
  const engine = await resolveEngine(spec, host);
  await engine.load?.({ ...(opts.signal ? { signal: opts.signal } : {}), onProgress: (p) => opts.onProgress?.(p.text, p.fraction) });
  return engine;
}

/** Name, modality and description of every known tool, for the prompts. */
export async function promptTools(repos: Repositories): Promise<Map<string, PromptTool>> {
  const tools = await repos.tools.list();
  return new Map(tools.map((t) => [t.id, { id: t.id, name: t.name, modality: t.modality, description: t.description }]));
}
