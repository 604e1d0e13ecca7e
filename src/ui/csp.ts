/**
 * Content-Security-Policy, in two parts (see docs/reliability.md):
 * 1. index.html carries a static policy: no inline or foreign script (`script-src 'self'
 *    'wasm-unsafe-eval'`), no plugins, no <base> hijack. Its connect-src is wide on purpose, because
 *    the endpoints the user configured are only known once the settings are read.
 * 2. At boot, before the app mounts, `installContentSecurityPolicy` reads the settings and appends a
 *    second policy whose connect-src lists only this origin, local servers (Ollama, LM Studio, llama.cpp
 *    on localhost) and the endpoints the user configured (LLM endpoint, remote GGUF file, and the
 *    Hugging Face hub when a hub embedding model or WebLLM is chosen). A page with two policies
 *    must satisfy both, so fetches anywhere else are refused by the browser.
 * A policy can be tightened at runtime but never relaxed: an endpoint on a new origin chosen in
 * Settings works after a reload; `watchConnectViolations` offers that reload when it happens.
 * Workers get no policy from the page: theirs comes from the HTTP response (scripts/serve.mjs).
 */
import { engineConnections, httpOrigin } from '../core/llm/engines';
import { parseEngineSpec } from '../core/llm/spec'; // not the barrel: that pulls zod (scripted engine) into the first load
import { BUNDLED_EMBED_MODEL } from '../model-host/embed-api';

/** Local model servers: the documented way to use an LLM; allowed without configuring anything. */
export const LOCAL_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*'] as const;

/** Where hub models (transformers.js embeddings, WebLLM weights) are downloaded from. */
export const HUB_SOURCES = ['https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co', 'https://raw.githubusercontent.com'] as const;

export interface CspSettings {
  llmEngine?: unknown;
  llmEndpoint?: unknown;
  embeddingModel?: unknown;
}

/** Sources the page may connect to, for these settings (beyond 'self', blob: and data:). */
export function connectSources(settings: CspSettings): string[] {
  const out = new Set<string>(LOCAL_SOURCES);
  let hub = typeof settings.embeddingModel === 'string' && settings.embeddingModel !== '' && settings.embeddingModel !== BUNDLED_EMBED_MODEL;
  if (typeof settings.llmEngine === 'string') {
    try {
      // The engine table says what each kind reaches (an endpoint, a GGUF file's host, the hub).
      const reach = engineConnections(parseEngineSpec(settings.llmEngine));
      for (const o of reach.origins) out.add(o);
      if (reach.hub) hub = true;
    } catch {
      // An unreadable spec allows nothing extra; Settings shows the problem.
    }
  }
  const endpoint = settings.llmEndpoint as { baseUrl?: unknown } | null | undefined;
  out.add(httpOrigin(endpoint?.baseUrl) ?? '');
  if (hub) for (const s of HUB_SOURCES) out.add(s);
  out.delete('');
  return [...out];
}

/** The boot-time policy: only what narrows the static one (connect-src). */
export function connectPolicy(settings: CspSettings): string {
  return `connect-src 'self' blob: data: ${connectSources(settings).join(' ')}`;
}

/** Appends the boot-time policy as a second <meta http-equiv="Content-Security-Policy">. */
export function appendPolicy(policy: string, doc: Document = document): HTMLMetaElement {
  const meta = doc.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = policy;
  meta.dataset.policy = 'connect';
  doc.head.appendChild(meta);
  return meta;
}

/**
 * Reads the settings that name endpoints (`read` resolves a settings key) and installs the policy.
 * When the settings cannot be read, the policy still goes in, with local servers only.
 */
export async function installContentSecurityPolicy(read: (key: string) => Promise<unknown>): Promise<string> {
  let settings: CspSettings = {};
  try {
    const [llmEngine, llmEndpoint, embeddingModel] = await Promise.all([read('llmEngine'), read('llmEndpoint'), read('embeddingModel')]);
    settings = { llmEngine, llmEndpoint, embeddingModel };
  } catch {
    // Storage blocked (private window): the app says so itself; the policy stays strict.
  }
  const policy = connectPolicy(settings);
  appendPolicy(policy);
  return policy;
}

/** Calls `onBlocked(origin)` once per origin when the page was refused a connection by the policy (not for script violations). */
export function watchConnectViolations(onBlocked: (origin: string) => void, target: EventTarget = document): () => void {
  const told = new Set<string>();
  const listener = (event: Event) => {
    const e = event as SecurityPolicyViolationEvent;
    if (!e.effectiveDirective?.startsWith('connect-src')) return;
    const origin = httpOrigin(e.blockedURI);
    if (origin && !told.has(origin)) {
      told.add(origin);
      onBlocked(origin);
    }
  };
  target.addEventListener('securitypolicyviolation', listener);
  return () => target.removeEventListener('securitypolicyviolation', listener);
}
