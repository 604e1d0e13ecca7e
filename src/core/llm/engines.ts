/**
 * The engine table: one row per engine kind, with what the kind needs, where it runs, which
 * origins the page must be allowed to reach for it (the CSP, src/ui/csp.ts), the Settings fields
 * it reads, and the words Settings shows for it. Code that differs by kind reads a row here
 * instead of comparing kinds by hand (issue #29); the spec grammar itself is spec.ts.
 * Pure: no DOM, no model libraries.
 */

export interface TokenBias {
  from: number;
  to: number;
  value: number;
}

export type EngineSpec =
  | { kind: 'none' }
  | { kind: 'openai'; baseUrl: string; model: string }
  | { kind: 'wllama'; source: string; bias?: TokenBias; contextSize?: number }
  | { kind: 'webllm'; model: string };

export type EngineKind = EngineSpec['kind'];

/** What a page may connect to for one spec: origins, and whether the model hub's downloads. */
export interface EngineConnections {
  origins: string[];
  hub: boolean;
}

export interface EngineRow<K extends EngineKind> {
  kind: K;
  /** The choice in Settings → Language model. */
  choice: string;
  /** The engine's name in messages ("The WebLLM engine runs only in the browser app"). */
  name: string;
  /** `anywhere`: Node CLI, workers and the page; `browser`: the llm worker only (src/llm). */
  runs: 'anywhere' | 'browser';
  /** What must be there before it can answer: nothing, a server, WebAssembly threads, WebGPU. */
  needs: 'nothing' | 'endpoint' | 'wasm' | 'webgpu';
  /** The Settings form fields (src/ui/llm-settings.svelte.ts) that make up its spec. */
  fields: readonly string[];
  connections(spec: Extract<EngineSpec, { kind: K }>): EngineConnections;
}

/** An http(s) URL's origin, or null (a path on this site, `file:NAME`, anything unreadable). */
export function httpOrigin(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

const originsOf = (url: string): string[] => {
  const o = httpOrigin(url);
  return o ? [o] : [];
};

export const ENGINES: { readonly [K in EngineKind]: EngineRow<K> } = {
  none: {
    kind: 'none',
    choice: 'None — the capability analysis only (works everywhere)',
    name: 'none',
    runs: 'anywhere',
    needs: 'nothing',
    fields: [],
    connections: () => ({ origins: [], hub: false }),
  },
  openai: {
    kind: 'openai',
    choice: 'An OpenAI-compatible endpoint (Ollama, LM Studio, llama.cpp server, vLLM)',
    name: 'OpenAI-compatible',
    runs: 'anywhere',
    needs: 'endpoint',
    fields: ['baseUrl', 'model', 'apiKey'],
    connections: (spec) => ({ origins: originsOf(spec.baseUrl), hub: false }),
  },
  wllama: {
    kind: 'wllama',
    choice: 'In this browser, on the CPU — a GGUF model run by wllama (llama.cpp)',
    name: 'wllama',
    runs: 'browser',
    needs: 'wasm',
    fields: ['wllamaSource', 'ggufUrl', 'ggufFile', 'bias', 'contextSize'],
    connections: (spec) => ({ origins: originsOf(spec.source), hub: false }),
  },
  webllm: {
    kind: 'webllm',
    choice: 'In this browser, on the GPU — a WebLLM model (WebGPU)',
    name: 'WebLLM',
    runs: 'browser',
    needs: 'webgpu',
    fields: ['webllmModel'],
    connections: () => ({ origins: [], hub: true }),
  },
};

/** Whether a spec names no model (instead of comparing strings with 'none'). */
export function isNoEngine(spec: EngineSpec | null | undefined): boolean {
  return !spec || spec.kind === 'none';
}

/** An OpenAI-compatible endpoint's address and model, or null for a spec of another kind. */
export function endpointOf(spec: EngineSpec): { baseUrl: string; model: string } | null {
  return spec.kind === 'openai' ? { baseUrl: spec.baseUrl, model: spec.model } : null;
}

/** Every kind, in the order Settings offers them. */
export const ENGINE_KINDS: readonly EngineKind[] = Object.keys(ENGINES) as EngineKind[];

/** The row of a spec's kind. */
export function engineRow<K extends EngineKind>(kind: K): EngineRow<K> {
  return ENGINES[kind];
}

/** What the page must be allowed to reach for `spec` (its row's `connections`). */
export function engineConnections(spec: EngineSpec): EngineConnections {
  // TypeScript cannot tie `spec` to the row its own kind picks (a correlated union): the row of
  // spec.kind is the one whose parameter type is spec's member, so the call is sound.
  const row = ENGINES[spec.kind] as EngineRow<EngineKind>;
  return row.connections(spec as never);
}
