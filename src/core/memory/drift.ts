/**
 * Drift: memory entries whose evidence is contradicted by experiences that arrived or changed
 * after the entry was made (a re-import, new labels). Pure; the caller gathers the experiences.
 *
 * For an entry, the compared experiences are the tool's experiences on the entry's evidence tasks
 * (same task ids) with `at > entry.validFrom`. With t = threshold · (max − min) and the deviation
 * d = score − tool mean (sign flipped on lower-better scales, so d > 0 is always "better"):
 *   - a proficient/good entry is contradicted by an experience with d ≤ −t;
 *   - a bad/weak entry by one with d ≥ +t.
 * The entry is stale when at least `minCount` experiences contradict it AND they are at least
 * `minShare` of the compared ones (one dissenting rater among many agreeing ones is not drift).
 * The tool mean is over all the tool's experiences given (old and new), or `toolMeans` when given.
 */
import type { Level, ScoreScale } from '../types';

export interface DriftExperience {
  id: string;
  toolId: string;
  taskId: string;
  score: number;
  /** When it arrived or last changed (ms); only those after the entry count. */
  at: number;
}

export interface DriftEntry {
  id: string;
  toolId: string;
  level: Level;
  value: number;
  /** Task ids of the entry's evidence. */
  evidenceTasks: readonly string[];
  validFrom: number;
}

export interface DriftOptions {
  scale: Pick<ScoreScale, 'min' | 'max' | 'direction'>;
  /** Contradiction threshold as a fraction of the scale range (default 0.2: 0.8 on a 1–5 scale). */
  threshold?: number;
  /** Smallest share of the compared experiences that must contradict (default 0.5). */
  minShare?: number;
  /** Smallest number of contradicting experiences (default 1). */
  minCount?: number;
  /**
   * Each tool's mean over ALL its experiences, when the experiences given are only those on the
   * entries' evidence tasks (the caller reads the means from the stored counts). Default: the mean
   * of the experiences given.
   */
  toolMeans?: ReadonlyMap<string, number>;
}

export interface StaleFlag {
  entryId: string;
  toolId: string;
  /** Experiences after the entry on its evidence tasks. */
  compared: number;
  /** Ids of the contradicting ones, in input order. */
  contradicting: string[];
  share: number;
  toolMean: number;
  /** Mean score of the compared experiences. */
  comparedMean: number;
}

export const DRIFT_DEFAULTS = { threshold: 0.2, minShare: 0.5, minCount: 1 } as const;

export function findStaleEntries(entries: readonly DriftEntry[], experiences: readonly DriftExperience[], opts: DriftOptions): StaleFlag[] {
  const threshold = opts.threshold ?? DRIFT_DEFAULTS.threshold;
  const minShare = opts.minShare ?? DRIFT_DEFAULTS.minShare;
  const minCount = Math.max(1, opts.minCount ?? DRIFT_DEFAULTS.minCount);
  const t = threshold * (opts.scale.max - opts.scale.min);
  const sign = opts.scale.direction === 'lower-better' ? -1 : 1;
  const byTool = new Map<string, { sum: number; n: number; byTask: Map<string, DriftExperience[]> }>();
  for (const x of experiences) {
    let g = byTool.get(x.toolId);
    if (!g) byTool.set(x.toolId, (g = { sum: 0, n: 0, byTask: new Map() }));
    g.sum += x.score;
    g.n++;
    const list = g.byTask.get(x.taskId);
    if (list) list.push(x);
    else g.byTask.set(x.taskId, [x]);
  }
  const out: StaleFlag[] = [];
  for (const e of entries) {
    const g = byTool.get(e.toolId);
    if (!g || e.value === 0) continue;
    const mean = opts.toolMeans?.get(e.toolId) ?? g.sum / g.n;
    const compared = [...new Set(e.evidenceTasks)].flatMap((task) => (g.byTask.get(task) ?? []).filter((x) => x.at > e.validFrom));
    if (!compared.length) continue;
    const contradicting = compared.filter((x) => {
      const d = sign * (x.score - mean);
      return e.value > 0 ? d <= -t + 1e-12 : d >= t - 1e-12;
    });
    const share = contradicting.length / compared.length;
    if (contradicting.length >= minCount && share >= minShare) {
      out.push({
        entryId: e.id,
        toolId: e.toolId,
        compared: compared.length,
        contradicting: contradicting.map((x) => x.id),
        share,
        toolMean: mean,
        comparedMean: compared.reduce((s, x) => s + x.score, 0) / compared.length,
      });
    }
  }
  return out;
}
