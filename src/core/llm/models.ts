/**
 * The models an OpenAI-compatible server offers: `GET {base}/v1/models` (Ollama, LM Studio,
 * llama.cpp server and vLLM all answer it), so Settings can offer them to pick from instead of
 * asking the user to type a name exactly. Only `fetch`: runs in the page, workers and Node.
 */
import { CancelledError } from '../errors';
import { LlmConnectionError, LlmHttpError, LlmResponseError } from './errors';

/** `{base}/v1/models`, not doubling a `/v1` the base already has (as chatCompletionsUrl). */
export function modelsUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/models` : `${base}/v1/models`;
}

/** At most this many model ids are kept (a hosted API can list hundreds). */
export const MAX_LISTED_MODELS = 200;

export async function listModels(baseUrl: string, opts: { apiKey?: string; fetch?: typeof fetch; signal?: AbortSignal } = {}): Promise<string[]> {
  const url = modelsUrl(baseUrl);
  const doFetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.apiKey) headers.Authorization = `Bearer ${opts.apiKey}`;
  let response: Response;
  try {
    response = await doFetch(url, { method: 'GET', headers, signal: opts.signal ?? null });
  } catch (err) {
    if (opts.signal?.aborted) throw new CancelledError();
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new LlmConnectionError(`Cannot reach the LLM server at ${url}${code ? ` (${code})` : ''}: ${(err as Error).message}`, url, { cause: err });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok)
    throw new LlmHttpError(`LLM server answered HTTP ${response.status} ${response.statusText} for ${url}`, response.status, text.slice(0, 500));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LlmResponseError(`The reply of ${url} is not JSON, so this is probably not an OpenAI-compatible server.`);
  }
  // OpenAI: {data: [{id}]}; Ollama's native /api/tags shape {models: [{name}]} is accepted too.
  const list = (json as { data?: unknown; models?: unknown }).data ?? (json as { models?: unknown }).models;
  if (!Array.isArray(list)) throw new LlmResponseError(`The reply of ${url} has no list of models, so this is probably not an OpenAI-compatible server.`);
  const ids = list
    .map((m) => (m && typeof m === 'object' ? ((m as { id?: unknown }).id ?? (m as { name?: unknown }).name) : m))
    .filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b)).slice(0, MAX_LISTED_MODELS);
}
