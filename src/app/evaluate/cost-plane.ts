/**
 * The cost–quality plane of an evaluation run (EvalResult.costPlane): each tool's cost per call
 * from its card, else the median of the dataset's logged costs, then core/eval/cost-plane over the
 * first seed's predictions. Absent when fewer than two tools have a cost — a plane of one tool
 * says nothing.
 */
import { dictFrom } from '../../core/data-keys';
import { costStats, effectiveCost, type CostFields } from '../../core/cost/tool-cost';
import { costQualityPlane } from '../../core/eval/cost-plane';
import type { ScoreScale, Tool } from '../../core/types';
import type { CostQualityPlane, EvalResult } from './api';

/** `experiences`: the dataset's cost fields (`costRows` keeps what this reads of a dataset read in pages). */
export function evalCostPlane(
  points: EvalResult['points'],
  tools: readonly Tool[],
  experiences: Iterable<CostFields>,
  scale: ScoreScale,
): CostQualityPlane | undefined {
  const cards = new Map(tools.map((t) => [t.id, t]));
  const stats = costStats(experiences);
  const costs = new Map<string, { cost: number; source: 'data' | 'card'; n?: number; example?: boolean }>();
  for (const toolId of [...stats.keys()].sort()) {
    const c = effectiveCost(cards.get(toolId), stats.get(toolId));
    if (c) costs.set(toolId, { cost: c.value, ...(c.source === 'card' ? { source: 'card', example: c.example } : { source: 'data', n: c.n }) });
  }
  const plane = costQualityPlane({
    points,
    costs: new Map([...costs].map(([t, c]) => [t, c.cost])),
    direction: scale.direction,
    scaleSpan: scale.max - scale.min,
  });
  if (!plane) return undefined;
  const missing = [...stats.keys()].filter((t) => !costs.has(t)).sort();
  return {
    costs: dictFrom([...costs].filter(([t]) => plane.tools.includes(t))),
    points: plane.points,
    tasks: plane.tasks,
    ...(missing.length ? { missing } : {}),
    ...(scale.direction ? { direction: scale.direction } : {}),
  };
}

/**
 * What `evalCostPlane` reads of a dataset, gathered row by row: each tool's first row (so a tool
 * with no logged cost is still named as missing one) and every row with a cost or a latency. The
 * same stats as from all the rows, without keeping them.
 */
export class CostRows {
  readonly rows: CostFields[] = [];
  private readonly tools = new Set<string>();

  add(e: CostFields): void {
    const first = !this.tools.has(e.toolId);
    if (first) this.tools.add(e.toolId);
    if (first || e.cost !== undefined || e.latencyMs !== undefined) this.rows.push({ toolId: e.toolId, cost: e.cost, latencyMs: e.latencyMs });
  }
}
