/**
 * The similarity (kernel) between prompts that the regression methods share, built from the
 * training prompts only:
 *
 *   k(p, q) = tfidf(p)·tfidf(q) + w_shape·shape(p)·shape(q) + w_dense·v(p)·v(q)
 *   k'      = k + c·k²          (a degree-2 polynomial part: lets effects interact and saturate)
 *
 * tfidf: word unigrams + bigrams with function words kept (text-features.ts); shape: the
 * hand-made prompt-shape features; v: the caller's dense prompt vectors, available only when
 * every training task has one (then queries need one too). The three views are kept apart so a
 * caller can try several weightings without recomputing them.
 */
import { gram } from './kernel-ridge';
import { promptShapeFeatures, sparseDot, TfidfVectorizer, type SparseVector } from './text-features';
import type { PredictTask } from './types';

export interface KernelWeights {
  /** Weight of the prompt-shape features (0 = off). */
  shape: number;
  /** Weight of the dense vectors (ignored when the training tasks had none). */
  dense: number;
  /** Weight c of the squared kernel (0 = linear). */
  poly: number;
}

interface Encoded {
  words: SparseVector;
  shape: number[];
  dense: Float32Array | null;
}

/** Kernel values of one query, view by view. */
export interface ViewRows {
  words: Float64Array;
  shape: Float64Array;
  dense: Float64Array | null;
  /** k(query, query) per view. */
  self: { words: number; shape: number; dense: number };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export class PromptKernel {
  private readonly vectorizer: TfidfVectorizer;
  private rows: Encoded[] = [];
  private hasDense = false;
  private grams: { words: Float64Array; shape: Float64Array; dense: Float64Array | null } = {
    words: new Float64Array(0),
    shape: new Float64Array(0),
    dense: null,
  };

  constructor(opts: { ngrams?: number } = {}) {
    this.vectorizer = new TfidfVectorizer({ ngrams: opts.ngrams ?? 2 });
  }

  get size(): number {
    return this.rows.length;
  }

  /** True when every training task had a dense vector (the dense view exists). */
  get dense(): boolean {
    return this.hasDense;
  }

  fit(tasks: readonly PredictTask[]): this {
    this.vectorizer.fit(tasks.map((t) => t.prompt));
    this.hasDense = tasks.length > 0 && tasks.every((t) => t.vector && t.vector.length > 0);
    this.rows = tasks.map((t) => this.encode(t));
    const n = this.rows.length;
    const shape = new Float64Array(n * n);
    const dense = this.hasDense ? new Float64Array(n * n) : null;
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) {
        const s = dot(this.rows[i]!.shape, this.rows[j]!.shape);
        shape[i * n + j] = s;
        shape[j * n + i] = s;
        if (dense) {
          const d = dot(this.rows[i]!.dense!, this.rows[j]!.dense!);
          dense[i * n + j] = d;
          dense[j * n + i] = d;
        }
      }
    }
    this.grams = { words: gram(this.rows.map((r) => r.words)), shape, dense };
    return this;
  }

  /** n×n kernel of the training tasks under `w` (a new array). */
  gram(w: KernelWeights): Float64Array {
    const { words, shape, dense } = this.grams;
    const out = new Float64Array(words.length);
    for (let i = 0; i < out.length; i++) out[i] = this.finish(words[i]! + w.shape * shape[i]! + (dense ? w.dense * dense[i]! : 0), w);
    return out;
  }

  /** The query's kernel with every training task, per view (combine with `combine`). */
  viewRows(task: PredictTask): ViewRows {
    const q = this.encode(task);
    return {
      words: Float64Array.from(this.rows, (r) => sparseDot(q.words, r.words)),
      shape: Float64Array.from(this.rows, (r) => dot(q.shape, r.shape)),
      dense: q.dense ? Float64Array.from(this.rows, (r) => dot(q.dense!, r.dense!)) : null,
      self: { words: sparseDot(q.words, q.words), shape: dot(q.shape, q.shape), dense: q.dense ? dot(q.dense, q.dense) : 0 },
    };
  }

  combine(v: ViewRows, w: KernelWeights): Float64Array {
    return Float64Array.from(v.words, (x, i) => this.finish(x + w.shape * v.shape[i]! + (v.dense ? w.dense * v.dense[i]! : 0), w));
  }

  combineSelf(v: ViewRows, w: KernelWeights): number {
    return this.finish(v.self.words + w.shape * v.self.shape + w.dense * v.self.dense, w);
  }

  /** The query's kernel with every training task under `w`. */
  row(task: PredictTask, w: KernelWeights): Float64Array {
    return this.combine(this.viewRows(task), w);
  }

  /** k of training task i with itself under `w`. */
  selfAt(i: number, w: KernelWeights): number {
    const n = this.rows.length;
    const at = i * n + i;
    const { words, shape, dense } = this.grams;
    return this.finish(words[at]! + w.shape * shape[at]! + (dense ? w.dense * dense[at]! : 0), w);
  }

  private encode(task: PredictTask): Encoded {
    if (this.hasDense && !task.vector) throw new Error('this model was fitted with prompt vectors: the task needs one too');
    return {
      words: this.vectorizer.transform(task.prompt),
      shape: promptShapeFeatures(task.prompt),
      dense: this.hasDense ? task.vector! : null,
    };
  }

  private finish(k: number, w: KernelWeights): number {
    return w.poly > 0 ? k + w.poly * k * k : k;
  }
}
