/**
 * Evidence clusters (no LLM): group a tool's training tasks by embedding, test each group's mean
 * score against the rest of that tool's tasks (Welch's t-test, Benjamini–Hochberg across the
 * groups tested, Cohen's d for the size of the effect), and turn the clearly better / worse
 * groups into memory entries (origin `stats`, evidence = the group's experiences).
 *
 * Tiers, tried in order; a weaker tier only fills a side (better / worse) that has no entry yet:
 *  - confident: q ≤ fdr and |d| ≥ minEffect → proficient/weak when |d| ≥ strongEffect, else good/bad;
 *  - tentative: p ≤ alpha and |d| ≥ minEffect → good/bad, marked "tentative" with its p;
 *  - little:    |d| ≥ littleEffect → good/bad, marked "little evidence" (small data only).
 * Groups: every node of an average-linkage dendrogram (n ≤ MAX_AGGLOMERATIVE_N) or multi-resolution
 * k-means (larger n), between minSize and maxShare·n tasks. Overlapping groups (> half of the
 * smaller one shared) are not both kept: the one with the smaller p wins.
 */
import { agglomerative, MAX_AGGLOMERATIVE_N } from './agglomerative';
import { clusterEntryText, distinctiveWords, documentFrequencies, typicalMember, type EvidenceTier } from './cluster-text';
import { kmeans } from './kmeans';
import { benjaminiHochberg, cohensD, moments, welch } from './stat-tests';
import type { Level, ScoreDirection } from '../types';

export interface ClusterSettings {
  /** Smallest group; default clamp(round(n / 40), 3, 20). */
  minSize?: number;
  /** Largest group as a share of the tool's tasks; default 0.25 (at least 2·minSize tasks). */
  maxShare?: number;
  /** False-discovery rate for confident entries; default 0.1. */
  fdr?: number;
  /** Uncorrected p for tentative entries; default 0.1. */
  alpha?: number;
  /** Cohen's d needed for confident/tentative entries; default 0.3. */
  minEffect?: number;
  /** Cohen's d for proficient/weak instead of good/bad; default 0.8. */
  strongEffect?: number;
  /** Cohen's d for a last-resort "little evidence" entry; default 0.2. */
  littleEffect?: number;
  /** Confident entries per side (better / worse); default 6. */
  maxPerSide?: number;
  /** k-means seed (only used above MAX_AGGLOMERATIVE_N tasks); default 0. */
  seed?: number;
}

export interface ClusterInput {
  experienceIds: readonly string[];
  texts: readonly string[];
  scores: readonly number[];
  /** Unit vectors of the texts; zero vectors (no known word) are left out of every group. */
  vectors: readonly ArrayLike<number>[];
  direction: ScoreDirection;
}

export interface EvidenceCluster {
  level: Level;
  text: string;
  tier: EvidenceTier;
  /** Experience ids of the group. */
  evidence: string[];
  size: number;
  mean: number;
  /** Mean of the tool's other tasks. */
  restMean: number;
  /** Mean of all the tool's tasks. */
  overall: number;
  d: number;
  p: number;
  q: number;
}

interface Candidate {
  members: number[];
  mean: number;
  restMean: number;
  d: number;
  p: number;
  q: number;
}

/** Groups reused across tools that share the same tasks (GenAI-Bench: six tools, one prompt set). */
export type GroupCache = Map<string, number[][]>;

function candidateGroups(
  vectors: readonly ArrayLike<number>[],
  texts: readonly string[],
  minSize: number,
  maxSize: number,
  seed: number,
  cache?: GroupCache,
): number[][] {
  const key = `${seed}\u0001${texts.join('\u0000')}`;
  const cached = cache?.get(key);
  let groups: number[][];
  if (cached) groups = cached;
  else {
    if (vectors.length <= MAX_AGGLOMERATIVE_N) groups = agglomerative(vectors).nodes;
    else {
      groups = [];
      for (const size of [10, 20, 40, 80, 160]) {
        const km = kmeans(vectors, Math.round(vectors.length / size), { seed });
        const byCluster: number[][] = Array.from({ length: km.k }, () => []);
        km.assignment.forEach((c, i) => byCluster[c]!.push(i));
        groups.push(...byCluster);
      }
    }
    cache?.set(key, groups);
  }
  return groups.filter((g) => g.length >= minSize && g.length <= maxSize);
}

function overlaps(a: readonly number[], b: ReadonlySet<number>): boolean {
  let shared = 0;
  for (const i of a) if (b.has(i)) shared++;
  return shared * 2 > Math.min(a.length, b.size);
}

export function evidenceClusters(input: ClusterInput, settings: ClusterSettings = {}, cache?: GroupCache): EvidenceCluster[] {
  // Tasks with a zero vector carry no meaning for grouping.
  const keep = input.vectors.map((v, i) => (Array.prototype.some.call(v, (x: number) => x !== 0) ? i : -1)).filter((i) => i >= 0);
  const n = keep.length;
  if (n < 4) return [];
  const vectors = keep.map((i) => input.vectors[i]!);
  const texts = keep.map((i) => input.texts[i]!);
  const scores = keep.map((i) => input.scores[i]!);
  const minSize = settings.minSize ?? Math.min(20, Math.max(3, Math.round(n / 40)));
  const maxSize = Math.max(2 * minSize, Math.floor((settings.maxShare ?? 0.25) * n));
  const fdr = settings.fdr ?? 0.1;
  const alpha = settings.alpha ?? 0.1;
  const minEffect = settings.minEffect ?? 0.3;
  const strong = settings.strongEffect ?? 0.8;
  const little = settings.littleEffect ?? 0.2;
  const maxPerSide = settings.maxPerSide ?? 6;
  const sign = input.direction === 'higher-better' ? 1 : -1;

  const overall = moments(scores).mean;
  const candidates: Candidate[] = [];
  for (const members of candidateGroups(vectors, texts, minSize, maxSize, settings.seed ?? 0, cache)) {
    const inside = new Set(members);
    const mc = moments(members.map((i) => scores[i]!));
    const mr = moments(scores.filter((_, i) => !inside.has(i)));
    candidates.push({ members, mean: mc.mean, restMean: mr.mean, d: cohensD(mc, mr), p: welch(mc, mr).p, q: 1 });
  }
  const qs = benjaminiHochberg(candidates.map((c) => c.p));
  candidates.forEach((c, i) => (c.q = qs[i]!));
  // Most convincing first: smaller p, then larger effect, then larger group, then first member.
  candidates.sort((a, b) => a.p - b.p || Math.abs(b.d) - Math.abs(a.d) || b.members.length - a.members.length || a.members[0]! - b.members[0]!);

  const chosen: { c: Candidate; tier: EvidenceTier; set: Set<number> }[] = [];
  const count = { better: 0, worse: 0 };
  const take = (tier: EvidenceTier, ok: (c: Candidate) => boolean, perSide: number, onlyEmpty: boolean) => {
    const startCount = { ...count };
    for (const c of candidates) {
      const side = sign * c.d > 0 ? 'better' : 'worse';
      if (onlyEmpty && startCount[side] > 0) continue;
      if (count[side] >= perSide || !ok(c)) continue;
      if (chosen.some((x) => overlaps(c.members, x.set))) continue;
      chosen.push({ c, tier, set: new Set(c.members) });
      count[side]++;
    }
  };
  take('confident', (c) => c.q <= fdr && Math.abs(c.d) >= minEffect, maxPerSide, false);
  take('tentative', (c) => c.p <= alpha && Math.abs(c.d) >= minEffect, 2, true);
  take('little', (c) => Math.abs(c.d) >= little, 1, true);

  const docFreq = documentFrequencies(texts);
  return chosen.map(({ c, tier }) => {
    const better = sign * c.d > 0;
    const strongEnough = tier === 'confident' && Math.abs(c.d) >= strong;
    const level: Level = better ? (strongEnough ? 'proficient' : 'good') : strongEnough ? 'weak' : 'bad';
    const typical = texts[c.members[typicalMember(vectors, c.members)]!]!;
    const words = distinctiveWords(
      c.members.map((i) => texts[i]!),
      docFreq,
      n,
    );
    return {
      level,
      text: clusterEntryText({ level, typical, words, mean: c.mean, overall, size: c.members.length, tier, p: c.p }),
      tier,
      evidence: c.members.map((i) => input.experienceIds[keep[i]!]!),
      size: c.members.length,
      mean: c.mean,
      restMean: c.restMean,
      overall,
      d: c.d,
      p: c.p,
      q: c.q,
    };
  });
}
