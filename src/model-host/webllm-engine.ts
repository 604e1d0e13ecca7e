/**
 * WebLLM (MLC models compiled for WebGPU) behind the core `LlmEngine` contract. Runs inside the llm
 * worker: WebGPU is available to dedicated workers, so the page stays responsive while it computes.
 *
 * Constraints and reasons:
 * - The library (~6 MB) is imported only when a WebLLM model is chosen.
 * - Weights come from the model hub (a download of 0.5–5 GB, then cached by the browser); on a
 *   machine that is offline and has never downloaded the model, loading fails with a clear message.
 * - WebGPU may be missing (older browsers, some Linux drivers): `checkWebGpu` says so before any
 *   download starts, and the user is pointed to wllama (CPU) or an endpoint.
 */
import type { MLCEngine } from '@mlc-ai/web-llm';
import { CancelledError } from '../core/errors';
import type { ChatMessage, ChatOptions, ChatResult } from '../core/llm/engine';
import { InBrowserEngine, StreamedReply, type LoadOptions } from './in-browser-engine';
import { LlmError, LlmUnavailableError } from '../core/llm/errors';
import type { WebGpuStatus, WebLlmModelInfo } from './llm-api';

interface GpuLike {
  requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean } } | null>;
}

export async function checkWebGpu(): Promise<WebGpuStatus> {
  const gpu = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;
  if (!gpu)
    return {
      available: false,
      detail:
        'This browser has no WebGPU (it needs a recent Chrome or Edge; on Linux, WebGPU may have to be enabled). Use wllama (CPU) or an endpoint instead.',
    };
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter)
    return {
      available: false,
      detail: 'WebGPU is present but no graphics adapter is available (blocked driver or GPU). Use wllama (CPU) or an endpoint instead.',
    };
  const info = adapter.info ?? {};
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'a WebGPU adapter';
  return info.isFallbackAdapter ? { available: true, fallback: true, detail: `${name} (software fallback: very slow)` } : { available: true, detail: name };
}

/** WebLLM's prebuilt chat models (embedding and vision models left out), smallest first. */
export async function listWebLlmModels(): Promise<WebLlmModelInfo[]> {
  const { prebuiltAppConfig } = await import('@mlc-ai/web-llm');
  return prebuiltAppConfig.model_list
    .filter((m) => m.model_type === undefined || m.model_type === 0)
    .map((m) => ({ id: m.model_id, vramMB: m.vram_required_MB ?? null, lowResource: m.low_resource_required === true }))
    .sort((a, b) => (a.vramMB ?? Infinity) - (b.vramMB ?? Infinity));
}

export class WebLlmEngine extends InBrowserEngine<MLCEngine> {
  readonly id: string;

  constructor(private readonly model: string) {
    super();
    this.id = `webllm:${model}`;
  }

  protected async loadModel({ signal, onProgress }: LoadOptions): Promise<void> {
    const gpu = await checkWebGpu();
    if (!gpu.available) throw new LlmUnavailableError(gpu.detail);
    const webllm = await import('@mlc-ai/web-llm');
    if (!webllm.prebuiltAppConfig.model_list.some((m) => m.model_id === this.model)) {
      throw new LlmUnavailableError(`WebLLM has no prebuilt model '${this.model}'. Pick one from the list in Settings.`);
    }
    try {
      this.runtime = await webllm.CreateMLCEngine(this.model, {
        initProgressCallback: (r) => onProgress?.({ text: r.text, fraction: r.progress }),
      });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new LlmUnavailableError(
        `Could not load the WebLLM model ${this.model}: ${why} (the first load downloads the weights from the model hub, so it needs a connection).`,
        { cause: err },
      );
    }
    if (signal?.aborted) {
      await this.dispose();
      throw new CancelledError();
    }
  }

  protected async generate(messages: readonly ChatMessage[], options: ChatOptions): Promise<ChatResult> {
    if (options.signal?.aborted) throw new CancelledError();
    const engine = this.runtime;
    if (!engine) throw new LlmUnavailableError('The WebLLM model has been unloaded.');
    const stop = () => void engine.interruptGenerate();
    options.signal?.addEventListener('abort', stop, { once: true });
    const out = new StreamedReply(options.onToken);
    try {
      const stream = await engine.chat.completions.create({
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: options.temperature ?? 0,
        max_tokens: options.maxTokens ?? 512,
        stream: true,
        stream_options: { include_usage: true },
        ...(options.jsonSchema ? { response_format: { type: 'json_object' as const, schema: JSON.stringify(options.jsonSchema.schema) } } : {}),
      });
      for await (const chunk of stream) {
        out.add(chunk.choices[0]?.delta.content);
        if (chunk.usage) out.usage = chunk.usage;
      }
    } catch (err) {
      if (options.signal?.aborted) throw new CancelledError();
      const why = err instanceof Error ? err.message : String(err);
      throw new LlmError(`WebLLM failed while generating: ${why}`, { cause: err });
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
    return out.result(messages, options.signal);
  }

  protected unloadRuntime(engine: MLCEngine): Promise<void> {
    return engine.unload();
  }
}
