/**
 * The bootstrap intervals in the `toolmem eval` outputs: `ci95` beside each mean in the JSON
 * report (added fields only — every existing field keeps its name and value) and a text table.
 */
import { own } from '../data-keys';
import type { EvalIntervals, Interval, MethodIntervals, Verdict } from './bootstrap';
import { METRICS, type IntervalMetric } from './bootstrap-metrics';
import { num, table, type JsonReport, type JsonToolMetrics } from './report';

/** [lo, hi] rounded as the report's numbers; null where the interval is undefined. */
export type JsonCi = [number, number] | null;

export interface JsonIntervalMethod {
  ci95: Record<IntervalMetric, JsonCi>;
  /** method − baseline; absent for the baseline. */
  vsBaseline?: Record<IntervalMetric, { diff: number | null; ci95: JsonCi; verdict: Verdict }>;
}

export interface JsonReportWithIntervals extends Omit<JsonReport, 'methods'> {
  methods: Record<
    string,
    JsonReport['methods'][string] & JsonIntervalMethod & { tools: Record<string, JsonToolMetrics & { ci95?: Record<'mae' | 'rmse' | 'pearson', JsonCi> }> }
  >;
  intervals: { method: 'paired bootstrap by task'; resamples: number; seed: number; level: 0.95; baseline: string };
}

function ci(i: Interval): JsonCi {
  const lo = i.lo === null ? null : num(i.lo);
  const hi = i.hi === null ? null : num(i.hi);
  return lo === null || hi === null ? null : [lo, hi];
}

function jsonMethod(mi: MethodIntervals): JsonIntervalMethod {
  const out: JsonIntervalMethod = { ci95: Object.fromEntries(METRICS.map((k) => [k, ci(mi.metrics[k])])) as Record<IntervalMetric, JsonCi> };
  if (mi.vsBaseline) {
    const vs = mi.vsBaseline;
    out.vsBaseline = Object.fromEntries(
      METRICS.map((k) => [k, { diff: vs[k].diff.mean === null ? null : num(vs[k].diff.mean), ci95: ci(vs[k].diff), verdict: vs[k].verdict }]),
    ) as JsonIntervalMethod['vsBaseline'];
  }
  return out;
}

/** The JSON report with `ci95` (and `vsBaseline`) beside each method's mean and each tool's metrics. */
export function withIntervals(json: JsonReport, intervals: EvalIntervals): JsonReportWithIntervals {
  const methods: JsonReportWithIntervals['methods'] = {};
  for (const [m, body] of Object.entries(json.methods)) {
    const mi = own(intervals.methods, m);
    if (!mi) {
      methods[m] = body as JsonReportWithIntervals['methods'][string];
      continue;
    }
    const tools: JsonReportWithIntervals['methods'][string]['tools'] = Object.create(null);
    for (const [t, metrics] of Object.entries(body.tools)) {
      const ti = own(mi.tools, t);
      tools[t] = ti ? { ...metrics, ci95: { mae: ci(ti.mae), rmse: ci(ti.rmse), pearson: ci(ti.pearson) } } : metrics;
    }
    methods[m] = { ...body, tools, ...jsonMethod(mi) };
  }
  const { baseline, resamples, seed, level } = intervals;
  return { ...json, methods, intervals: { method: 'paired bootstrap by task', resamples, seed, level, baseline } };
}

const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const range = (i: Interval) => (i.lo === null || i.hi === null ? '—' : `[${f3(i.lo)}, ${f3(i.hi)}]`);
const WORD: Record<Verdict, string> = { better: 'better', same: 'no clear diff.', worse: 'worse' };

/** The CLI's interval tables: each method's 95% intervals, then its differences to the baseline. */
export function formatIntervals(intervals: EvalIntervals, methods: readonly string[]): string {
  const head = ['method', 'MAE', 'RMSE', 'Pearson', 'pair acc', 'gap captured'];
  const rows = methods.map((m) => {
    const mi = own(intervals.methods, m);
    return [m, ...METRICS.map((k) => (mi ? range(mi.metrics[k]) : '—'))];
  });
  const diffRows = methods
    .filter((m) => m !== intervals.baseline)
    .map((m) => {
      const vs = own(intervals.methods, m)?.vsBaseline;
      return [m, ...METRICS.map((k) => (vs && vs[k].diff.mean !== null ? `${f3(vs[k].diff.mean)} ${range(vs[k].diff)} ${WORD[vs[k].verdict]}` : '—'))];
    });
  const note = `paired bootstrap by task, ${intervals.resamples.toLocaleString('en-US')} resamples (seed ${intervals.seed}), 95% percentile intervals`;
  return [
    `95% intervals — ${note}`,
    table(head, rows),
    '',
    `Difference to ${intervals.baseline} (method − ${intervals.baseline}, 95% interval; lower MAE / RMSE is better; "better" / "worse" when the ` +
      `interval excludes 0)`,
    table(head, diffRows),
  ].join('\n');
}
