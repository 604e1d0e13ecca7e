/**
 * A selection-aware check of a pick claim (issue #34): the pick is the facet's best tool, chosen
 * because its lead over the overall best B looked largest — so its lead on the training tasks runs
 * above its lead on new tasks (the winner's curse; measured 0.05–0.33 points on the tuning seeds).
 *
 * A bootstrap over the facet's training tasks redoes the whole selection. Each resample draws the
 * facet's n paired tasks with replacement (a task keeps every tool's score), recomputes every
 * tool's mean lead over B there (d_jt = v_jt − v_Bt), and selects the tool with the largest. With
 * T = the largest lead on the full sample and T*_b the largest in resample b:
 *   bias      = mean_b T*_b − T          (bootstrap bias of a maximum; ≥ 0 up to noise)
 *   corrected = T − bias = 2T − mean_b T*_b
 *   share     = #{b : the pick is selected in b and its lead there exceeds the bias} / B
 * `share` reads the resamples' spread around the corrected lead, and counts a resample where
 * another tool wins as against the pick. Resamples come from a seeded generator (deterministic).
 */
import { createRng } from '../eval/rng';

export const PICK_BOOTSTRAP_RESAMPLES = 200;
/**
 * A pick stands only where share ≥ this (the pick threshold itself, not tuned further). On the tuning
 * seeds (101–112, 72 builds) it took the present rule from 6 picks, 5 ahead, 1 contradicted to 4
 * picks, 4 ahead, 0 contradicted; read alone, share was no better calibrated than the posterior.
 */
export const MIN_PICK_SELECTION = 0.9;

/** The draws' seed for one candidate: from the build's own figures, so a rebuild repeats them. */
export const pickSeed = (facet: number, tool: number): number => facet * 7919 + tool;

export interface SelectionBootstrap {
  /** The pick's mean lead over B on the facet's tasks, and the largest lead of any tool there (T). */
  lead: number;
  top: number;
  /** mean_b T*_b − T, the lead corrected for the selection (T − bias), and the share described above. */
  bias: number;
  corrected: number;
  share: number;
  /** Resamples in which the pick was the selected tool. */
  selected: number;
}

/** Per tool, the lead over B on each of the facet's tasks (NaN where either is missing); B's own row is 0. */
function facetLeads(v: readonly ArrayLike<number>[], member: ArrayLike<number>, best: number): { d: Float64Array[]; n: number } {
  const tasks: number[] = [];
  for (let t = 0; t < member.length; t++) if (member[t] && !Number.isNaN(v[best]![t]!)) tasks.push(t);
  const d = v.map((row) => Float64Array.from(tasks, (t) => row[t]! - v[best]![t]!));
  return { d, n: tasks.length };
}

/** Each tool's mean lead over the drawn tasks (counts[i] copies of task i); NaN where a tool has none. */
function meanLeads(d: readonly Float64Array[], counts: Int32Array): number[] {
  return d.map((row) => {
    let sum = 0;
    let k = 0;
    for (let i = 0; i < row.length; i++) {
      if (!counts[i] || Number.isNaN(row[i]!)) continue;
      sum += counts[i]! * row[i]!;
      k += counts[i]!;
    }
    return k > 0 ? sum / k : NaN;
  });
}

/** The index and value of the largest lead among the tools other than B (first on ties). */
function topOf(leads: readonly number[], best: number): { tool: number; lead: number } {
  let tool = -1;
  let lead = -Infinity;
  leads.forEach((x, j) => {
    if (j !== best && !Number.isNaN(x) && x > lead) {
      tool = j;
      lead = x;
    }
  });
  return { tool, lead };
}

/**
 * The selection redone on given draws: each draw holds, per facet task (in task order), how many
 * times it was drawn. Pure; selectionBootstrap supplies seeded draws, tests hand-made ones.
 */
export function selectionFromDraws(
  v: readonly ArrayLike<number>[],
  member: ArrayLike<number>,
  best: number,
  tool: number,
  draws: readonly Int32Array[],
): SelectionBootstrap {
  const { d, n } = facetLeads(v, member, best);
  const full = meanLeads(d, new Int32Array(n).fill(1));
  const top = topOf(full, best).lead;
  const rows = draws.map((counts) => {
    const leads = meanLeads(d, counts);
    return { ...topOf(leads, best), mine: leads[tool]! };
  });
  const valid = rows.filter((r) => Number.isFinite(r.lead));
  const bias = valid.length ? valid.reduce((a, r) => a + r.lead, 0) / valid.length - top : 0;
  const wins = rows.filter((r) => r.tool === tool);
  const share = rows.length ? wins.filter((r) => r.mine - bias > 0).length / rows.length : 0;
  return { lead: full[tool]!, top, bias, corrected: top - bias, share, selected: wins.length };
}

/**
 * The bootstrap of the selection for pick `tool` over `best` on the facet `member`: `resamples`
 * (default PICK_BOOTSTRAP_RESAMPLES) draws of the facet's paired tasks with replacement, from a
 * generator seeded with `seed` (the caller derives it from the build, so a rebuild repeats it).
 */
export function selectionBootstrap(
  v: readonly ArrayLike<number>[],
  member: ArrayLike<number>,
  best: number,
  tool: number,
  opts: { seed: number; resamples?: number },
): SelectionBootstrap {
  const { n } = facetLeads(v, member, best);
  const rng = createRng(opts.seed);
  const B = n > 0 ? (opts.resamples ?? PICK_BOOTSTRAP_RESAMPLES) : 0;
  const draws = Array.from({ length: B }, () => {
    const counts = new Int32Array(n);
    for (let i = 0; i < n; i++) counts[rng.int(n)]!++;
    return counts;
  });
  return selectionFromDraws(v, member, best, tool, draws);
}
