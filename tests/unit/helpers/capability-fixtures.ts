/**
 * Small capability inputs the claims tests build from: a facet over given tasks, a score table of
 * n tasks × tools from a formula, a fixed jitter (so contrasts have a spread without randomness),
 * and one experience per task and tool for a whole build.
 */
import type { ScoreTable } from '../../../src/core/capability/effects';
import type { DiscoveredFacet, FacetKind } from '../../../src/core/capability/types';
import type { Experience } from '../../../src/core/types';

/** A category facet (or a cue facet named after its cue) applying to `taskIds`. */
export const facetOf = (name: string, taskIds: string[], kind: FacetKind = 'category'): DiscoveredFacet => ({
  facet: { kind, name, rule: kind === 'cue' ? { type: 'cue', cue: name } : { type: 'category', value: name } },
  taskIds,
});

/** Tasks t000…, tools A, B, C… scored `score(tool, task)` on a continuous 1–5 scale. */
export function tableOf(n: number, score: (tool: number, t: number) => number, tools: number): ScoreTable {
  const taskIds = Array.from({ length: n }, (_, t) => `t${String(t).padStart(3, '0')}`);
  return {
    taskIds,
    toolIds: Array.from({ length: tools }, (_, j) => String.fromCharCode(65 + j)),
    scores: Array.from({ length: tools }, (_, j) => Float64Array.from(taskIds, (_, t) => score(j, t))),
    scale: { min: 1, max: 5, direction: 'higher-better', integer: false },
  };
}

/** ±0.4, ±0.2 or 0 by tool and task: a spread that sums to 0 over any 5 consecutive tasks of a tool. */
export const jitter = (j: number, t: number) => [0.4, -0.4, 0.2, -0.2, 0][(t * 3 + j) % 5]!;

/** One human-rated experience per task and tool (tasks t0…t(n−1)), keyed by tool, for `buildCapability`. */
export function experiencesOf(
  n: number,
  tools: readonly string[],
  row: (j: number, t: number) => { score: number; prompt: string; categories: string[] },
): Map<string, Experience[]> {
  return new Map(
    tools.map((tool, j) => [
      tool,
      Array.from({ length: n }, (_, t) => ({
        id: `d|t${t}|${tool}|r`,
        datasetId: 'd',
        taskId: `t${t}`,
        toolId: tool,
        ...row(j, t),
        rater: 'r',
        scoreSource: 'human' as const,
        importId: 'i',
        createdAt: 0,
      })),
    ]),
  );
}
