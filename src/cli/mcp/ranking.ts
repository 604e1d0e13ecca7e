/**
 * What MCP `recall` and `select_tool` (and the JSON API) say about ranking tools on a task (issue
 * #34): the leaderboards of the facets that apply to it, the pick claims that apply, and the reason
 * for a choice. Everything static is prepared once per memory file; per request only the facets'
 * values are read, from the predictor's per-task cache (the same values its prediction used).
 */
import type { CapabilityMemoryPredictor } from '../../core/capability/predictor';
import type { LeaderRow, SnapshotPick } from '../../core/capability/types';
import type { PredictTask } from '../../core/predict/types';
import type { MemoryFile } from '../../core/memory-format';

/** Leaderboards shown per task: the facets applying most surely. */
const MAX_BOARDS = 3;
const round = (x: number) => Math.round(x * 1e4) / 1e4;

interface Board {
  facet: string;
  rows: { tool: string; n: number; mean: number; rank: number; rankCi95: [number, number]; pBest: number }[];
}

export interface TaskRanking {
  leaderboards: (Board & { probability: number })[];
  picks: { facet: string; probability: number; tool: string; over: string; chance: number; text: string; verdict: string | null }[];
}

export interface Ranking {
  overall: Board['rows'];
  forTask(task: PredictTask): TaskRanking;
  /** Why `choice` comes first among `ranked` (candidates, best first), from the task's `forTask` answer. */
  reason(forTask: TaskRanking, choice: string | null, ranked: readonly string[]): string;
}

const rowsOf = (rows: readonly LeaderRow[]): Board['rows'] =>
  rows.map((r) => ({ tool: r.toolId, n: r.n, mean: round(r.mean), rank: r.rank, rankCi95: r.rankCi95, pBest: round(r.pBest) }));

export function rankingOf(file: MemoryFile, capability: CapabilityMemoryPredictor | null): Ranking {
  const cap = file.build.capability;
  const overall = rowsOf(cap?.overall ?? []);
  // Snapshot facets by name (a twin of the predictor maps to the facet it was merged into).
  const column = new Map((cap?.facets ?? []).map((f, i) => [f.facet.name, i]));
  const boards = new Map((cap?.leaderboards ?? []).map((b) => [b.facet, rowsOf(b.rows)]));
  const picks = new Map<number, SnapshotPick[]>();
  for (const k of cap?.picks ?? []) picks.set(k.facet, [...(picks.get(k.facet) ?? []), k]);
  const forTask = (task: PredictTask): TaskRanking => {
    if (!capability || !cap) return { leaderboards: [], picks: [] };
    const { facets, x, keptOf } = capability.applying(task);
    const on = new Map<number, number>();
    x.forEach((v, f) => {
      if (v < 0.5) return;
      const col = column.get(facets[keptOf.get(f) ?? f]!.facet.name);
      if (col !== undefined) on.set(col, Math.max(on.get(col) ?? 0, x[keptOf.get(f) ?? f]!));
    });
    const sorted = [...on].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return {
      leaderboards: sorted
        .filter(([col]) => boards.has(col))
        .slice(0, MAX_BOARDS)
        .map(([col, p]) => ({ facet: cap.facets[col]!.facet.name, probability: round(p), rows: boards.get(col)! })),
      picks: sorted.flatMap(([col, p]) =>
        (picks.get(col) ?? []).map((k) => ({
          facet: cap.facets[col]!.facet.name,
          probability: round(p),
          tool: k.toolId,
          over: k.over,
          chance: round(k.probability),
          text: k.text,
          verdict: k.verdict?.verdict ?? null,
        })),
      ),
    };
  };
  const reason = (onTask: TaskRanking, choice: string | null, ranked: readonly string[]): string => {
    if (choice === null) return ranked.length ? 'No choice: the first candidates tie on predicted score.' : 'No candidate could be ranked.';
    const applying = onTask.picks;
    const mine = applying.find((k) => k.tool === choice);
    const checked = (v: string | null) => (v ? ` Checked on tasks the memory never saw: ${v}.` : '');
    if (mine)
      return `A pick claim applies (this task is in "${mine.facet}" with probability ${mine.probability.toFixed(2)}): ${mine.text}${checked(mine.verdict)}`;
    const other = applying.find((k) => !ranked.includes(k.tool));
    const note = other ? ` The pick for "${other.facet}" (${other.tool}) is not among the candidates.` : '';
    return `${choice} has the highest predicted score among the candidates (its mean plus the contributions listed).${note}`;
  };
  return { overall, forTask, reason };
}
