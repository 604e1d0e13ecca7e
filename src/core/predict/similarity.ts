/**
 * Similarity of a new task to every training task, for the neighbour methods:
 *  - `tfidf`  cosine of unit TF-IDF vectors (unigrams + bigrams, function words KEPT — "no",
 *             "each", "than" carry the difficulty; dropping them cost 0.05 Pearson on GenAI-Bench),
 *             built here from the training prompts — the default: lexical beats averaged GloVe
 *  - `bm25`   Okapi BM25 (retrieval's Bm25Index), divided by the best score of the query → (0, 1]
 *  - `dense`  cosine of the caller's prompt vectors (retrieval's VectorIndex), negatives as 0
 *  - `hybrid` retrieval's HybridRetriever: alpha·minmax(dense) + (1 − alpha)·minmax(BM25)
 */
import { Bm25Index } from '../retrieval/bm25';
import { HybridRetriever } from '../retrieval/hybrid';
import { VectorIndex } from '../retrieval/vector-index';
import { TfidfVectorizer, sparseDot, type SparseVector } from './text-features';
import type { PredictTask } from './types';

export type SimilarityKind = 'tfidf' | 'bm25' | 'dense' | 'hybrid';
export const SIMILARITY_KINDS: readonly SimilarityKind[] = ['tfidf', 'bm25', 'dense', 'hybrid'];

export interface SimilarityOptions {
  kind?: SimilarityKind;
  /** Weight of the dense side for `hybrid` (default 0.5). */
  alpha?: number;
}

const GROUP = 'task';

export class TaskSimilarity {
  readonly kind: SimilarityKind;
  readonly alpha: number;
  private tasks: PredictTask[] = [];
  private tfidf: TfidfVectorizer | null = null;
  private rows: SparseVector[] = [];
  private bm25: Bm25Index | null = null;
  private vectors: VectorIndex<typeof GROUP> | null = null;
  private hybrid: HybridRetriever<typeof GROUP> | null = null;

  constructor(opts: SimilarityOptions = {}) {
    this.kind = opts.kind ?? 'tfidf';
    this.alpha = opts.alpha ?? 0.5;
  }

  get needsVectors(): boolean {
    return this.kind === 'dense' || this.kind === 'hybrid';
  }

  fit(tasks: readonly PredictTask[]): void {
    this.tasks = tasks.slice();
    const dim = tasks.find((t) => t.vector)?.vector?.length ?? 0;
    if (this.needsVectors && (dim === 0 || tasks.some((t) => !t.vector))) {
      throw new Error(`similarity '${this.kind}' needs a vector on every training task`);
    }
    switch (this.kind) {
      case 'tfidf':
        this.tfidf = new TfidfVectorizer({ ngrams: 2 }).fit(tasks.map((t) => t.prompt));
        this.rows = tasks.map((t) => this.tfidf!.transform(t.prompt));
        break;
      case 'bm25':
        this.bm25 = new Bm25Index();
        tasks.forEach((t, i) => this.bm25!.add(String(i), t.prompt));
        break;
      case 'dense':
        this.vectors = new VectorIndex<typeof GROUP>(dim);
        tasks.forEach((t, i) => this.vectors!.add({ id: String(i), tool: GROUP, level: GROUP, vector: t.vector! }));
        break;
      case 'hybrid':
        this.hybrid = new HybridRetriever<typeof GROUP>(dim);
        tasks.forEach((t, i) => this.hybrid!.add({ id: String(i), tool: GROUP, level: GROUP, text: t.prompt, vector: t.vector! }));
        break;
    }
  }

  /** Similarity of `query` to each training task, in training order (≥ 0). */
  scores(query: PredictTask): Float64Array {
    const n = this.tasks.length;
    const out = new Float64Array(n);
    if (n === 0) return out;
    switch (this.kind) {
      case 'tfidf': {
        const q = this.tfidf!.transform(query.prompt);
        for (let i = 0; i < n; i++) out[i] = sparseDot(q, this.rows[i]!);
        break;
      }
      case 'bm25': {
        const raw = this.bm25!.scores(query.prompt);
        let best = 0;
        for (const v of raw.values()) best = Math.max(best, v);
        if (best > 0) for (const [id, v] of raw) out[Number(id)] = v / best;
        break;
      }
      case 'dense':
        for (const h of this.vectors!.scoreAll(this.queryVector(query))) out[Number(h.id)] = Math.max(0, h.score);
        break;
      case 'hybrid':
        for (const h of this.hybrid!.search({ text: query.prompt, vector: this.queryVector(query) }, { k: n, alpha: this.alpha })) {
          out[Number(h.id)] = h.score;
        }
        break;
    }
    return out;
  }

  private queryVector(query: PredictTask): Float32Array {
    if (!query.vector) throw new Error(`similarity '${this.kind}' needs the task's vector`);
    return query.vector;
  }
}
