/**
 * Engine choice as a string (CLI flag, Settings, saved build settings), so a stored build can be
 * resumed with exactly the model it started with:
 * - `none` — no LLM (the capability analysis only);
 * - `openai:URL#MODEL` — an OpenAI-compatible endpoint (Ollama, LM Studio, llama.cpp server, vLLM);
 * - `wllama:SOURCE[;bias=FROM-TO:VALUE][;ctx=N]` — a GGUF model run by llama.cpp in WebAssembly
 *   (browser only). SOURCE is an http(s) URL, a path on the app's origin (`/models/x.gguf`), or
 *   `file:NAME` for a file the user picked (kept in the browser's private file storage).
 *   `bias` adds a logit bias to a token-id range (e.g. `3-258:-100` keeps a random-weight test model
 *   from emitting raw byte tokens); `ctx` sets the context window.
 * - `webllm:MODEL_ID` — a WebLLM prebuilt model on WebGPU (browser only).
 * The browser engines are constructed by the llm worker (src/llm); `createEngine` here builds only
 * the ones that run anywhere.
 *
 * A spec is parsed once, where it enters (a Settings read, a CLI flag, a stored Run's config), and
 * travels as an `EngineSpec`; the canonical string (`formatEngineSpec`) is kept only where it is
 * stored or sent as an id (Settings, Run configs, memory files, the llm worker's wire). Every host
 * turns a spec into an engine with the one `resolveEngine`.
 */
import { estimateTokens, type EngineCapabilities, type LlmEngine } from './engine';
import { EngineSpecError, LlmUnavailableError } from './errors';
import { OpenAiCompatibleEngine } from './openai-compatible';
import { quote } from '../text/quote';
import { endpointOf, ENGINES, isNoEngine, type EngineKind, type EngineSpec, type TokenBias } from './engines';

// The spec union and the per-kind facts live in the engine table (engines.ts); re-exported here.
export type { EngineKind, EngineSpec, TokenBias };

export type BrowserEngineSpec = Extract<EngineSpec, { kind: 'wllama' | 'webllm' }>;

/** No language model: builds run the capability analysis alone; the LLM methods are refused. */
export const NO_ENGINE: EngineSpec = Object.freeze({ kind: 'none' });

export { isNoEngine } from './engines';

const USAGE = "use 'none', 'openai:URL#MODEL', 'wllama:URL' (a GGUF file) or 'webllm:MODEL_ID'";

function parseWllama(rest: string, text: string): EngineSpec {
  const parts = rest.split(';');
  const source = parts[0]!.trim();
  if (!/^(https?:\/\/\S+|\/\S+|file:.+)$/.test(source)) {
    throw new EngineSpecError(`Bad wllama model source '${source}' in '${text}': give an http(s) URL, a path on this site (/models/m.gguf) or file:NAME.`);
  }
  const spec: Extract<EngineSpec, { kind: 'wllama' }> = { kind: 'wllama', source };
  for (const opt of parts.slice(1)) {
    const bias = /^bias=(\d+)-(\d+):(-?\d+(?:\.\d+)?)$/.exec(opt.trim());
    const ctx = /^ctx=(\d+)$/.exec(opt.trim());
    if (bias) {
      const [from, to, value] = [Number(bias[1]), Number(bias[2]), Number(bias[3])];
      if (to < from) throw new EngineSpecError(`Bad token range ${from}-${to} in '${text}': the first id must not exceed the last.`);
      spec.bias = { from, to, value };
    } else if (ctx && Number(ctx[1]) >= 128) {
      spec.contextSize = Number(ctx[1]);
    } else {
      throw new EngineSpecError(`Unknown wllama option '${opt}' in '${text}': use bias=FROM-TO:VALUE or ctx=N (N ≥ 128).`);
    }
  }
  return spec;
}

export function parseEngineSpec(text: string): EngineSpec {
  const t = text.trim();
  if (t === '' || t === 'none') return { kind: 'none' };
  if (t.startsWith('wllama:')) return parseWllama(t.slice('wllama:'.length), text);
  if (t.startsWith('webllm:')) {
    const model = t.slice('webllm:'.length).trim();
    if (!/^[\w.-]+$/.test(model)) throw new EngineSpecError(`Bad WebLLM model id '${model}' in '${text}': pick one of WebLLM's prebuilt model ids.`);
    return { kind: 'webllm', model };
  }
  const m = /^openai:(https?:\/\/[^#\s]+)#(.+)$/.exec(t);
  if (!m) throw new EngineSpecError(`Unknown LLM engine '${text}': ${USAGE} (e.g. openai:http://127.0.0.1:8080/v1#my-model).`);
  // Trailing slashes dropped: the canonical string is then the engine's own id (OpenAiCompatibleEngine).
  return { kind: 'openai', baseUrl: m[1]!.replace(/\/+$/, ''), model: m[2]! };
}

/**
 * A spec as stored (Settings, a Run's config, a memory's build settings): absent or empty is no
 * model. The one reader of persisted spec strings; throws EngineSpecError on a malformed one.
 */
export function readEngineSpec(stored: string | null | undefined): EngineSpec {
  return parseEngineSpec(stored ?? '');
}

/** The canonical string of a spec (inverse of {@link parseEngineSpec}). */
export function formatEngineSpec(spec: EngineSpec): string {
  switch (spec.kind) {
    case 'none':
      return 'none';
    case 'openai':
      return `openai:${spec.baseUrl}#${spec.model}`;
    case 'webllm':
      return `webllm:${spec.model}`;
    case 'wllama':
      return `wllama:${spec.source}${spec.bias ? `;bias=${spec.bias.from}-${spec.bias.to}:${spec.bias.value}` : ''}${
        spec.contextSize ? `;ctx=${spec.contextSize}` : ''
      }`;
  }
}

/**
 * A spec that crossed a thread boundary, checked: the round trip through its canonical string
 * rejects what parsing would have (a bad endpoint URL, an unknown kind).
 */
export function checkEngineSpec(spec: EngineSpec): EngineSpec {
  const text = formatEngineSpec(spec) as string | undefined;
  if (typeof text !== 'string') throw new EngineSpecError(`Unknown LLM engine kind ${quote(String((spec as { kind?: unknown }).kind), 40)}: ${USAGE}.`);
  return parseEngineSpec(text);
}

/** A short human label: "none", "qwen2.5:7b at localhost:11434", "tiny.gguf (wllama, CPU)". */
export function describeEngineSpec(spec: EngineSpec): string {
  switch (spec.kind) {
    case 'none':
      return 'none (capability analysis only)';
    case 'openai': {
      let host = spec.baseUrl;
      try {
        host = new URL(spec.baseUrl).host;
      } catch {
        /* keep the raw text */
      }
      return `${spec.model} at ${host}`;
    }
    case 'webllm':
      return `${spec.model} (WebLLM, WebGPU)`;
    case 'wllama': {
      const name = spec.source.startsWith('file:') ? spec.source.slice(5) : (spec.source.split('/').pop() ?? spec.source);
      return `${name} (wllama, CPU)`;
    }
  }
}

/** Engines that exist only inside a browser (they need WebAssembly threads or WebGPU and a worker). */
export function isBrowserEngine(spec: EngineSpec): spec is BrowserEngineSpec {
  return ENGINES[spec.kind].runs === 'browser';
}

/** The `none` engine: building runs without an LLM (the capability analysis only). Any chat fails. */
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

/** Engines that run anywhere (Node CLI, workers). Browser engines come from the llm worker. */
export function createEngine(spec: EngineSpec, opts: { apiKey?: string; fetch?: typeof fetch } = {}): LlmEngine {
  if (isNoEngine(spec)) return new NoneEngine();
  const endpoint = endpointOf(spec);
  if (!endpoint) {
    throw new LlmUnavailableError(
      `The ${ENGINES[spec.kind].name} engine runs only in the browser app; from the command line use an OpenAI-compatible endpoint (e.g. a ` +
        `llama.cpp server) with --llm openai:URL#MODEL.`,
    );
  }
  return new OpenAiCompatibleEngine({ ...endpoint, ...opts });
}

/** What a host offers `resolveEngine` beyond the engines that run anywhere. */
export interface EngineHost {
  /**
   * Engines the host supplies itself: the in-browser models of the llm worker (reached by a port),
   * or a scripted engine in tests. Returns null for a spec it does not serve; it may throw when it
   * serves the spec but cannot now (the llm worker not connected yet).
   */
  engineOf?(spec: EngineSpec): LlmEngine | null;
  /** The key for an OpenAI-compatible endpoint (kept by the host, never stored with a Run). */
  apiKey?(): string | undefined | Promise<string | undefined>;
  fetch?: typeof fetch;
}

/**
 * The engine of a spec, for every caller (build, evaluate, predict, Settings' trial, the CLI): the
 * host's own engine when it has one for the spec, else `createEngine` (none, or an endpoint with the
 * host's key). Not loaded yet: callers that show progress call `engine.load` themselves.
 */
export async function resolveEngine(spec: EngineSpec, host: EngineHost = {}): Promise<LlmEngine> {
  if (isNoEngine(spec)) return new NoneEngine();
  const own = host.engineOf?.(spec);
  if (own) return own;
  const apiKey = endpointOf(spec) ? await host.apiKey?.() : undefined;
  return createEngine(spec, { ...(apiKey ? { apiKey } : {}), ...(host.fetch ? { fetch: host.fetch } : {}) });
}
