/**
 * The Memory page's facet view (issue #34) as data: which leaderboards it offers (all tasks first,
 * then facets with a pick claim, then the rest by name), each tool's row as text, and the pick claim
 * of a facet. Pure (no DOM), unit-tested in Node; the component only lays it out.
 *
 * Tool ids and facet names come from imported data: compared, never used as object keys.
 */
import type { CapabilitySnapshot, LeaderRow, SnapshotPick } from '../core/capability/types';
import { levelText, type NumberStyle } from './capability-format';

export interface BoardChoice {
  /** −1: all training tasks; otherwise the facet's index in the snapshot. */
  facet: number;
  label: string;
  /** Training tasks behind it. */
  n: number;
  pick: SnapshotPick | null;
}

export interface BoardRowView {
  tool: string;
  rank: string;
  /** "2nd (95% interval 1st–3rd)" for screen readers and the title. */
  rankLong: string;
  level: string;
  pBest: string;
  /** 0–100 for the bar. */
  pBestWidth: number;
  n: number;
  /** The overall best tool (row marked), and the facet's pick (row marked). */
  overallBest: boolean;
  pick: boolean;
}

function ordinal(k: number): string {
  const tens = k % 100;
  return `${k}${tens >= 11 && tens <= 13 ? 'th' : k % 10 === 1 ? 'st' : k % 10 === 2 ? 'nd' : k % 10 === 3 ? 'rd' : 'th'}`;
}

/** The leaderboards a snapshot offers, in reading order; empty for snapshots built before issue #34. */
export function boardChoices(snapshot: CapabilitySnapshot): BoardChoice[] {
  const boards = snapshot.leaderboards ?? [];
  if (!snapshot.overall?.length && !boards.length) return [];
  const picks = snapshot.picks ?? [];
  const all: BoardChoice = { facet: -1, label: 'All training tasks', n: Math.max(0, ...(snapshot.overall ?? []).map((r) => r.n)), pick: null };
  const facets = boards
    .filter((b) => snapshot.facets[b.facet])
    .map((b) => ({
      facet: b.facet,
      label: snapshot.facets[b.facet]!.facet.name,
      n: snapshot.facets[b.facet]!.n,
      pick: picks.find((k) => k.facet === b.facet) ?? null,
    }))
    .sort((a, b) => Number(b.pick !== null) - Number(a.pick !== null) || a.label.localeCompare(b.label) || a.facet - b.facet);
  return [all, ...facets];
}

/** The rows of one leaderboard, as shown. `overallBest`: the tool ranked first on all tasks. */
export function boardRows(rows: readonly LeaderRow[], style: NumberStyle, overallBest: string | null, pick: SnapshotPick | null): BoardRowView[] {
  return rows.map((r) => {
    const [lo, hi] = r.rankCi95;
    const interval = lo === hi ? `${ordinal(lo)}` : `${ordinal(lo)}–${ordinal(hi)}`;
    const pct = Math.round(r.pBest * 100);
    return {
      tool: r.toolId,
      rank: `${r.rank} (${lo === hi ? lo : `${lo}–${hi}`})`,
      rankLong: `${ordinal(r.rank)} (95% interval ${interval})`,
      level: levelText(r.mean, style),
      pBest: r.pBest > 0 && pct === 0 ? '< 1%' : r.pBest < 1 && pct === 100 ? '> 99%' : `${pct}%`,
      pBestWidth: Math.max(0, Math.min(100, r.pBest * 100)),
      n: r.n,
      overallBest: r.toolId === overallBest,
      pick: pick !== null && r.toolId === pick.toolId,
    };
  });
}

/** The rows of a choice (all tasks or a facet). */
export function rowsOf(snapshot: CapabilitySnapshot, choice: BoardChoice): readonly LeaderRow[] {
  if (choice.facet < 0) return snapshot.overall ?? [];
  return snapshot.leaderboards?.find((b) => b.facet === choice.facet)?.rows ?? [];
}

/** The tool ranked first on all training tasks (null without an overall leaderboard). */
export function overallBest(snapshot: CapabilitySnapshot): string | null {
  return snapshot.overall?.find((r) => r.rank === 1)?.toolId ?? null;
}
