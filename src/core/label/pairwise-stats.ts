/**
 * Results of pairwise judgements (issue #26): per pair of tools, how often the first won, tied and
 * lost, per rater and pooled over raters, with a 95% Wilson score interval on the first tool's
 * share of the decided judgements, wins / (wins + losses) — ties are reported apart and left out
 * of that share (a tie says neither is better). Agreement: among tasks of a pair judged by two or
 * more raters, the share of rater pairs that chose the same (A, B or tie).
 */
import { toCsv } from '../export/csv-cell';
import type { Preference } from '../types';

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export interface PairTally {
  /** Judgements the first tool (toolA, the lower id) won. */
  wins: number;
  ties: number;
  losses: number;
  /** wins / (wins + losses); null without a decided judgement. */
  share: number | null;
  /** 95% Wilson score interval on `share`; null without a decided judgement. */
  ci95: [number, number] | null;
}

export interface PairResult {
  toolA: string;
  toolB: string;
  pooled: PairTally;
  /** Per rater, sorted by name. */
  raters: ({ rater: string } & PairTally)[];
  /** Tasks of this pair judged by at least two raters. */
  sharedTasks: number;
  /** Pairs of raters on the same task that chose the same; share null when no task has two raters. */
  agreement: { agreeing: number; pairs: number; share: number | null };
}

/** Wilson score interval for `k` successes in `n` trials at the given z (95% by default). */
export function wilson(k: number, n: number, z = Z95): [number, number] {
  if (n <= 0) throw new RangeError('wilson: n must be positive');
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function tally(prefs: readonly Preference[]): PairTally {
  let wins = 0;
  let ties = 0;
  let losses = 0;
  for (const p of prefs) {
    if (p.winner === 'A') wins++;
    else if (p.winner === 'B') losses++;
    else ties++;
  }
  const decided = wins + losses;
  return { wins, ties, losses, share: decided ? wins / decided : null, ci95: decided ? wilson(wins, decided) : null };
}

/** One result per pair of tools judged, sorted by the pair's ids. Preferences store the pair in id order (toolA < toolB). */
export function pairwiseResults(prefs: readonly Preference[]): PairResult[] {
  const byPair = new Map<string, Preference[]>();
  for (const p of prefs) {
    const key = `${p.toolA}\u0000${p.toolB}`;
    (byPair.get(key) ?? byPair.set(key, []).get(key)!).push(p);
  }
  const out: PairResult[] = [];
  for (const list of byPair.values()) {
    const byRater = new Map<string, Preference[]>();
    const byTask = new Map<string, Preference[]>();
    for (const p of list) {
      (byRater.get(p.rater) ?? byRater.set(p.rater, []).get(p.rater)!).push(p);
      (byTask.get(p.taskId) ?? byTask.set(p.taskId, []).get(p.taskId)!).push(p);
    }
    let agreeing = 0;
    let pairs = 0;
    let sharedTasks = 0;
    for (const judged of byTask.values()) {
      if (judged.length < 2) continue;
      sharedTasks++;
      for (let i = 0; i < judged.length; i++) {
        for (let j = i + 1; j < judged.length; j++) {
          pairs++;
          if (judged[i]!.winner === judged[j]!.winner) agreeing++;
        }
      }
    }
    out.push({
      toolA: list[0]!.toolA,
      toolB: list[0]!.toolB,
      pooled: tally(list),
      raters: [...byRater].sort(([a], [b]) => a.localeCompare(b)).map(([rater, own]) => ({ rater, ...tally(own) })),
      sharedTasks,
      agreement: { agreeing, pairs, share: pairs ? agreeing / pairs : null },
    });
  }
  return out.sort((a, b) => a.toolA.localeCompare(b.toolA) || a.toolB.localeCompare(b.toolB));
}

/** Flat rows for export: one per pair × (each rater, then `pooled`). */
export function pairwiseRows(results: readonly PairResult[]) {
  return results.flatMap((r) =>
    [...r.raters, { rater: '(pooled)', ...r.pooled }].map((t) => ({
      tool_a: r.toolA,
      tool_b: r.toolB,
      rater: t.rater,
      wins_a: t.wins,
      ties: t.ties,
      wins_b: t.losses,
      share_a: t.share ?? '',
      ci95_low: t.ci95?.[0] ?? '',
      ci95_high: t.ci95?.[1] ?? '',
      interval: 'Wilson 95% on wins_a / (wins_a + wins_b); ties apart',
      agreement: t.rater === '(pooled)' ? (r.agreement.share ?? '') : '',
      agreement_pairs: t.rater === '(pooled)' ? r.agreement.pairs : '',
    })),
  );
}

const COLUMNS = [
  'tool_a',
  'tool_b',
  'rater',
  'wins_a',
  'ties',
  'wins_b',
  'share_a',
  'ci95_low',
  'ci95_high',
  'interval',
  'agreement',
  'agreement_pairs',
] as const;

/** CSV through the one writer (formula cells neutralised: export/csv-cell.ts). */
export function pairwiseCsv(results: readonly PairResult[]): string {
  return toCsv([[...COLUMNS], ...pairwiseRows(results).map((row) => COLUMNS.map((c) => row[c]))]);
}

export function pairwiseJsonl(results: readonly PairResult[]): string {
  const rows = pairwiseRows(results);
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
}
