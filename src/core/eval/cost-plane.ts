/**
 * The cost–quality plane of an evaluation (issue #18, the RouterBench picture): for the test tasks
 * of one seed, the mean cost and mean true score of
 *  - "always X" — every task goes to tool X;
 *  - each method's selector at a sweep of cost weights λ (pick argmax of s·predicted − λ·cost);
 *  - random — the expected point of a uniformly random pick (mean cost, mean score over tools);
 *  - oracle — the tool with the best true score on each task (the cheapest among equals), a bound
 *    no selector can beat, so it is drawn but not part of the frontier.
 * The frontier: achievable points that no other achievable point beats on both axes (cheaper or
 * as cheap, and at least as good, better on one).
 * Only tools with a cost take part, and only tasks every method predicted for every one of them
 * (LLM methods may score fewer tasks): all points are on the same tasks, `tasks` says how many.
 */
import type { ScoreDirection } from '../types';
import { selectTool } from '../predict/select';

/** One point of the plane (EvalResult.costPlane.points). */
export interface PlanePoint {
  /** 'always' = always pick this tool; 'method' = a method's selector at one λ; 'random' / 'oracle'. */
  kind: 'always' | 'method' | 'random' | 'oracle';
  /** Tool id (always) or method id (method). */
  label: string;
  /** Mean cost per task of the picks (the unit of the tools' costs). */
  cost: number;
  /** Mean true score of the picks. */
  quality: number;
  /** The cost weight λ (method points only). */
  lambda?: number;
  /** On the cost–quality frontier (no other point is cheaper and at least as good). */
  frontier: boolean;
}

export interface PlaneInput {
  /** Per method, its predictions with the true score, as EvalResult.points (taskId required here). */
  points: Readonly<Record<string, readonly { predicted: number; actual: number; toolId: string; taskId?: string }[]>>;
  /** Cost per call per tool (tools without one are left out). */
  costs: ReadonlyMap<string, number>;
  direction?: ScoreDirection;
  /** Width of the score scale: the λ sweep is in units of it per cost span. */
  scaleSpan: number;
  /** The λ sweep as fractions of scaleSpan / (max cost − min cost); default LAMBDA_FRACTIONS. */
  fractions?: readonly number[];
}

/** At fraction 1 a full scale of predicted score only just pays for the dearest tool over the cheapest. */
export const LAMBDA_FRACTIONS: readonly number[] = [0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1];

export interface PlaneResult {
  points: PlanePoint[];
  /** Tasks every point is measured on. */
  tasks: number;
  /** The tools that took part (those with a cost), sorted. */
  tools: string[];
}

const EPS = 1e-12;
const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** Marks the frontier among the non-oracle points (in place) and returns the points. */
export function markFrontier(points: PlanePoint[], direction: ScoreDirection = 'higher-better'): PlanePoint[] {
  const s = direction === 'lower-better' ? -1 : 1;
  const reachable = points.filter((p) => p.kind !== 'oracle');
  for (const p of points) {
    p.frontier =
      p.kind !== 'oracle' &&
      !reachable.some((q) => q !== p && q.cost <= p.cost + EPS && s * q.quality >= s * p.quality - EPS && (q.cost < p.cost - EPS || s * q.quality > s * p.quality + EPS));
  }
  return points;
}

/** The plane, or null when fewer than two tools have a cost or no task is covered. */
export function costQualityPlane(input: PlaneInput): PlaneResult | null {
  const direction = input.direction ?? 'higher-better';
  const s = direction === 'lower-better' ? -1 : 1;
  const methods = Object.keys(input.points).sort();
  // task → tool → true score, and method → task → tool → predicted (Maps: ids are data).
  const truth = new Map<string, Map<string, number>>();
  const predicted = new Map<string, Map<string, Map<string, number>>>();
  for (const m of methods) {
    const byTask = new Map<string, Map<string, number>>();
    predicted.set(m, byTask);
    for (const p of input.points[m]!) {
      if (p.taskId === undefined || !input.costs.has(p.toolId)) continue;
      let t = byTask.get(p.taskId);
      if (!t) byTask.set(p.taskId, (t = new Map()));
      t.set(p.toolId, p.predicted);
      let a = truth.get(p.taskId);
      if (!a) truth.set(p.taskId, (a = new Map()));
      a.set(p.toolId, p.actual);
    }
  }
  const tools = [...new Set([...truth.values()].flatMap((t) => [...t.keys()]))].sort();
  if (tools.length < 2) return null;
  const covered = (byTool: ReadonlyMap<string, number> | undefined) => byTool !== undefined && tools.every((t) => byTool.has(t));
  const tasks = [...truth.keys()].filter((task) => covered(truth.get(task)) && methods.every((m) => covered(predicted.get(m)!.get(task)))).sort();
  if (tasks.length === 0) return null;
  const cost = (t: string) => input.costs.get(t)!;
  const actual = (task: string, t: string) => truth.get(task)!.get(t)!;

  const points: PlanePoint[] = tools.map((t) => ({ kind: 'always', label: t, cost: cost(t), quality: mean(tasks.map((task) => actual(task, t))), frontier: false }));
  points.push({ kind: 'random', label: 'random', cost: mean(tools.map(cost)), quality: mean(tasks.map((task) => mean(tools.map((t) => actual(task, t))))), frontier: false });

  const costs = tools.map(cost);
  const span = Math.max(...costs) - Math.min(...costs);
  const fractions = span > 0 ? (input.fractions ?? LAMBDA_FRACTIONS) : [0];
  for (const m of methods) {
    let last: PlanePoint | null = null;
    for (const f of fractions) {
      const lambda = span > 0 ? (f * input.scaleSpan) / span : 0;
      const picks = tasks.map((task) => {
        const byTool = predicted.get(m)!.get(task)!;
        const sel = selectTool(tools.map((t) => ({ toolId: t, score: byTool.get(t)!, cost: cost(t) })), { costWeight: lambda, direction });
        return sel.choice ?? sel.ranked[0]!.toolId;
      });
      const point: PlanePoint = { kind: 'method', label: m, lambda, cost: mean(picks.map(cost)), quality: mean(picks.map((t, i) => actual(tasks[i]!, t))), frontier: false };
      // A larger λ that picks the same tools adds nothing: the first λ reaching a point stands for it.
      if (last && Math.abs(last.cost - point.cost) < EPS && Math.abs(last.quality - point.quality) < EPS) continue;
      points.push((last = point));
    }
  }

  const oracle = tasks.map((task) => [...tools].sort((a, b) => s * actual(task, b) - s * actual(task, a) || cost(a) - cost(b) || (a < b ? -1 : 1))[0]!);
  points.push({ kind: 'oracle', label: 'oracle', cost: mean(oracle.map(cost)), quality: mean(oracle.map((t, i) => actual(tasks[i]!, t))), frontier: false });
  return { points: markFrontier(points, direction), tasks: tasks.length, tools };
}
