/**
 * Standardised targets of a subset of the training tasks (the whole set, or the training part of
 * a cross-validation fold — statistics are recomputed from that part only, so out-of-fold
 * predictions never see the held-out tasks' scores).
 *
 *   z[j][a] = (target[j][task a] − mean_j) / sd_j      (NaN where tool j did not score the task)
 *   D[a]    = mean over the tools that scored task a of z[j][a]     (shared difficulty)
 */
import type { TrainingTable } from './training-table';

export interface SubsetTargets {
  /** Table task indices, in the order of z and D. */
  tasks: number[];
  z: Float64Array[];
  difficulty: Float64Array;
}

/** Mean of the `n` values `at(0…n−1)` that are not NaN, summed in order, and their count; 0 when none. */
function presentMean(n: number, at: (i: number) => number): { mean: number; count: number } {
  let s = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const v = at(i);
    if (Number.isNaN(v)) continue;
    s += v;
    c++;
  }
  return { mean: c > 0 ? s / c : 0, count: c };
}

export function subsetTargets(table: TrainingTable, tasks: readonly number[]): SubsetTargets {
  const m = tasks.length;
  const floor = 1e-3 * (table.scale.max - table.scale.min);
  const z = table.target.map((col) => {
    const { mean, count: c } = presentMean(m, (a) => col[tasks[a]!]!);
    let ss = 0;
    for (const t of tasks) {
      const v = col[t]!;
      if (!Number.isNaN(v)) ss += (v - mean) ** 2;
    }
    const sd = Math.max(c > 1 ? Math.sqrt(ss / (c - 1)) : 0, floor);
    return Float64Array.from(tasks, (t) => (Number.isNaN(col[t]!) ? NaN : (col[t]! - mean) / sd));
  });
  const difficulty = new Float64Array(m);
  for (let a = 0; a < m; a++) difficulty[a] = presentMean(z.length, (j) => z[j]![a]!).mean;
  return { tasks: [...tasks], z, difficulty };
}

/**
 * Groups tools by the set of tasks they scored (in the common case every tool scored every task:
 * one group), so that one kernel factorisation serves all tools of a group.
 */
export function presenceGroups(z: readonly Float64Array[]): { tools: number[]; rows: number[] }[] {
  const groups = new Map<string, { tools: number[]; rows: number[] }>();
  z.forEach((col, j) => {
    const rows: number[] = [];
    col.forEach((v, a) => {
      if (!Number.isNaN(v)) rows.push(a);
    });
    if (rows.length === 0) return;
    const key = rows.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { tools: [], rows }));
    g.tools.push(j);
  });
  return [...groups.values()];
}
