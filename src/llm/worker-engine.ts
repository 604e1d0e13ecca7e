/**
 * An in-browser engine as seen from another thread: the core `LlmEngine` interface over the llm
 * worker's RPC (a Worker from the page, or a MessagePort from the memory/eval workers). Streaming
 * deltas arrive as progress events; aborting the signal cancels the call in the worker.
 */
import { estimateTokens, type ChatMessage, type ChatOptions, type ChatResult, type EngineCapabilities, type EngineLoadProgress, type LlmEngine } from '../core/llm/engine';
import type { Client } from '../rpc';
import type { LlmApi } from '../services/llm-api';

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
    const loaded = await this.client.call('load', { spec: this.id }, { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
    this.capabilities = loaded.capabilities;
  }

  chat(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const { signal, onToken, temperature, maxTokens, jsonSchema } = options;
    return this.client.call(
      'chat',
      {
        spec: this.id,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        options: { ...(temperature !== undefined ? { temperature } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}), ...(jsonSchema ? { jsonSchema } : {}) },
      },
      { ...(signal ? { signal } : {}), ...(onToken ? { onProgress: onToken } : {}) },
    );
  }
}
