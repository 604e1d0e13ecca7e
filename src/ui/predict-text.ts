/**
 * The Predict page's sentences and its request's cost part, as plain functions (the page and its
 * tests read the same): where a prediction learned from, what the language model's replies did,
 * where the ranges come from, why a tool was left out, and the costs, weight and limits to send.
 */
import type { PredictRequest, PredictResponse, ToolPrediction } from '../app/evaluate/api';
import { formatCost, formatLatency } from '../core/cost/tool-cost';
import { dictFrom } from '../core/data-keys';
import type { ExcludedCandidate } from '../core/predict/select';
import { formatPlural } from './format';

/** "9,600 scored outputs (1,600 tasks × 6 tools)": the count and what it is made of, so it squares with the dataset's 1,600 tasks (issue #38). */
export function learnedFrom(r: Pick<PredictResponse, 'trainedOn' | 'trainedTasks' | 'trainedTools'>): string {
  const outputs = formatPlural(r.trainedOn, 'scored output');
  if (r.trainedTasks === undefined || r.trainedTools === undefined) return outputs;
  const tasks = formatPlural(r.trainedTasks, 'task');
  const tools = formatPlural(r.trainedTools, 'tool');
  const whole = r.trainedTasks * r.trainedTools === r.trainedOn;
  return `${outputs} (${whole ? `${tasks} × ${tools}` : `${tasks}, ${tools}; not every tool scored on every task`})`;
}

/** What the language model's replies did: unreadable ones fell back to the tool's mean, ones off the scale were clamped. */
export function llmNote(llm: { parseFailures: number; outOfRange: number }): string {
  const parse = llm.parseFailures ? ` ${llm.parseFailures} model repl${llm.parseFailures === 1 ? 'y' : 'ies'} held no score: the tool's mean was used.` : '';
  const range = llm.outOfRange ? ` ${llm.outOfRange} answer${llm.outOfRange === 1 ? ' was' : 's were'} off the scale and clamped.` : '';
  return parse + range;
}

/** Where the ranges' errors come from, with counts that add up to the dataset's tasks. */
export function rangeBasis(r: { folds: number; tasks: number; maxTrain: number; allTasks?: number }): string {
  const sample =
    r.allTasks !== undefined && r.allTasks > r.tasks
      ? `${r.tasks.toLocaleString('en-US')} of its ${r.allTasks.toLocaleString('en-US')} tasks (a seeded sample)`
      : `its ${r.tasks.toLocaleString('en-US')} tasks`;
  return (
    `${sample}, split into ${r.folds} folds; each fold's tasks were predicted by a model that learned from at ` +
    `most ${r.maxTrain.toLocaleString('en-US')} of the other tasks, so no error comes from a model that saw its task`
  );
}

/** Why a limit left a tool out: its figure over the limit, or no figure to check. */
export function excludedReason(x: ExcludedCandidate): string {
  if (x.reason === 'cost-over') return `${formatCost(x.value ?? 0)}, over $${x.limit}`;
  if (x.reason === 'cost-unknown') return 'its cost is not known';
  if (x.reason === 'latency-over') return `${formatLatency(x.value ?? 0)}, over ${formatLatency(x.limit)}`;
  return 'its latency is not known';
}

/** "80% range 2.10–3.40, from the errors on the 50 most similar training tasks". */
export function rangeText(range: NonNullable<ToolPrediction['range']>): string {
  const from =
    range.source === 'similar'
      ? `the ${range.n.toLocaleString()} most similar training tasks`
      : `${range.n.toLocaleString()} training tasks (too few similar ones)`;
  return `80% range ${range.lo.toFixed(2)}–${range.hi.toFixed(2)}, from the errors on ${from}`;
}

/** The evidence list's summary: the memory entries and tasks behind a prediction, or the similar tasks. */
export function evidenceSummary(evidence: ToolPrediction['evidence']): string {
  return evidence.some((e) => e.kind === 'entry')
    ? `Why: the ${evidence.length} memory entries and tasks behind it`
    : `Why: the ${evidence.length} most similar tasks it was scored on`;
}

/** A limit as typed: a finite number ≥ 0, else none. */
export function limitOf(v: number | null): number | undefined {
  return v !== null && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export interface CostInputs {
  tools: readonly string[];
  /** A tool's cost per call (typed here, else its card's), undefined when none is known. */
  costOf: (toolId: string) => number | undefined;
  latencyOf: (toolId: string) => number | undefined;
  costWeight: number;
  maxCost: number | null;
  maxLatencyMs: number | null;
}

/**
 * The request's cost part: the known costs and the weight when cost counts (a weight, or a cost
 * limit), the limits as typed, the known latencies with a latency limit. Costs and latencies are
 * null-prototype objects (tool ids come from data; core/data-keys).
 */
export function costedRequest(c: CostInputs): Pick<PredictRequest, 'costs' | 'costWeight' | 'maxCost' | 'maxLatencyMs' | 'latencies'> {
  const known = (f: (t: string) => number | undefined) =>
    dictFrom(
      c.tools.flatMap((t) => {
        const v = f(t);
        return v !== undefined && Number.isFinite(v) && v >= 0 ? [[t, v] as const] : [];
      }),
    );
  const [mc, ml] = [limitOf(c.maxCost), limitOf(c.maxLatencyMs)];
  return {
    ...(c.costWeight > 0 || mc !== undefined ? { costs: known(c.costOf), costWeight: c.costWeight } : {}),
    ...(mc !== undefined ? { maxCost: mc } : {}),
    ...(ml !== undefined ? { maxLatencyMs: ml, latencies: known(c.latencyOf) } : {}),
  };
}
