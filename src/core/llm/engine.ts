/**
 * The chat-model contract every host implements: the OpenAI-compatible HTTP engine (browser and
 * Node CLI), the scripted replay engine (tests), `none`, and — later, inside a worker — WebLLM and
 * wllama. Pure: no model library, no DOM, no Node built-ins (`fetch`/`AbortSignal` only).
 *
 * Design constraints for in-browser engines:
 * - `load()` is optional and reports progress (weights download / compile), like the embedder's
 *   ModelLoadProgress; engines that need no loading (HTTP) omit it.
 * - `onToken` receives text deltas in order; concatenated they equal `ChatResult.text`. Through the
 *   worker RPC these become progress messages, so they must be plain strings.
 * - `signal` must abort both loading and generation with `CancelledError`.
 * - Token counts come from the engine when it knows them, else from `countTokens` (an estimate).
 */
import { CancelledError } from '../errors';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** A JSON Schema the reply must follow (used for constrained decoding when the engine supports it). */
export interface JsonSchemaSpec {
  /** Short identifier, [a-zA-Z0-9_-]{1,64} (OpenAI's rule). */
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatOptions {
  /** Default 0: the build must be reproducible. */
  temperature?: number;
  maxTokens?: number;
  jsonSchema?: JsonSchemaSpec;
  signal?: AbortSignal;
  /** Called with each generated text delta, in order (streaming). */
  onToken?: (delta: string) => void;
}

export interface ChatResult {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** True when the counts are estimates (the engine did not report usage). */
  estimated?: boolean;
}

export interface EngineLoadProgress {
  /** 0–1 when known. */
  fraction?: number;
  /** Human-readable stage, e.g. "downloading weights 3/12". */
  text: string;
  loadedBytes?: number;
  totalBytes?: number;
}

export interface EngineCapabilities {
  streaming: boolean;
  /** The engine can force the reply to follow `jsonSchema`. Otherwise the schema is only a hint. */
  jsonSchema: boolean;
  /** Maximum prompt + completion tokens, when known. */
  contextWindow?: number;
}

export interface LlmEngine {
  /** Identifies engine, model and revision, e.g. `openai:http://127.0.0.1:8080#qwen2.5-7b`. */
  readonly id: string;
  readonly capabilities: EngineCapabilities;
  chat(messages: readonly ChatMessage[], options?: ChatOptions): Promise<ChatResult>;
  /** Estimate is fine; used for budgeting and for measuring prompt sizes. */
  countTokens(text: string): number;
  /** Loads weights ahead of the first chat (in-browser engines). */
  load?(options?: { signal?: AbortSignal; onProgress?: (p: EngineLoadProgress) => void }): Promise<void>;
  dispose?(): Promise<void>;
}

/**
 * Token estimate without a tokenizer: BPE vocabularies of current chat models average about four
 * characters of English per token; words, numbers and punctuation each cost at least one.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(/[\p{L}\p{M}]+|\p{N}+|[^\s\p{L}\p{M}\p{N}]/gu)) tokens += Math.max(1, Math.ceil(m[0].length / 4));
  return tokens;
}

/** Prompt tokens of a chat: content plus a few tokens of framing per message. */
export function estimateChatTokens(messages: readonly ChatMessage[], count: (t: string) => number = estimateTokens): number {
  return messages.reduce((n, m) => n + count(m.content) + 4, 2);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
