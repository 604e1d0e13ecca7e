import type { Experience, ScoreScale } from '../types';

export interface ToolStats {
  toolId: string;
  n: number;
  mean: number;
  /** Counts per bin, aligned with DatasetStats.bins. */
  histogram: number[];
}

export interface DatasetStats {
  /** Bin labels: each integer for integer scales, else ten equal-width ranges. */
  bins: string[];
  tools: ToolStats[];
  raters: { rater: string; n: number }[];
  tasks: number;
}

/** Integer scales with at most this many points get one bin per score. */
const MAX_INTEGER_BINS = 11;
const CONTINUOUS_BINS = 10;

function binning(scale: ScoreScale): { labels: string[]; index: (score: number) => number } {
  const span = scale.max - scale.min;
  if (scale.integer && span + 1 <= MAX_INTEGER_BINS) {
    const labels = Array.from({ length: span + 1 }, (_, i) => String(scale.min + i));
    return { labels, index: (s) => Math.round(s) - scale.min };
  }
  const width = span / CONTINUOUS_BINS || 1;
  const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, ''));
  const labels = Array.from({ length: CONTINUOUS_BINS }, (_, i) => `${fmt(scale.min + i * width)}–${fmt(scale.min + (i + 1) * width)}`);
  // The top edge belongs to the last bin.
  return { labels, index: (s) => Math.min(CONTINUOUS_BINS - 1, Math.floor((s - scale.min) / width)) };
}

/**
 * What the statistics are computed from: how many experiences of each tool have each score, how
 * many each rater gave, and how many distinct tasks there are. The database keeps these counts up
 * to date on every write (src/db/dataset-counts.ts), so the Data page does not read 200k rows.
 * Order-free: two equal multisets of experiences give equal counts, hence equal statistics.
 */
export interface DatasetCounts {
  scores: { toolId: string; score: number; n: number }[];
  raters: { rater: string; n: number }[];
  tasks: number;
}

/** The counts of a list of experiences (the full recomputation the stored counts must equal). */
export function countExperiences(experiences: Iterable<Experience>): DatasetCounts {
  const scores = new Map<string, Map<number, number>>();
  const raters = new Map<string, number>();
  const tasks = new Set<string>();
  for (const e of experiences) {
    let byScore = scores.get(e.toolId);
    if (!byScore) scores.set(e.toolId, (byScore = new Map()));
    byScore.set(e.score, (byScore.get(e.score) ?? 0) + 1);
    raters.set(e.rater, (raters.get(e.rater) ?? 0) + 1);
    tasks.add(e.taskId);
  }
  return {
    scores: [...scores].flatMap(([toolId, m]) => [...m].map(([score, n]) => ({ toolId, score, n }))),
    raters: [...raters].map(([rater, n]) => ({ rater, n })),
    tasks: tasks.size,
  };
}

/**
 * Per tool: the number of experiences and the sum of their scores, summed in ascending score order
 * (so the result depends only on the counts, never on the order rows were read or written).
 */
export function toolSums(counts: Pick<DatasetCounts, 'scores'>): Map<string, { n: number; sum: number }> {
  const sorted = [...counts.scores].sort((a, b) => a.score - b.score || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
  const out = new Map<string, { n: number; sum: number }>();
  for (const { toolId, score, n } of sorted) {
    let t = out.get(toolId);
    if (!t) out.set(toolId, (t = { n: 0, sum: 0 }));
    t.n += n;
    t.sum += score * n;
  }
  return out;
}

/** Per-tool counts, means and score histograms, and rater counts, for the Data page, from the counts. */
export function statsFromCounts(counts: DatasetCounts, scale: ScoreScale): DatasetStats {
  const { labels, index } = binning(scale);
  const histograms = new Map<string, number[]>();
  for (const { toolId, score, n } of counts.scores) {
    let h = histograms.get(toolId);
    if (!h) histograms.set(toolId, (h = labels.map(() => 0)));
    const bin = index(score);
    if (bin >= 0 && bin < labels.length) h[bin]! += n;
  }
  return {
    bins: labels,
    tools: [...toolSums(counts)]
      .map(([toolId, t]) => ({ toolId, n: t.n, mean: t.n ? t.sum / t.n : 0, histogram: histograms.get(toolId)! }))
      .sort((a, b) => b.mean - a.mean || a.toolId.localeCompare(b.toolId)),
    raters: counts.raters.filter((r) => r.n > 0).sort((a, b) => a.rater.localeCompare(b.rater)),
    tasks: counts.tasks,
  };
}

/** Per-tool counts, means and score histograms, and rater counts, for the Data page. */
export function datasetStats(experiences: Iterable<Experience>, scale: ScoreScale): DatasetStats {
  return statsFromCounts(countExperiences(experiences), scale);
}
