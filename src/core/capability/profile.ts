/**
 * A tool's overall profile (issue #25): the entry every tool gets, so no tool is ever blank.
 *
 *   mean       of its scores on the training tasks (scale units)
 *   rank       1 = best mean among the tools (oriented: lowest on lower-better scales)
 *   rankCi95   2.5% and 97.5% quantiles of its rank over PROFILE_RESAMPLES bootstrap resamples of
 *              the tasks (each tool's mean over its scored tasks in the resample; seeded, so the
 *              same table gives the same interval)
 *   bestShare  over its tasks scored by ≥ 2 tools, the share where it scores best (a k-way tie
 *              counts 1/k)
 *   advantage  mean over its paired tasks of (its score − the other tools' mean), oriented
 */
import { createRng } from '../eval/rng';
import { advantages, oriented, type ScoreTable } from './effects';
import type { ToolProfile } from './types';

export const PROFILE_RESAMPLES = 200;

function ranksOf(means: readonly number[]): number[] {
  return means.map((m) => (Number.isNaN(m) ? NaN : 1 + means.filter((o) => !Number.isNaN(o) && o > m).length));
}

/** Each tool's mean over the tasks idx[0 … n) (all tasks when idx is null), NaN scores skipped. */
function orientedMeans(v: readonly Float64Array[], idx: Int32Array | null, n: number): number[] {
  return v.map((row) => {
    let s = 0;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const x = row[idx ? idx[i]! : i]!;
      if (!Number.isNaN(x)) {
        s += x;
        c++;
      }
    }
    return c > 0 ? s / c : NaN;
  });
}

/** Profiles of every tool of the table, in table order. */
export function profiles(table: ScoreTable): ToolProfile[] {
  const sign = table.scale.direction === 'lower-better' ? -1 : 1;
  const N = table.taskIds.length;
  const J = table.toolIds.length;
  const v = oriented(table);
  const a = advantages(v);
  const means = orientedMeans(v, null, N);
  const rank = ranksOf(means);
  const rng = createRng(20251);
  const draws: number[][] = Array.from({ length: J }, () => []);
  const idx = new Int32Array(N);
  for (let b = 0; b < PROFILE_RESAMPLES; b++) {
    for (let i = 0; i < N; i++) idx[i] = rng.int(N);
    const r = ranksOf(orientedMeans(v, idx, N));
    r.forEach((x, j) => {
      if (!Number.isNaN(x)) draws[j]!.push(x);
    });
  }
  return table.toolIds.map((_, j) => {
    let n = 0;
    let best = 0;
    let paired = 0;
    let adv = 0;
    for (let t = 0; t < N; t++) {
      if (Number.isNaN(v[j]![t]!)) continue;
      n++;
      if (Number.isNaN(a[j]![t]!)) continue;
      paired++;
      adv += a[j]![t]!;
      let top = -Infinity;
      let ties = 0;
      for (const row of v) {
        const y = row[t]!;
        if (y > top) {
          top = y;
          ties = 1;
        } else if (y === top) ties++;
      }
      if (v[j]![t]! === top) best += 1 / ties;
    }
    const d = draws[j]!.sort((a, b) => a - b);
    const q = (p: number) => (d.length ? d[Math.min(d.length - 1, Math.max(0, Math.round(p * (d.length - 1))))]! : rank[j]!);
    return {
      n,
      mean: sign * means[j]!,
      rank: Number.isNaN(rank[j]!) ? J : rank[j]!,
      rankCi95: [q(0.025), q(0.975)] as [number, number],
      of: J,
      bestShare: paired > 0 ? best / paired : 0,
      advantage: paired > 0 ? adv / paired : 0,
    };
  });
}
