/**
 * An in-browser engine as seen from another thread: the core `LlmEngine` interface over the llm
 * worker's RPC (a Worker from the page, or a MessagePort from the memory/predictors workers). Streaming
 * deltas arrive as progress events; aborting the signal cancels the call in the worker.
 */
import {
  estimateTokens,
  type ChatMessage,
  type ChatOptions,
  type ChatResult,
  type EngineCapabilities,
  type EngineLoadProgress,
  type LlmEngine,
} from '../core/llm/engine';
import { LlmUnavailableError } from '../core/llm/errors';
import { formatEngineSpec, isBrowserEngine, type EngineSpec } from '../core/llm/spec';
import type { Client } from '../rpc';
import type { LlmApi } from './llm-api';

export class WorkerLlmEngine implements LlmEngine {
  capabilities: EngineCapabilities = { streaming: true, jsonSchema: true };

  constructor(
    private readonly client: Client<LlmApi>,
    /** The canonical spec (formatEngineSpec): it is also the engine id stored with builds. */
    readonly id: string,
  ) {}

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async load(options: { signal?: AbortSignal; onProgress?: (p: EngineLoadProgress) => void } = {}): Promise<void> {
    const loaded = await this.client.call(
      'load',
      { spec: this.id },
      { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
    );
    this.capabilities = loaded.capabilities;
  }

  chat(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const { signal, onToken, temperature, maxTokens, jsonSchema } = options;
    return this.client.call(
      'chat',
      {
        spec: this.id,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        options: {
          ...(temperature !== undefined ? { temperature } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
          ...(jsonSchema ? { jsonSchema } : {}),
        },
      },
      { ...(signal ? { signal } : {}), ...(onToken ? { onProgress: onToken } : {}) },
    );
  }
}

/**
 * `EngineHost.engineOf` for a thread that reaches the llm worker through `client` (the page, or the
 * memory and predictors workers over the port the page sends): in-browser specs are served there, the
 * others (none, endpoints) are left to `resolveEngine`.
 */
export function llmWorkerEngines(client: () => Client<LlmApi> | null): (spec: EngineSpec) => LlmEngine | null {
  return (spec) => {
    if (!isBrowserEngine(spec)) return null;
    const c = client();
    if (!c) throw new LlmUnavailableError('The in-browser model is not connected yet; try again in a moment.');
    return new WorkerLlmEngine(c, formatEngineSpec(spec));
  };
}
