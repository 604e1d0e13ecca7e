/**
 * LLM errors in plain language, each with what to do: the server is not running, it does not
 * allow this page (CORS), the URL is wrong, the model is missing, the key is refused. The
 * technical message stays available to the caller for a details line.
 *
 * A browser cannot tell "nothing listens there" from "CORS refused" by the failed request alone
 * (both are a bare TypeError); the caller decides with a no-cors probe and passes `reachable`.
 */
import { quote } from '../text/quote';
import { EngineSpecError, LlmConnectionError, LlmHttpError, LlmResponseError } from './errors';
import { blockedPort, blockedPortText } from './blocked-ports';

export interface ExplainContext {
  /** The endpoint as the user typed it. */
  baseUrl: string;
  model?: string;
  /** The origin of this page (shown in the CORS advice). */
  origin?: string;
  /** A no-cors probe of the same URL got an answer: the server runs but refuses this page. */
  reachable?: boolean;
  /** The models the server listed, when known. */
  models?: readonly string[];
}

export interface ExplainedError {
  /** One or two sentences: what is wrong and what to do. */
  text: string;
  kind: 'not-running' | 'blocked-port' | 'cors' | 'wrong-url' | 'model-missing' | 'auth' | 'server' | 'other';
}

const modelMissing = (body: string) =>
  /model[^.]{0,80}(not found|does not exist|not exist|unknown|no such|missing|not loaded)|(not found|unknown|no such)[^.]{0,40}model/i.test(body);

export function explainLlmError(err: unknown, ctx: ExplainContext): ExplainedError {
  const where = quote(ctx.baseUrl, 120);
  if (err instanceof LlmConnectionError) {
    // A refused port fails like a server that is not running (a bare TypeError): the port says which.
    const port = blockedPort(ctx.baseUrl);
    if (port !== null) return { kind: 'blocked-port', text: blockedPortText(ctx.baseUrl, port) };
    if (ctx.reachable) {
      return {
        kind: 'cors',
        text:
          `The server at ${where} answered, but it does not allow requests from this page (CORS). Allow the ` +
          `origin ${ctx.origin ?? 'of this page'} on the server: Ollama — start it with OLLAMA_ORIGINS=${ctx.origin ?? '*'}; LM Studio — ` +
          `turn on "Enable CORS"; llama.cpp server and vLLM allow all origins unless configured otherwise.`,
      };
    }
    return {
      kind: 'not-running',
      text: `Nothing answers at ${where}. Is the server running? Start it (e.g. "ollama serve" or "llama-server -m model.gguf") and check the host and port.`,
    };
  }
  if (err instanceof LlmHttpError) {
    if (err.status === 401 || err.status === 403)
      return {
        kind: 'auth',
        text: `The server at ${where} refused the request (HTTP ${err.status}): enter a valid API key, or leave it empty for a local server.`,
      };
    if ((err.status === 404 || err.status === 400) && ctx.model && modelMissing(err.body)) return missingModel(ctx);
    if (err.status === 404 || err.status === 405) {
      return {
        kind: 'wrong-url',
        text:
          `The server at ${where} has no OpenAI-compatible API there (HTTP ${err.status}): the address is probably wrong. It usually ends in ` +
          `/v1, e.g. http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio), http://localhost:8080/v1 (llama.cpp).`,
      };
    }
    if (err.status >= 500)
      return {
        kind: 'server',
        text: `The server at ${where} failed (HTTP ${err.status}). Check its log; a model that is still loading or too large for its memory often causes this.`,
      };
    return { kind: 'other', text: `The server at ${where} answered HTTP ${err.status}: ${quote(err.body || err.message, 160)}` };
  }
  if (err instanceof LlmResponseError) return { kind: 'wrong-url', text: `${err.message} Check the address: it usually ends in /v1.` };
  if (err instanceof EngineSpecError) return { kind: 'other', text: err.message };
  return { kind: 'other', text: err instanceof Error ? err.message : String(err) };
}

function missingModel(ctx: ExplainContext): ExplainedError {
  const name = quote(ctx.model ?? '', 80);
  const offer = ctx.models?.length
    ? ` It offers ${ctx.models.length} model${ctx.models.length === 1 ? '' : 's'}: pick one from the list.`
    : ' Use "Test connection" to list its models, or download this one first (e.g. "ollama pull NAME").';
  return { kind: 'model-missing', text: `The server has no model called ${name}.${offer}` };
}

/** Checks a model name against the server's list (exact, then ignoring case and an Ollama `:latest` tag). */
export function findModel(models: readonly string[], name: string): string | null {
  const n = name.trim();
  if (models.includes(n)) return n;
  const norm = (m: string) => m.toLowerCase().replace(/:latest$/, '');
  return models.find((m) => norm(m) === norm(n)) ?? null;
}

export function modelMissingText(ctx: ExplainContext): string {
  return missingModel(ctx).text;
}
