/**
 * Lexical features of prompts, built from the training prompts only: a tokenizer that KEEPS
 * function words (in GenAI-Bench "each", "more", "than", "no", "all" mark the hard skills —
 * counting, comparison, negation, universals — so dropping stopwords would throw away the best
 * difficulty cues), word n-grams, and TF-IDF vectors with unit length.
 *
 *   tf(t, d)  = 1 + ln(count)            (sublinear; raw count when `sublinearTf` is false)
 *   idf(t)    = ln((1 + N) / (1 + df)) + 1   (smoothed, never 0)
 *   x(d)      = tf·idf, scaled to unit L2 norm
 */

import { STOPWORDS, wordTokens } from '../retrieval/text-tokens';

/** One tokenizer for the lexical features and BM25 (core/retrieval/text-tokens.ts). */
export { wordTokens };

export interface SparseVector {
  /** Feature indices, strictly increasing. */
  indices: Int32Array;
  values: Float64Array;
}

export const EMPTY_SPARSE: SparseVector = { indices: new Int32Array(0), values: new Float64Array(0) };

/** Unigrams … n-grams of a token list (n-grams joined with a space). */
export function nGrams(tokens: readonly string[], n: number): string[] {
  const out = tokens.slice();
  for (let size = 2; size <= n; size++) {
    for (let i = 0; i + size <= tokens.length; i++) out.push(tokens.slice(i, i + size).join(' '));
  }
  return out;
}

/** Dot product of two sparse vectors (merge of sorted indices). */
export function sparseDot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let s = 0;
  const ai = a.indices;
  const bi = b.indices;
  while (i < ai.length && j < bi.length) {
    const x = ai[i]!;
    const y = bi[j]!;
    if (x === y) {
      s += a.values[i++]! * b.values[j++]!;
    } else if (x < y) i++;
    else j++;
  }
  return s;
}

/** A dense vector as a sparse one (every index present), for mixing dense and lexical views. */
export function denseToSparse(v: ArrayLike<number>): SparseVector {
  const indices = new Int32Array(v.length);
  const values = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    indices[i] = i;
    values[i] = v[i]!;
  }
  return { indices, values };
}

export interface TfidfOptions {
  /** Longest word n-gram (default 2: unigrams and bigrams). */
  ngrams?: number;
  /** Keep terms found in at least this many training prompts (default 1). */
  minDf?: number;
  /** 1 + ln(count) instead of the raw count (default true). */
  sublinearTf?: boolean;
  tokenize?: (text: string) => string[];
}

export class TfidfVectorizer {
  readonly ngrams: number;
  readonly minDf: number;
  readonly sublinearTf: boolean;
  private readonly tokenize: (text: string) => string[];
  private vocab = new Map<string, number>();
  private idf = new Float64Array(0);

  constructor(opts: TfidfOptions = {}) {
    this.ngrams = opts.ngrams ?? 2;
    this.minDf = opts.minDf ?? 1;
    this.sublinearTf = opts.sublinearTf ?? true;
    this.tokenize = opts.tokenize ?? wordTokens;
  }

  get size(): number {
    return this.vocab.size;
  }

  terms(text: string): string[] {
    return nGrams(this.tokenize(text), this.ngrams);
  }

  /** Learns the vocabulary and idf from the (training) texts. Terms are indexed in sorted order. */
  fit(texts: Iterable<string>): this {
    const df = new Map<string, number>();
    let n = 0;
    for (const text of texts) {
      n++;
      for (const t of new Set(this.terms(text))) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const kept = [...df].filter(([, c]) => c >= this.minDf).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.vocab = new Map(kept.map(([t], i) => [t, i]));
    this.idf = Float64Array.from(kept, ([, c]) => Math.log((1 + n) / (1 + c)) + 1);
    return this;
  }

  /** Unit-length TF-IDF vector; terms unseen in training are ignored (all-unseen → empty vector). */
  transform(text: string): SparseVector {
    const counts = new Map<number, number>();
    for (const t of this.terms(text)) {
      const i = this.vocab.get(t);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    const indices = Int32Array.from([...counts.keys()].sort((a, b) => a - b));
    const values = new Float64Array(indices.length);
    let sq = 0;
    indices.forEach((i, k) => {
      const c = counts.get(i)!;
      const v = (this.sublinearTf ? 1 + Math.log(c) : c) * this.idf[i]!;
      values[k] = v;
      sq += v * v;
    });
    const norm = Math.sqrt(sq);
    if (norm > 0) for (let k = 0; k < values.length; k++) values[k] = values[k]! / norm;
    return { indices, values };
  }
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

/**
 * Word lists for generic "compositional complexity" cues (English). They follow the skill
 * taxonomy of compositional benchmarks — counting, negation, comparison/differentiation,
 * universals, spatial relations — not any dataset's labels.
 */
export const CUE_WORDS = {
  counting: words('one two three four five six seven eight nine ten eleven twelve dozen several many multiple pair couple 0 1 2 3 4 5 6 7 8 9 10'),
  negation: words('no not without none nothing nobody never neither nor lacking absent empty isn aren doesn don t'),
  comparison: words('than more less fewer larger smaller bigger taller shorter longer higher lower same different differently other another others'),
  universal: words('all every each both entire whole'),
  spatial: words('left right above below behind front under beneath next between top bottom inside middle near beside'),
} as const;

export const PROMPT_SHAPE_FEATURES = [
  'log-words',
  'log-content-words',
  'commas',
  'and',
  'counting',
  'negation',
  'comparison',
  'universal',
  'spatial',
  'quotes',
  'capitalised',
] as const;

/**
 * Dense, hand-made prompt features (no training needed), each of order 1: log word count, log
 * content-word count (words outside the retrieval stopword list), commas, "and", the cue-word counts above (each capped at 3), a quotation
 * mark flag and capitalised words after the first (names, rendered text). Same order as
 * `PROMPT_SHAPE_FEATURES`.
 */
export function promptShapeFeatures(text: string): number[] {
  const w = wordTokens(text);
  const count = (set: ReadonlySet<string>) =>
    Math.min(
      3,
      w.reduce((n, x) => n + (set.has(x) ? 1 : 0), 0),
    );
  const content = w.reduce((n, x) => n + (STOPWORDS.has(x) ? 0 : 1), 0);
  return [
    Math.log1p(w.length) - 2.5,
    Math.log1p(content) - 2,
    Math.min(3, (text.match(/,/g) ?? []).length),
    Math.min(
      3,
      w.reduce((n, x) => n + (x === 'and' ? 1 : 0), 0),
    ),
    count(CUE_WORDS.counting),
    count(CUE_WORDS.negation),
    count(CUE_WORDS.comparison),
    count(CUE_WORDS.universal),
    count(CUE_WORDS.spatial),
    /["\u201c\u201d]/.test(text) ? 1 : 0,
    Math.min(3, (text.slice(1).match(/\b[A-Z][a-z]/g) ?? []).length),
  ];
}
