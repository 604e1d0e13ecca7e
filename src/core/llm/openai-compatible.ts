/**
 * Engine for any server speaking the OpenAI chat-completions protocol (llama.cpp server, vLLM,
 * Ollama, LM Studio, OpenAI itself): `POST {base}/v1/chat/completions`, optionally streamed as
 * Server-Sent Events. Uses only `fetch`, so it runs in the browser, in workers and in Node ≥ 20.
 *
 * Constraints:
 * - temperature defaults to 0 (reproducible builds);
 * - `response_format: json_schema` is sent when a schema is given; a server that rejects it with
 *   400 is asked once more without it, and the engine remembers not to send it again;
 * - errors are named: LlmConnectionError (unreachable), LlmHttpError (status ≥ 400),
 *   LlmResponseError (2xx but not the expected JSON/SSE), CancelledError (signal aborted).
 */
import { CancelledError } from '../errors';
import {
  estimateChatTokens,
  estimateTokens,
  throwIfAborted,
  type ChatMessage,
  type ChatOptions,
  type ChatResult,
  type EngineCapabilities,
  type LlmEngine,
} from './engine';
import { LlmConnectionError, LlmHttpError, LlmResponseError } from './errors';
import { SseParser } from './sse';

export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:8080` or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Injectable for tests and for hosts with their own fetch; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Send `response_format` json_schema when a schema is given (default true). */
  jsonSchema?: boolean;
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/** `{base}/v1/chat/completions`, not doubling a `/v1` the base already has. */
export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

const excerpt = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);

export class OpenAiCompatibleEngine implements LlmEngine {
  readonly id: string;
  readonly url: string;
  private readonly fetchImpl: typeof fetch;
  private sendSchema: boolean;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    if (!options.model) throw new TypeError('OpenAiCompatibleEngine needs a model name');
    this.url = chatCompletionsUrl(options.baseUrl);
    this.id = `openai:${options.baseUrl.replace(/\/+$/, '')}#${options.model}`;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sendSchema = options.jsonSchema ?? true;
  }

  get capabilities(): EngineCapabilities {
    return { streaming: true, jsonSchema: this.sendSchema };
  }

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async chat(messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatResult> {
    throwIfAborted(options.signal);
    const withSchema = this.sendSchema && options.jsonSchema !== undefined;
    try {
      return await this.request(messages, options, withSchema);
    } catch (err) {
      // Servers without structured output answer 400 to response_format: ask once more without it.
      if (withSchema && err instanceof LlmHttpError && err.status === 400 && /response_format|json_schema|schema/i.test(err.body)) {
        this.sendSchema = false;
        return this.request(messages, options, false);
      }
      throw err;
    }
  }

  private async request(messages: readonly ChatMessage[], options: ChatOptions, withSchema: boolean): Promise<ChatResult> {
    const stream = options.onToken !== undefined;
    const body: Record<string, unknown> = {
      model: this.options.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: options.temperature ?? 0,
      stream,
    };
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    if (stream) body.stream_options = { include_usage: true };
    if (withSchema && options.jsonSchema) {
      body.response_format = { type: 'json_schema', json_schema: { name: options.jsonSchema.name, schema: options.jsonSchema.schema, strict: true } };
    }
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: stream ? 'text/event-stream' : 'application/json' };
    if (this.options.apiKey) headers.Authorization = `Bearer ${this.options.apiKey}`;

    let response: Response;
    try {
      response = await this.fetchImpl(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal: options.signal ?? null });
    } catch (err) {
      if (options.signal?.aborted) throw new CancelledError();
      const code = (err as { cause?: { code?: string } }).cause?.code;
      throw new LlmConnectionError(`Cannot reach the LLM server at ${this.url}${code ? ` (${code})` : ''}: ${(err as Error).message}`, this.url, {
        cause: err,
      });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new LlmHttpError(`LLM server answered HTTP ${response.status} ${response.statusText}: ${excerpt(text)}`, response.status, excerpt(text));
    }
    const result = stream ? await this.readStream(response, options) : await this.readJson(response, options.signal);
    const estimated = result.usage?.prompt_tokens === undefined || result.usage.completion_tokens === undefined;
    return {
      text: result.text,
      promptTokens: result.usage?.prompt_tokens ?? estimateChatTokens(messages),
      completionTokens: result.usage?.completion_tokens ?? estimateTokens(result.text),
      ...(estimated ? { estimated: true } : {}),
    };
  }

  private async readJson(response: Response, signal: AbortSignal | undefined): Promise<{ text: string; usage?: Usage }> {
    let raw: string;
    try {
      raw = await response.text();
    } catch (err) {
      if (signal?.aborted) throw new CancelledError();
      throw new LlmConnectionError(`Connection to ${this.url} broke while reading the reply`, this.url, { cause: err });
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new LlmResponseError(`LLM server reply is not JSON: ${excerpt(raw)}`);
    }
    const choice = (json as { choices?: { message?: { content?: unknown } }[] }).choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string') throw new LlmResponseError(`LLM server reply has no choices[0].message.content: ${excerpt(raw)}`);
    const usage = (json as { usage?: Usage }).usage;
    return usage ? { text: content, usage } : { text: content };
  }

  private async readStream(response: Response, options: ChatOptions): Promise<{ text: string; usage?: Usage }> {
    if (!response.body) throw new LlmResponseError('LLM server sent an empty streaming reply');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    let text = '';
    let usage: Usage | undefined;
    let done = false;
    const handle = (payload: string) => {
      if (done) return;
      if (payload.trim() === '[DONE]') {
        done = true;
        return;
      }
      let chunk: { choices?: { delta?: { content?: unknown } }[]; usage?: Usage | null; error?: { message?: string } };
      try {
        chunk = JSON.parse(payload) as typeof chunk;
      } catch {
        throw new LlmResponseError(`LLM stream event is not JSON: ${excerpt(payload)}`);
      }
      if (chunk.error) throw new LlmResponseError(`LLM server reported an error mid-stream: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
      if (chunk.usage) usage = chunk.usage;
      const delta = chunk.choices?.[0]?.delta?.content;
      if (typeof delta === 'string' && delta !== '') {
        text += delta;
        options.onToken?.(delta);
      }
    };
    try {
      while (!done) {
        const { value, done: eof } = await reader.read();
        if (eof) break;
        for (const p of parser.push(decoder.decode(value, { stream: true }))) handle(p);
      }
      for (const p of parser.end()) handle(p);
    } catch (err) {
      if (options.signal?.aborted) throw new CancelledError();
      if (err instanceof LlmResponseError) throw err;
      throw new LlmConnectionError(`Connection to ${this.url} broke during streaming: ${(err as Error).message}`, this.url, { cause: err });
    } finally {
      reader.cancel().catch(() => undefined);
    }
    return usage ? { text, usage } : { text };
  }
}
