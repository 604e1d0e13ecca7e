/**
 * Turns whatever a model library threw while loading into a {@link ModelLoadError} whose message
 * tells the user what happened and what to do. Pure: used by the browser and the Node hosts.
 */
import { CancelledError } from '../core/errors';
import { ModelLoadError, type EmbedModelSource } from './embed-host';

const HUB_EXAMPLE = 'Xenova/all-MiniLM-L6-v2';

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : String(err);
}

function nameOf(err: unknown): string {
  return err instanceof Error ? err.name : '';
}

/** `fetch` failures: Chromium "Failed to fetch", Firefox "NetworkError…", Safari "Load failed", Node/undici "fetch failed" + DNS codes. */
function looksOffline(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const text = `${nameOf(e)} ${messageOf(e)}`;
    const code = String((e as { code?: unknown }).code ?? '');
    if (/failed to fetch|networkerror|load failed|fetch failed|network (is )?unreachable/i.test(text)) return true;
    if (/\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ENETUNREACH|ETIMEDOUT)\b/.test(`${code} ${text}`)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function looksNotFound(err: unknown): boolean {
  const status = (err as { status?: unknown }).status;
  if (status === 401 || status === 403 || status === 404) return true;
  return (
    nameOf(err) === 'ModelFileNotFoundError' ||
    nameOf(err) === 'NotFoundError' ||
    /could not locate file|unauthorized access|forbidden access|not found|404/i.test(messageOf(err))
  );
}

/**
 * @param online `navigator.onLine` in a browser (false is reliable, true is not); omit in Node.
 */
export function toModelLoadError(err: unknown, model: string, source: EmbedModelSource, online?: boolean): Error {
  if (err instanceof ModelLoadError || err instanceof CancelledError) return err;
  const detail = messageOf(err);
  if (source === 'hub') {
    if (online === false || looksOffline(err)) {
      return new ModelLoadError(
        `Cannot download “${model}”: there is no network connection. A Hugging Face model needs a connection once; after that it is cached and ` +
          `works offline. The bundled glove-100d model needs no connection.`,
        'offline',
        model,
        { cause: err },
      );
    }
    if (looksNotFound(err)) {
      return new ModelLoadError(
        `No model “${model}” was found on the Hugging Face hub (or it is private, or has no ONNX weights for transformers.js). Check the id, ` +
          `e.g. ${HUB_EXAMPLE}.`,
        'not-found',
        model,
        { cause: err },
      );
    }
  } else if (looksNotFound(err)) {
    return new ModelLoadError(`The model files of “${model}” were not found (${detail}).`, 'not-found', model, { cause: err });
  }
  return new ModelLoadError(`Model “${model}” could not be loaded: ${detail}`, 'failed', model, { cause: err });
}
