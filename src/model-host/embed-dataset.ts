/**
 * Bulk embedding: every distinct prompt of a dataset goes through the embedding cache now, so that
 * memory builds, evaluations and predictions find their vectors ready. It reuses the embed service's
 * `embed` handler (same active model, same cache, same batches), in chunks so progress is fine-grained
 * and a cancel or a closed tab loses at most one model batch.
 *
 * Crash safety comes from the cache itself: each model batch is written in ONE transaction after the
 * whole batch was computed (core/embed `cachedEmbed` → DexieEmbeddingStore.put), so the cache only
 * ever holds complete vectors, and a rerun embeds exactly the prompts whose vectors are missing.
 */
import type { Handlers } from '../rpc';
import { isTransferred } from '../rpc';
import type { EmbedApi, EmbedResponse } from './embed-api';

export interface EmbedDatasetResult {
  /** Embedder id (cache key) the vectors were made with. */
  model: string;
  /** Distinct prompts of the dataset. */
  texts: number;
  /** Prompts whose vectors were already cached / embedded now. */
  hits: number;
  misses: number;
  modelCalls: number;
  ms: number;
}

export interface EmbedDatasetApi {
  /** Embeds every distinct prompt of a dataset through the cache; progress counts prompts. */
  embedDataset: { req: { datasetId: string }; res: EmbedDatasetResult; progress: { done: number; total: number } };
}

export interface EmbedDatasetDeps {
  /** The dataset's distinct prompts (in a stable order). */
  prompts(datasetId: string): Promise<string[]>;
  /** The embed service's handler. */
  embed: Handlers<EmbedApi>['embed'];
}

/** Prompts per `embed` call: small enough for frequent progress, large enough to keep cache reads batched. */
export const EMBED_CHUNK = 2000;

export function createEmbedDatasetHandlers(deps: EmbedDatasetDeps): Handlers<EmbedDatasetApi> {
  return {
    async embedDataset({ datasetId }, ctx) {
      const texts = await deps.prompts(datasetId);
      const total = texts.length;
      const out: EmbedDatasetResult = { model: '', texts: total, hits: 0, misses: 0, modelCalls: 0, ms: 0 };
      ctx.progress({ done: 0, total });
      for (let start = 0; start < total; start += EMBED_CHUNK) {
        ctx.signal.throwIfAborted();
        const chunk = texts.slice(start, start + EMBED_CHUNK);
        const reply = await deps.embed(
          { texts: chunk },
          {
            signal: ctx.signal,
            progress: (p) => {
              if (p.phase === 'embed') ctx.progress({ done: start + p.done, total });
            },
          },
        );
        const res = (isTransferred(reply) ? reply.value : reply) as EmbedResponse;
        out.model = res.id;
        out.hits += res.hits;
        out.misses += res.misses;
        out.modelCalls += res.modelCalls;
        out.ms += res.ms;
        ctx.progress({ done: Math.min(total, start + chunk.length), total });
      }
      return out;
    },
  };
}

/** Distinct prompts of a dataset, in first-seen order of the dataset index. */
export function distinctPrompts(rows: readonly { prompt: string }[]): string[] {
  return [...new Set(rows.map((r) => r.prompt))];
}
