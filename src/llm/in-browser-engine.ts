/**
 * What the in-browser engines (wllama, WebLLM) share: the model loads once (a failed load may be
 * retried; concurrent callers wait for the same load), and chats run one at a time, because both
 * runtimes hold a single generation context that is not re-entrant.
 */
import { estimateTokens, type ChatMessage, type ChatOptions, type ChatResult, type EngineCapabilities, type EngineLoadProgress, type LlmEngine } from '../core/llm/engine';

export type LoadOptions = { signal?: AbortSignal; onProgress?: (p: EngineLoadProgress) => void };

export abstract class InBrowserEngine implements LlmEngine {
  abstract readonly id: string;
  capabilities: EngineCapabilities = { streaming: true, jsonSchema: true };
  #loading: Promise<void> | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  /** Loads the weights; called at most once at a time, again only after a failure or `forget()`. */
  protected abstract loadModel(options: LoadOptions): Promise<void>;
  /** One chat on the loaded model; calls never overlap. */
  protected abstract generate(messages: readonly ChatMessage[], options: ChatOptions): Promise<ChatResult>;

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  load(options: LoadOptions = {}): Promise<void> {
    this.#loading ??= this.loadModel(options).catch((err: unknown) => {
      this.#loading = null;
      throw err;
    });
    return this.#loading;
  }

  chat(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    const run = this.#queue.then(async () => {
      await this.load(options.signal ? { signal: options.signal } : {});
      return this.generate(messages, options);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** After unloading: the next call loads the model again. */
  protected forget(): void {
    this.#loading = null;
  }

  abstract dispose(): Promise<void>;
}
