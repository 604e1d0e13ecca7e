/**
 * The cost–quality plane of an evaluation run (EvalResult.costPlane): each tool's cost per call
 * from its card, else the median of the dataset's logged costs, then core/eval/cost-plane over the
 * first seed's predictions. Absent when fewer than two tools have a cost — a plane of one tool
 * says nothing.
 */
import { dictFrom } from '../core/data-keys';
import { costStats, effectiveCost } from '../core/cost/tool-cost';
import { costQualityPlane } from '../core/eval/cost-plane';
import type { Experience, ScoreScale, Tool } from '../core/types';
import type { CostQualityPlane, EvalResult } from './eval-api';

export function evalCostPlane(points: EvalResult['points'], tools: readonly Tool[], experiences: readonly Experience[], scale: ScoreScale): CostQualityPlane | undefined {
  const cards = new Map(tools.map((t) => [t.id, t]));
  const stats = costStats(experiences);
  const costs = new Map<string, { cost: number; source: 'data' | 'card'; n?: number; example?: boolean }>();
  for (const toolId of [...stats.keys()].sort()) {
    const c = effectiveCost(cards.get(toolId), stats.get(toolId));
    if (c) costs.set(toolId, { cost: c.value, ...(c.source === 'card' ? { source: 'card', example: c.example } : { source: 'data', n: c.n }) });
  }
  const plane = costQualityPlane({ points, costs: new Map([...costs].map(([t, c]) => [t, c.cost])), direction: scale.direction, scaleSpan: scale.max - scale.min });
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
