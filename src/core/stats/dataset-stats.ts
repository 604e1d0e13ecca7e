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

/** Per-tool counts, means and score histograms, and rater counts, for the Data page. */
export function datasetStats(experiences: Iterable<Experience>, scale: ScoreScale): DatasetStats {
  const { labels, index } = binning(scale);
  const tools = new Map<string, { n: number; sum: number; histogram: number[] }>();
  const raters = new Map<string, number>();
  const tasks = new Set<string>();
  for (const e of experiences) {
    let t = tools.get(e.toolId);
    if (!t) tools.set(e.toolId, (t = { n: 0, sum: 0, histogram: labels.map(() => 0) }));
    t.n++;
    t.sum += e.score;
    const bin = index(e.score);
    if (bin >= 0 && bin < labels.length) t.histogram[bin]!++;
    raters.set(e.rater, (raters.get(e.rater) ?? 0) + 1);
    tasks.add(e.taskId);
  }
  return {
    bins: labels,
    tools: [...tools]
      .map(([toolId, t]) => ({ toolId, n: t.n, mean: t.n ? t.sum / t.n : 0, histogram: t.histogram }))
      .sort((a, b) => b.mean - a.mean || a.toolId.localeCompare(b.toolId)),
    raters: [...raters].map(([rater, n]) => ({ rater, n })).sort((a, b) => a.rater.localeCompare(b.rater)),
    tasks: tasks.size,
  };
}
