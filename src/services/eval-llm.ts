/**
 * What the eval service needs around the LLM methods: resolving the engine of a spec (through the
 * host's `engine` dependency, so the browser can hand out in-browser engines), counting calls for
 * progress, the exact number of calls an evaluation will make, and the tools' descriptions.
 */
import type { ScoredPair } from '../core/eval/ground-truth';
import { splitByTask, type SplitSizes } from '../core/eval/split';
import { ValidationError } from '../core/errors';
import type { ChatMessage, ChatOptions, ChatResult, LlmEngine } from '../core/llm/engine';
import type { PromptTool } from '../core/prompts/shared';
import type { Repositories } from '../core/repositories';

/** Test tasks per split scored by the LLM methods unless the request says otherwise. */
export const DEFAULT_LLM_MAX_TEST = 50;

export const NO_ENGINE_MESSAGE = 'The LLM methods need a language model: choose one in Settings.';

export function isNoEngineSpec(spec: string | undefined): boolean {
  const t = (spec ?? '').trim();
  return t === '' || t === 'none';
}

/** The engine for `spec`, loaded (in-browser engines download / compile here, with progress). */
export async function resolveEngine(
  engineOf: ((spec: string) => Promise<LlmEngine>) | undefined,
  spec: string | undefined,
  opts: { signal?: AbortSignal; onProgress?: (text: string, fraction?: number) => void } = {},
): Promise<LlmEngine> {
  if (isNoEngineSpec(spec) || !engineOf) throw new ValidationError(NO_ENGINE_MESSAGE);
  const engine = await engineOf(spec!.trim());
  if (engine.id === 'none') throw new ValidationError(NO_ENGINE_MESSAGE);
  await engine.load?.({ ...(opts.signal ? { signal: opts.signal } : {}), onProgress: (p) => opts.onProgress?.(p.text, p.fraction) });
  return engine;
}

/** Wraps an engine so every finished call is reported (progress "done / total calls"). */
export function countingEngine(inner: LlmEngine, onCall: () => void): LlmEngine {
  return {
    get id() {
      return inner.id;
    },
    get capabilities() {
      return inner.capabilities;
    },
    countTokens: (text: string) => inner.countTokens(text),
    async chat(messages: readonly ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
      const result = await inner.chat(messages, options);
      onCall();
      return result;
    },
  };
}

/**
 * Model calls one LLM method makes over all seeds: per seed, the (task, tool) pairs with a true
 * score among the first `maxTest` test tasks of that seed's split (the harness's own rule). A
 * `fixed` split (a stored memory's) replaces the seeded ones.
 */
export function llmCallsPerMethod(data: readonly ScoredPair[], sizes: SplitSizes, seeds: readonly number[], maxTest: number, fixed?: { test: readonly string[] }): number {
  const toolsPerTask = new Map<string, number>();
  for (const p of data) toolsPerTask.set(p.taskId, (toolsPerTask.get(p.taskId) ?? 0) + 1);
  let total = 0;
  for (const seed of seeds) {
    const test = fixed ? fixed.test : splitByTask(toolsPerTask.keys(), sizes, seed).test;
    for (const id of test.slice(0, maxTest)) total += toolsPerTask.get(id) ?? 0;
  }
  return total;
}

/** Name, modality and description of every known tool, for the prompts. */
export async function promptTools(repos: Repositories): Promise<Map<string, PromptTool>> {
  const tools = await repos.tools.list();
  return new Map(tools.map((t) => [t.id, { id: t.id, name: t.name, modality: t.modality, description: t.description }]));
}
