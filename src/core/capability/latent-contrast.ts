/**
 * The latent scale's raw statistic and its display (issue #34): what verification recomputes on any
 * table — a tool's log-odds over the other tools inside a facet vs outside it, with no prior — and a
 * log-odds change shown as pass-rate points. The model they read is latent.ts's per-tool fit. Pure.
 */
import { choleskySolve } from '../predict/linalg';
import { Z95 } from './gauss';
import { comparisons, dispersion, fitTool } from './latent-fit';
import { sigmoid } from './score-calibration';

export interface LatentContrast {
  /** Facet tasks where the tool is paired with another tool. */
  n: number;
  /** Facet-minus-overall log-odds contrast and its 95% interval (task-cluster dispersion included). */
  delta: number;
  ci95: [number, number];
  tested: boolean;
}

/**
 * The claimed statistic on any table (verification): tool j's log-odds over the other tools inside
 * the facet vs outside it (one facet, no prior), scaled to facet-minus-overall. Tested when both
 * sides have at least two paired tasks with comparisons.
 */
export function latentContrast(v: readonly ArrayLike<number>[], j: number, member: ArrayLike<number>): LatentContrast {
  const c = comparisons(v, j, [member]);
  let n = 0;
  for (const t of c.paired) if (member[t]) n++;
  let inGroups = 0;
  for (const t of c.task) if (member[t]) inGroups++;
  const outGroups = c.task.length - inGroups;
  if (inGroups < 2 || outGroups < 2) return { n, delta: 0, ci95: [-Infinity, Infinity], tested: false };
  const first = fitTool(c, 1, 1e6, 1);
  const phi = dispersion(c, first.theta);
  const fit = fitTool(c, 1, 1e6, phi, first.theta);
  const K = c.others;
  const P = K + 1;
  const unit = new Float64Array(P);
  unit[K] = 1;
  const se = Math.sqrt(Math.max(0, choleskySolve(fit.l, P, unit)[K]!));
  const scale = (c.paired.length - n) / c.paired.length;
  const delta = scale * fit.theta[K]!;
  const half = Z95 * se * scale;
  return { n, delta, ci95: [delta - half, delta + half], tested: Number.isFinite(se) };
}

/**
 * A log-odds change shown as pass-rate points: the tool passes `mean` here; at its usual lead over
 * the others (the change `c` undone) it would pass σ(logit(mean) − c). `n` bounds the mean away
 * from 0 and 1 (½ a task), so a facet it never passes still maps to a finite change.
 */
export function pointsOf(c: number, mean: number, n: number): number {
  const eps = 0.5 / Math.max(1, n);
  const m = Math.min(1 - eps, Math.max(eps, mean));
  return m - sigmoid(Math.log(m / (1 - m)) - c);
}
