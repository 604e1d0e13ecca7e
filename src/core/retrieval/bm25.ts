/**
 * Okapi BM25 over a document set that changes one document at a time (memory entries are added,
 * refined and retired continually), so postings are updated incrementally instead of rebuilt.
 *
 *   score(q, d) = Σ_{t ∈ unique terms of q} idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))      (Lucene's form: never negative)
 *
 * Query terms count once each (repeating a word in the query does not boost it).
 */
import { topK } from './top-k';
import { lexicalTokens } from './text-tokens';

export interface Bm25Options {
  k1?: number;
  b?: number;
  tokenize?: (text: string) => string[];
}

export interface LexicalHit {
  id: string;
  /** Raw BM25 score (> 0). */
  score: number;
  /** score / best score of this query, in (0, 1]. */
  normalized: number;
}

interface Doc {
  tf: Map<string, number>;
  length: number;
}

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly tokenize: (text: string) => string[];
  private readonly docs = new Map<string, Doc>();
  /** term → (doc id → term frequency). */
  private readonly postings = new Map<string, Map<string, number>>();
  private totalLength = 0;

  constructor(opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
    this.tokenize = opts.tokenize ?? lexicalTokens;
  }

  get size(): number {
    return this.docs.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  /** Adds or replaces (same id) a document. */
  add(id: string, text: string): void {
    this.remove(id);
    const tf = new Map<string, number>();
    const tokens = this.tokenize(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = new Map()));
      p.set(id, n);
    }
    this.docs.set(id, { tf, length: tokens.length });
    this.totalLength += tokens.length;
  }

  remove(id: string): boolean {
    const doc = this.docs.get(id);
    if (!doc) return false;
    for (const t of doc.tf.keys()) {
      const p = this.postings.get(t)!;
      p.delete(id);
      if (p.size === 0) this.postings.delete(t);
    }
    this.docs.delete(id);
    this.totalLength -= doc.length;
    return true;
  }

  idf(term: string): number {
    const df = this.postings.get(term)?.size ?? 0;
    const n = this.docs.size;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** BM25 of every document sharing a term with the query (others score 0 and are absent). */
  scores(query: string): Map<string, number> {
    const out = new Map<string, number>();
    if (this.docs.size === 0) return out;
    const avgdl = this.totalLength / this.docs.size || 1;
    for (const term of new Set(this.tokenize(query))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = this.idf(term);
      for (const [id, tf] of p) {
        const len = this.docs.get(id)!.length;
        const part = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * len) / avgdl));
        out.set(id, (out.get(id) ?? 0) + part);
      }
    }
    return out;
  }

  /** The k best documents (optionally only those passing `filter`), best first. */
  search(query: string, opts: { k: number; filter?: (id: string) => boolean }): LexicalHit[] {
    const scored = [...this.scores(query)].filter(([id, s]) => s > 0 && (!opts.filter || opts.filter(id))).map(([id, score]) => ({ id, score }));
    const best = topK(scored, opts.k);
    const top = best[0]?.score ?? 1;
    return best.map((h) => ({ ...h, normalized: h.score / top }));
  }
}
