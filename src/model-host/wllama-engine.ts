/**
 * llama.cpp in WebAssembly (wllama) behind the core `LlmEngine` contract, for machines without
 * WebGPU. Runs inside the llm worker (wllama starts its own inner worker for the wasm runtime).
 *
 * Constraints and reasons:
 * - The wasm file is served by the app (bundled by Vite); wllama's "compat" build would come from a
 *   CDN, so it is switched off: the app never fetches code from elsewhere.
 * - Models load from a URL (cached by wllama in the browser's private file storage, so the next load
 *   works offline) or from a Blob the user picked (see local-models.ts).
 * - Multi-threading needs cross-origin isolation (the app's server sends COOP/COEP); without it
 *   wllama falls back to one thread by itself.
 * - One chat at a time: llama.cpp's single slot is not re-entrant, so calls are queued.
 */
import { Wllama, type ChatCompletionChunk, type ChatCompletionParams, type StreamParams } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { dict } from '../core/data-keys';
import { CancelledError } from '../core/errors';
import type { ChatMessage, ChatOptions, ChatResult } from '../core/llm/engine';
import { InBrowserEngine, StreamedReply, type LoadOptions } from './in-browser-engine';
import { LlmError, LlmUnavailableError } from '../core/llm/errors';
import type { TokenBias } from '../core/llm/spec';

export interface WllamaSource {
  /** URL of the GGUF file (absolute, or a path on the app's origin). */
  url?: string;
  /** The GGUF file itself (a file the user picked). */
  blob?: Blob;
  /** For messages and the engine id. */
  name: string;
}

export interface WllamaEngineOptions {
  id: string;
  source: WllamaSource;
  bias?: TokenBias;
  contextSize?: number;
}

function biasMap(bias: TokenBias | undefined): Record<string, number> | undefined {
  if (!bias) return undefined;
  const map = dict<number>();
  for (let t = bias.from; t <= bias.to; t++) map[String(t)] = bias.value;
  return map;
}

/**
 * wllama's params type is the intersection of its chat params (`{"token id": bias}`, OpenAI's map)
 * and its sampling params (`{token, bias}[]`), which no value can be. The chat params go to
 * llama.cpp's server code, which reads the map and ignores a list of objects, so the map is sent;
 * this narrowing is the one place that bridges wllama's two declarations.
 */
function llamaLogitBias(map: Record<string, number>): ChatCompletionParams['logit_bias'] {
  return map as ChatCompletionParams['logit_bias'];
}

export class WllamaEngine extends InBrowserEngine<Wllama> {
  readonly id: string;
  readonly #bias: Record<string, number> | undefined;

  constructor(private readonly opts: WllamaEngineOptions) {
    super();
    this.id = opts.id;
    this.#bias = biasMap(opts.bias);
  }

  protected async loadModel({ signal, onProgress }: LoadOptions): Promise<void> {
    const { source } = this.opts;
    const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, allowOffline: true });
    wllama.setCompat(null);
    const params = { n_ctx: this.opts.contextSize ?? 4096, log_level: 4 };
    onProgress?.({ text: `Loading ${source.name}…`, fraction: 0 });
    try {
      if (source.blob) {
        await wllama.loadModel([source.blob], params);
      } else if (source.url) {
        const url = new URL(source.url, self.location.href).href;
        await wllama.loadModelFromUrl(url, {
          ...params,
          useCache: true,
          progressCallback: ({ loaded, total }: { loaded: number; total: number }) => {
            onProgress?.({ text: `Downloading ${source.name}`, loadedBytes: loaded, totalBytes: total, ...(total > 0 ? { fraction: loaded / total } : {}) });
          },
        });
      } else {
        throw new LlmUnavailableError(`The model ${source.name} has no file to load.`);
      }
    } catch (err) {
      await wllama.exit().catch(() => undefined);
      if (err instanceof LlmError) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new LlmUnavailableError(`Could not load the GGUF model ${source.name}: ${why}`, { cause: err });
    }
    if (signal?.aborted) {
      await wllama.exit();
      throw new CancelledError();
    }
    const info = wllama.getLoadedContextInfo();
    this.capabilities = { ...this.capabilities, contextWindow: info.n_ctx };
    this.runtime = wllama;
    onProgress?.({ text: `${source.name} is ready (${wllama.getNumThreads()} thread${wllama.getNumThreads() === 1 ? '' : 's'})`, fraction: 1 });
  }

  protected async generate(messages: readonly ChatMessage[], options: ChatOptions): Promise<ChatResult> {
    try {
      return await this.#complete(messages, options);
    } catch (err) {
      // llama.cpp turns the JSON schema into a grammar; some schemas or vocabularies make its sampler
      // fail to start. Then the schema is only a hint (the reply is validated anyway): ask without it,
      // and stop sending it for the rest of the session.
      if (!options.jsonSchema || !(err instanceof LlmError) || !/sampler|grammar|schema/i.test(err.message)) throw err;
      this.capabilities = { ...this.capabilities, jsonSchema: false };
      const { jsonSchema: _dropped, ...rest } = options;
      void _dropped;
      return this.#complete(messages, rest);
    }
  }

  async #complete(messages: readonly ChatMessage[], options: ChatOptions): Promise<ChatResult> {
    if (options.signal?.aborted) throw new CancelledError();
    const wllama = this.runtime;
    if (!wllama) throw new LlmUnavailableError('The wllama model has been unloaded.');
    const out = new StreamedReply(options.onToken);
    const params: ChatCompletionParams & StreamParams<ChatCompletionChunk> = {
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: options.temperature ?? 0,
      max_tokens: options.maxTokens ?? 512,
      ...(this.#bias ? { logit_bias: llamaLogitBias(this.#bias) } : {}),
      ...(options.jsonSchema && this.capabilities.jsonSchema
        ? { response_format: { type: 'json_schema' as const, json_schema: { name: options.jsonSchema.name, schema: options.jsonSchema.schema } } }
        : {}),
      ...(options.signal ? { abortSignal: options.signal } : {}),
      stream: true,
      onData: (chunk) => {
        out.add(chunk.choices[0]?.delta.content);
        if (chunk.usage) out.usage = chunk.usage;
        // llama.cpp reports exact counts in its timings when usage is absent from the stream.
        else if (chunk.timings) out.usage = { prompt_tokens: chunk.timings.prompt_n + chunk.timings.cache_n, completion_tokens: chunk.timings.predicted_n };
      },
    };
    try {
      await wllama.createChatCompletion(params);
    } catch (err) {
      if (options.signal?.aborted) throw new CancelledError();
      const why = err instanceof Error ? err.message : String(err);
      throw new LlmError(`wllama failed while generating: ${why}`, { cause: err });
    }
    return out.result(messages, options.signal);
  }

  protected unloadRuntime(wllama: Wllama): Promise<void> {
    return wllama.exit();
  }
}
