/**
 * An `Embedder` that runs in the embed worker: other workers (memory builds, evaluations and
 * predictions) reach the one embedding host through a port the page hands them (src/rpc/ports.ts),
 * so one model is in memory per tab and every vector goes through the one IndexedDB cache.
 *
 * - It embeds with the embed worker's ACTIVE model (the one chosen in Settings). Callers that need
 *   a particular model compare `id` with it, as they did with a model of their own.
 * - If the active model changes between loading and an embed (the user switches it in Settings),
 *   the vectors are of another model: the call fails instead of mixing two models' vectors.
 * - Cancellation and progress travel with the call: `signal` cancels the embed worker's batches,
 *   `onProgress` receives its text counts (model loading reports nothing here).
 *
 * Pure of storage and DOM: works over any `Client<EmbedApi>` (a port in the app, the in-thread
 * client in tests).
 */
import type { Embedder, EmbeddingBatch, EmbedOptions } from '../core/embed';
import { ValidationError } from '../core/errors';
import type { Client } from '../rpc';
import type { EmbedApi, EmbedResponse } from './embed-api';

export interface RemoteEmbedderOptions {
  /**
   * Default true: the embed worker reads and writes its cache. `false` for callers that already
   * cache through the same store themselves (the memory services' `cachedEmbed`), so each vector is
   * hashed, looked up and written once.
   */
  cache?: boolean;
  /** Cancels waiting for the model to load (the load itself goes on for other callers). */
  signal?: AbortSignal;
}

/**
 * Texts per call: the embed service refuses more than 100,000 at once, and smaller calls keep the
 * copy of the request and the transferred reply small. Progress counts across calls.
 */
export const REMOTE_EMBED_CHUNK = 20_000;

/** Loads the embed worker's active model (once per worker; later calls return at once) and wraps it. */
export async function remoteEmbedder(client: Client<EmbedApi>, opts: RemoteEmbedderOptions = {}): Promise<Embedder> {
  const info = await client.call('load', {}, opts.signal ? { signal: opts.signal } : {});
  if (info.dim === null) throw new ValidationError(`The embedding model ${info.model} loaded without reporting its vector size.`);
  return new RemoteEmbedder(client, info.id, info.dim, opts.cache ?? true);
}

class RemoteEmbedder implements Embedder {
  constructor(
    private readonly client: Client<EmbedApi>,
    readonly id: string,
    readonly dim: number,
    private readonly cache: boolean,
  ) {}

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbeddingBatch> {
    const data = new Float32Array(texts.length * this.dim);
    for (let start = 0; start < texts.length; start += REMOTE_EMBED_CHUNK) {
      const part = texts.slice(start, start + REMOTE_EMBED_CHUNK);
      const res = await this.client.call(
        'embed',
        { texts: part, cache: this.cache },
        {
          ...(opts.signal ? { signal: opts.signal } : {}),
          // The worker counts unique texts of this call; reported here as a share of all `texts`.
          onProgress: (p) => {
            if (p.phase === 'embed')
              opts.onProgress?.({ done: start + Math.round(p.total ? (p.done / p.total) * part.length : part.length), total: texts.length });
          },
        },
      );
      this.check(res, part.length);
      data.set(res.data, start * this.dim);
    }
    return { dim: this.dim, count: texts.length, data };
  }

  private check(res: EmbedResponse, count: number): void {
    if (res.id !== this.id || res.dim !== this.dim) {
      throw new ValidationError(`The embedding model changed from ${this.id} to ${res.id} while this was running; run it again to use ${res.id} throughout.`);
    }
    if (res.count !== count || res.data.length !== count * this.dim) {
      throw new ValidationError(`The embed worker returned ${res.count} vectors for ${count} texts.`);
    }
  }
}
