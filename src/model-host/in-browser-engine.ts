/**
 * What the in-browser engines (wllama, WebLLM) share: the model loads once (a failed load may be
 * retried; concurrent callers wait for the same load), and chats run one at a time, because both
 * runtimes hold a single generation context that is not re-entrant.
 */
import { CancelledError } from '../core/errors';
import {
  estimateTokens,
  type ChatMessage,
  type ChatOptions,
  type ChatResult,
  type EngineCapabilities,
  type EngineLoadProgress,
  type LlmEngine,
} from '../core/llm/engine';

export type LoadOptions = { signal?: AbortSignal; onProgress?: (p: EngineLoadProgress) => void };

export abstract class InBrowserEngine<Runtime> implements LlmEngine {
  abstract readonly id: string;
  /** The runtime holding the loaded model; null before a load and after `dispose`. */
  protected runtime: Runtime | null = null;
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

  /** Frees the model's memory (GPU buffers, the wasm heap); called once per loaded runtime. */
  protected abstract unloadRuntime(runtime: Runtime): Promise<void>;

  /** Unloads the model; the next call loads it again. */
  async dispose(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = null;
    this.#loading = null;
    if (runtime !== null) await this.unloadRuntime(runtime);
  }
}

/**
 * One streamed reply as both runtimes deliver it: deltas (passed on to `onToken` as they come) and
 * the token counts, when the runtime reports them. Without counts the result says `estimated`.
 */
export class StreamedReply {
  text = '';
  usage: { prompt_tokens: number; completion_tokens: number } | null | undefined = null;

  constructor(private readonly onToken?: (delta: string) => void) {}

  add(delta: string | null | undefined): void {
    if (!delta) return;
    this.text += delta;
    this.onToken?.(delta);
  }

  /** The chat's result; a reply cut off by the signal is a cancellation, not a short answer. */
  result(messages: readonly ChatMessage[], signal: AbortSignal | undefined): ChatResult {
    if (signal?.aborted) throw new CancelledError();
    const { text, usage } = this;
    if (usage) return { text, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
    return { text, promptTokens: messages.reduce((n, m) => n + estimateTokens(m.content), 0), completionTokens: estimateTokens(text), estimated: true };
  }
}
