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
      !reachable.some(
        (q) => q !== p && q.cost <= p.cost + EPS && s * q.quality >= s * p.quality - EPS && (q.cost < p.cost - EPS || s * q.quality > s * p.quality + EPS),
      );
  }
  return points;
}

/** The tasks and tools a plane is measured on, with the true and predicted scores of each. */
interface PlaneTable {
  methods: string[];
  tools: string[];
  tasks: string[];
  cost: (tool: string) => number;
  actual: (task: string, tool: string) => number;
  predicted: (method: string, task: string, tool: string) => number;
}

/** Only tools with a cost, and only tasks every method predicted for every one of them; null when nothing is left. */
function planeTable(input: PlaneInput): PlaneTable | null {
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
  return {
    methods,
    tools,
    tasks,
    cost: (t) => input.costs.get(t)!,
    actual: (task, t) => truth.get(task)!.get(t)!,
    predicted: (m, task, t) => predicted.get(m)!.get(task)!.get(t)!,
  };
}

/** A method's selector's pick on every task of the table at cost weight λ. */
function picksAt(table: PlaneTable, method: string, lambda: number, direction: ScoreDirection): string[] {
  return table.tasks.map((task) => {
    const sel = selectTool(
      table.tools.map((t) => ({ toolId: t, score: table.predicted(method, task, t), cost: table.cost(t) })),
      { costWeight: lambda, direction },
    );
    return sel.choice ?? sel.ranked[0]!.toolId;
  });
}

/** The plane, or null when fewer than two tools have a cost or no task is covered. */
export function costQualityPlane(input: PlaneInput): PlaneResult | null {
  const direction = input.direction ?? 'higher-better';
  const s = direction === 'lower-better' ? -1 : 1;
  const table = planeTable(input);
  if (!table) return null;
  const { methods, tools, tasks, cost, actual } = table;

  const points: PlanePoint[] = tools.map((t) => ({
    kind: 'always',
    label: t,
    cost: cost(t),
    quality: mean(tasks.map((task) => actual(task, t))),
    frontier: false,
  }));
  points.push({
    kind: 'random',
    label: 'random',
    cost: mean(tools.map(cost)),
    quality: mean(tasks.map((task) => mean(tools.map((t) => actual(task, t))))),
    frontier: false,
  });

  const costs = tools.map(cost);
  const span = Math.max(...costs) - Math.min(...costs);
  const fractions = span > 0 ? (input.fractions ?? LAMBDA_FRACTIONS) : [0];
  for (const m of methods) {
    let last: PlanePoint | null = null;
    for (const f of fractions) {
      const lambda = span > 0 ? (f * input.scaleSpan) / span : 0;
      const picks = picksAt(table, m, lambda, direction);
      const point: PlanePoint = {
        kind: 'method',
        label: m,
        lambda,
        cost: mean(picks.map(cost)),
        quality: mean(picks.map((t, i) => actual(tasks[i]!, t))),
        frontier: false,
      };
      // A larger λ that picks the same tools adds nothing: the first λ reaching a point stands for it.
      if (last && Math.abs(last.cost - point.cost) < EPS && Math.abs(last.quality - point.quality) < EPS) continue;
      points.push((last = point));
    }
  }

  const oracle = tasks.map((task) => [...tools].sort((a, b) => s * actual(task, b) - s * actual(task, a) || cost(a) - cost(b) || (a < b ? -1 : 1))[0]!);
  points.push({ kind: 'oracle', label: 'oracle', cost: mean(oracle.map(cost)), quality: mean(oracle.map((t, i) => actual(tasks[i]!, t))), frontier: false });
  return { points: markFrontier(points, direction), tasks: tasks.length, tools };
}

/** A paired difference of mean true scores on the plane's tasks, with its 95% interval. */
export interface PairedDifference {
  /** Mean over tasks of (the selector's pick's true score − the tool's true score), in score points. */
  mean: number;
  /** 95% interval of that mean (normal approximation of the paired differences over tasks). */
  lo: number;
  hi: number;
  tasks: number;
}

/**
 * How a method's selector at cost weight λ does against always choosing `tool`, task by task on the
 * plane's tasks: the paired difference of true scores (positive: the selector scores higher, on a
 * higher-better scale; on a lower-better one, positive means lower, i.e. better). The plane's points
 * carry means only; this says whether their gap is more than the noise of these tasks. The point
 * compared is the best of many (methods × λ), so an interval clear of zero is still one seed's word.
 */
export function pairedDifference(input: PlaneInput, method: string, lambda: number, tool: string): PairedDifference | null {
  const direction = input.direction ?? 'higher-better';
  const s = direction === 'lower-better' ? -1 : 1;
  const table = planeTable(input);
  if (!table || !table.methods.includes(method) || !table.tools.includes(tool)) return null;
  const picks = picksAt(table, method, lambda, direction);
  const d = table.tasks.map((task, i) => s * (table.actual(task, picks[i]!) - table.actual(task, tool)));
  const n = d.length;
  const m = mean(d);
  const sd = n > 1 ? Math.sqrt(d.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1)) : 0;
  const half = n > 1 ? (1.96 * sd) / Math.sqrt(n) : 0;
  return { mean: m, lo: m - half, hi: m + half, tasks: n };
}
