/**
 * Engine choice as a string (CLI flag, saved build settings): `none` or `openai:URL#MODEL`
 * (e.g. `openai:http://127.0.0.1:8080/v1#qwen2.5-7b-instruct`). WebLLM/wllama specs will be added
 * by the worker hosts; they are not constructed here.
 */
import {
  estimateTokens,
  type EngineCapabilities,
  type LlmEngine,
} from './engine';
import { EngineSpecError, LlmUnavailableError } from './errors';
import { OpenAiCompatibleEngine } from './openai-compatible';

export type EngineSpec = { kind: 'none' } | { kind: 'openai'; baseUrl: string; model: string };

export function parseEngineSpec(text: string): EngineSpec {
  const t = text.trim();
  if (t === '' || t === 'none') return { kind: 'none' };
  const m = /^openai:(https?:\/\/[^#\s]+)#(.+)$/.exec(t);
  if (!m) throw new EngineSpecError(`Unknown LLM engine '${text}': use 'none' or 'openai:URL#MODEL' (e.g. openai:http://127.0.0.1:8080/v1#my-model).`);
  return { kind: 'openai', baseUrl: m[1]!, model: m[2]! };
}

/** The `none` engine: building runs without an LLM (evidence clusters only). Any chat fails. */
export class NoneEngine implements LlmEngine {
  readonly id = 'none';
  readonly capabilities: EngineCapabilities = { streaming: false, jsonSchema: false };
  countTokens(text: string): number {
    return estimateTokens(text);
  }
  chat(): Promise<never> {
    return Promise.reject(new LlmUnavailableError('No LLM engine is configured (engine "none").'));
  }
}

export function isNoneEngine(engine: LlmEngine | null | undefined): boolean {
  return !engine || engine.id === 'none';
}

export function createEngine(spec: EngineSpec, opts: { apiKey?: string; fetch?: typeof fetch } = {}): LlmEngine {
  if (spec.kind === 'none') return new NoneEngine();
  return new OpenAiCompatibleEngine({ baseUrl: spec.baseUrl, model: spec.model, ...opts });
}
