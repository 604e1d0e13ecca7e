/**
 * Theme facets: groups of training tasks close in embedding space, turned into a rule any embedded
 * task can be tested against (cosine to the theme's centroid ≥ minSimilarity).
 *
 * - Candidates: every node of the average-linkage dendrogram (src/core/memory/agglomerative.ts;
 *   k-means at 4 resolutions (groups of about 40 … 320) above MAX_AGGLOMERATIVE_N tasks), of minTasks … maxShare·n tasks.
 * - Coherent: the members' mean cosine to their centroid (= ‖Σv‖ / m for unit vectors) must be at
 *   least baseline + minGain·(1 − baseline), where baseline is the same measure over all tasks.
 *   Embedding models differ in how close unrelated prompts are (averaged word vectors put nearly
 *   everything above 0.7), so the bar is relative to the dataset, not an absolute cosine.
 * - Kept: largest coherent nodes first; a node sharing more than half of a kept theme's tasks (what
 *   its rule selects) is skipped: nested nodes, or k-means parts of one group, would say it twice.
 * - Rule: minSimilarity is the cut on cosine-to-centroid that best reproduces the members among all
 *   training tasks (highest F1); the facet's tasks are the ones the rule selects, so training
 *   evidence and later use of the rule agree. A theme whose best F1 is below minFit is dropped.
 * - Name: up to 3 words (lexical tokens, stopwords out) that together occur in at least half of the
 *   members, each in at most maxCommonShare of all tasks: text most prompts share (a judge template,
 *   "### Task Description") never names a theme, nor do words a text cue stands for ("not", "two",
 *   "each", "than", "one"). No such words → no theme.
 */
import { agglomerative, MAX_AGGLOMERATIVE_N } from '../memory/agglomerative';
import { kmeans } from '../memory/kmeans';
import { lexicalTokens } from '../retrieval/text-tokens';
import { CUES } from './cues';

export interface ThemeOptions {
  minTasks: number;
  /** Largest theme as a share of the tasks; default 0.25. */
  maxShare?: number;
  /** Coherence gain over the dataset's baseline, as a share of the way to 1; default 0.3. */
  minGain?: number;
  /** Words in more than this share of all tasks never name a theme; default 0.2. */
  maxCommonShare?: number;
  /** Best F1 of the similarity rule against the members; default 0.6. */
  minFit?: number;
  /** At most this many themes (the largest); default 24. */
  maxThemes?: number;
}

export interface Theme {
  /** Indices into the given vectors, ascending (the rule's selection on the training tasks). */
  members: number[];
  centroid: Float32Array;
  minSimilarity: number;
  keywords: string[];
  coherence: number;
  /** Index of the typical member: most keywords, then closest to the centroid. */
  typical: number;
}

export interface ThemeResult {
  themes: Theme[];
  candidates: number;
  coherent: number;
  baseline: number;
  bar: number;
}

function sumOf(vectors: readonly Float32Array[], members: readonly number[], dim: number): Float64Array {
  const s = new Float64Array(dim);
  for (const i of members) {
    const v = vectors[i]!;
    for (let d = 0; d < dim; d++) s[d] = s[d]! + v[d]!;
  }
  return s;
}

function unit(s: Float64Array): { v: Float32Array; norm: number } {
  let sq = 0;
  for (const x of s) sq += x * x;
  const norm = Math.sqrt(sq);
  const v = new Float32Array(s.length);
  if (norm > 0) for (let d = 0; d < s.length; d++) v[d] = s[d]! / norm;
  return { v, norm };
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let d = 0; d < n; d++) s += a[d]! * b[d]!;
  return s;
}

interface Candidate {
  g: number[];
  /** Mean cosine between the two halves the dendrogram joined into this node; null for k-means. */
  cross: number | null;
}

/**
 * Dendrogram nodes with their halves' mean cross-cosine, from running sums: nodes come in merge
 * order, so each node's two halves are the latest groups (node or single task) of its members.
 */
function dendrogramCandidates(vectors: readonly Float32Array[], dim: number): Candidate[] {
  const nodes = agglomerative(vectors).nodes;
  const owner = new Int32Array(vectors.length).fill(-1);
  const sums: Float64Array[] = [];
  return nodes.map((g, k) => {
    const halves = new Map<number, { sum: Float64Array; size: number }>();
    for (const i of g) {
      const o = owner[i]!;
      const key = o >= 0 ? o : -(i + 1);
      if (halves.has(key)) continue;
      halves.set(key, o >= 0 ? { sum: sums[o]!, size: nodes[o]!.length } : { sum: Float64Array.from(vectors[i]!), size: 1 });
    }
    const [a, b] = [...halves.values()];
    const sum = new Float64Array(dim);
    for (const h of halves.values()) for (let d = 0; d < dim; d++) sum[d] = sum[d]! + h.sum[d]!;
    sums[k] = sum;
    for (const i of g) owner[i] = k;
    return { g, cross: a && b ? dot(a.sum, b.sum) / (a.size * b.size) : null };
  });
}

function candidateGroups(vectors: readonly Float32Array[], dim: number): Candidate[] {
  if (vectors.length <= MAX_AGGLOMERATIVE_N) return dendrogramCandidates(vectors, dim);
  const groups: Candidate[] = [];
  for (const size of [40, 80, 160, 320]) {
    const km = kmeans(vectors, Math.max(2, Math.round(vectors.length / size)), { seed: 0 });
    const byCluster: number[][] = Array.from({ length: km.k }, () => []);
    km.assignment.forEach((c, i) => byCluster[c]!.push(i));
    groups.push(...byCluster.map((g) => ({ g, cross: null })));
  }
  return groups;
}

/** The cosine cut that best reproduces `members` among all tasks (F1), with the selection it makes. */
function bestCut(sims: Float64Array, inGroup: Uint8Array, m: number): { cut: number; f1: number } {
  const order = Array.from(sims.keys()).sort((a, b) => sims[b]! - sims[a]! || a - b);
  let tp = 0;
  let best = { cut: 1, f1: 0 };
  order.forEach((i, rank) => {
    tp += inGroup[i]!;
    const next = order[rank + 1];
    // Only cut between distinct similarities, so the rule's selection is exactly the prefix.
    if (next !== undefined && sims[next] === sims[i]) return;
    const f1 = (2 * tp) / (rank + 1 + m);
    if (f1 > best.f1) best = { cut: sims[i]!, f1 };
  });
  return best;
}

/**
 * Up to 3 words, chosen greedily by how many more members they cover (ties: lift over the whole
 * set, then alphabetical); each must be in ≥ 15% of the members and ≤ maxCommonShare of all tasks,
 * and add ≥ 10% coverage or be in half the members by itself. [] unless together they occur in at
 * least half the members.
 */
/** Words a text cue already stands for ("not", "two", "each"): they would name a cue, not a topic. */
const WORD_CUES = CUES.filter((c) => ['negation', 'counting', 'universal', 'comparison'].includes(c.id));
const isCueWord = (w: string) => w === 'one' || WORD_CUES.some((c) => c.test(w));

function nameWords(memberTexts: readonly string[][], df: ReadonlyMap<string, number>, total: number, maxCommonShare: number): string[] {
  const m = memberTexts.length;
  const sets = memberTexts.map((t) => new Set(t));
  const inGroup = new Map<string, number>();
  for (const words of sets) for (const w of words) inGroup.set(w, (inGroup.get(w) ?? 0) + 1);
  const pool = [...inGroup]
    .filter(([w, c]) => w.length > 2 && !/^\d+$/.test(w) && !isCueWord(w) && c / m >= 0.15 && (df.get(w) ?? 0) / total <= maxCommonShare)
    .map(([w, c]) => ({ w, lift: c / m - (df.get(w) ?? 0) / total }))
    .filter((x) => x.lift > 0);
  const covered = new Uint8Array(m);
  const chosen: string[] = [];
  while (chosen.length < 3) {
    let best: { w: string; gain: number; lift: number } | undefined;
    for (const x of pool) {
      if (chosen.includes(x.w)) continue;
      let gain = 0;
      sets.forEach((s, i) => (gain += !covered[i] && s.has(x.w) ? 1 : 0));
      if (!best || gain > best.gain || (gain === best.gain && (x.lift > best.lift || (x.lift === best.lift && x.w < best.w))))
        best = { w: x.w, gain, lift: x.lift };
    }
    if (!best) break;
    if (best.gain < 0.1 * m) {
      // Covered already: a further word joins only if it is in most members by itself.
      const common = pool.filter((x) => !chosen.includes(x.w) && (inGroup.get(x.w) ?? 0) * 2 >= m).sort((a, b) => b.lift - a.lift || (a.w < b.w ? -1 : 1))[0];
      if (!common) break;
      best = { w: common.w, gain: 0, lift: common.lift };
    }
    chosen.push(best.w);
    sets.forEach((s, i) => (covered[i] = covered[i] || (s.has(best.w) ? 1 : 0)));
  }
  return covered.reduce((a, b) => a + b, 0) * 2 >= m ? chosen : [];
}

/**
 * Themes over unit prompt vectors (zero vectors never join one) and their texts. Deterministic for
 * the same input order; the caller sorts tasks by id.
 */
export function discoverThemes(vectors: readonly (Float32Array | undefined)[], texts: readonly string[], opts: ThemeOptions): ThemeResult {
  const usable = vectors.map((v, i) => (v && v.some((x) => x !== 0) ? i : -1)).filter((i) => i >= 0);
  const n = usable.length;
  const empty: ThemeResult = { themes: [], candidates: 0, coherent: 0, baseline: 0, bar: 1 };
  if (n < 2 * opts.minTasks) return empty;
  const vs = usable.map((i) => vectors[i]!);
  const dim = vs[0]!.length;
  const tokens = usable.map((i) => lexicalTokens(texts[i]!));
  const df = new Map<string, number>();
  for (const t of tokens) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  const baseline =
    unit(
      sumOf(
        vs,
        usable.map((_, k) => k),
        dim,
      ),
    ).norm / n;
  const bar = baseline + (opts.minGain ?? 0.3) * (1 - baseline);
  const maxSize = Math.max(opts.minTasks, Math.floor((opts.maxShare ?? 0.25) * n));

  const groups = candidateGroups(vs, dim).filter((c) => c.g.length >= opts.minTasks && c.g.length <= maxSize);
  const coherent = groups
    .map((c) => ({ ...c, ...unit(sumOf(vs, c.g, dim)) }))
    .map((x) => ({ ...x, coherence: x.norm / x.g.length }))
    .filter((x) => x.coherence >= bar && (x.cross === null || x.cross >= bar * bar))
    .sort((a, b) => b.g.length - a.g.length || b.coherence - a.coherence || a.g[0]! - b.g[0]!);

  const themes: Theme[] = [];
  const taken: Set<number>[] = [];
  for (const c of coherent) {
    if (themes.length >= (opts.maxThemes ?? 24)) break;
    if (taken.some((s) => c.g.filter((i) => s.has(i)).length * 2 > Math.min(c.g.length, s.size))) continue;
    const keywords = nameWords(
      c.g.map((i) => tokens[i]!),
      df,
      n,
      opts.maxCommonShare ?? 0.2,
    );
    if (keywords.length === 0) continue;
    const sims = Float64Array.from(vs, (v) => dot(v, c.v));
    const inGroup = new Uint8Array(n);
    for (const i of c.g) inGroup[i] = 1;
    const cut = bestCut(sims, inGroup, c.g.length);
    if (cut.f1 < (opts.minFit ?? 0.6)) continue;
    const selected = Array.from(sims.keys()).filter((i) => sims[i]! >= cut.cut);
    if (selected.length < opts.minTasks) continue;
    const kw = new Set(keywords);
    const score = (i: number) => tokens[i]!.filter((w, p, a) => kw.has(w) && a.indexOf(w) === p).length;
    const typical = c.g.reduce((best, i) => (score(i) > score(best) || (score(i) === score(best) && sims[i]! > sims[best]!) ? i : best), c.g[0]!);
    themes.push({
      members: selected.map((i) => usable[i]!),
      centroid: c.v,
      minSimilarity: cut.cut,
      keywords,
      coherence: c.coherence,
      typical: usable[typical]!,
    });
    taken.push(new Set(selected));
  }
  return { themes, candidates: groups.length, coherent: coherent.length, baseline, bar };
}
