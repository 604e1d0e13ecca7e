/**
 * The cost–quality plane (EvalResult.costPlane) as a chart.js scatter, its CSV rows and a one-line
 * reading of the frontier. Plain .ts: pure functions of the plane, unit-testable without a DOM.
 * Tiny costs (LLM calls at a few millionths of a dollar) are drawn per 1M calls, so the axis never
 * shows a run of zeros.
 */
import type { ChartConfiguration, ChartDataset, ChartTypeRegistry, TooltipItem } from 'chart.js';
import type { CsvValue } from '../core/export/csv-cell';
import type { CostQualityPlane, CostQualityPoint } from '../app/evaluate/api';
import { pairedDifference, type PairedDifference, type PlaneInput } from '../core/eval/cost-plane';
import { methodStyles, type MethodStyle } from './palette';

/** Grey for the reference marks (always one tool, random, the frontier): methods carry the colours. */
const REFERENCE = '#5a6370';

/** The oracle's star: black, or near-white on the dark theme (black would vanish on its background). */
function oracleColor(): string {
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? '#e6e9ee' : '#000000';
}

/** The axis unit: per call, or per 1M calls when every cost is below $0.001. */
export function costUnit(plane: CostQualityPlane): { factor: number; label: string } {
  const max = Math.max(0, ...plane.points.map((p) => p.cost));
  return max < 0.001 && max > 0 ? { factor: 1e6, label: 'mean cost per 1M tasks ($)' } : { factor: 1, label: 'mean cost per task ($)' };
}

const sig = (x: number, digits = 3) => String(Number(x.toPrecision(digits)));

/** "$0.012", "$84" (per 1M), for tooltips and the table. */
export function costText(plane: CostQualityPlane, cost: number): string {
  const { factor } = costUnit(plane);
  return factor === 1 ? `$${sig(cost)}` : `$${sig(cost * factor)} per 1M`;
}

/** A point's name as a person reads it: "always DALLE_3", "knn at λ 14.3", "random", "oracle". */
export function pointName(p: CostQualityPoint): string {
  if (p.kind === 'always') return `always ${p.label}`;
  if (p.kind === 'method') return `${p.label} at λ ${sig(p.lambda ?? 0)}`;
  return p.label;
}

/** The frontier, cheapest first; of points at the same place, the first listed stands for them. */
export function frontierOf(plane: CostQualityPlane): CostQualityPoint[] {
  const s = plane.direction === 'lower-better' ? -1 : 1;
  const sorted = plane.points.filter((p) => p.frontier).sort((a, b) => a.cost - b.cost || s * (a.quality - b.quality));
  return sorted.filter((p, i) => i === 0 || p.cost !== sorted[i - 1]!.cost || p.quality !== sorted[i - 1]!.quality);
}

/** The first seed's predictions of a run (EvalResult.points), which the plane was drawn from. */
export type PlanePredictions = PlaneInput['points'];

/**
 * The best single tool of the plane and the best selector point that costs no more, with the
 * task-by-task difference of their true scores when the run's predictions are at hand (the plane
 * holds means only). The Evaluate page's verdict and the plane's sentence both say this one thing.
 */
export interface PlaneMatch {
  best: CostQualityPoint;
  within: CostQualityPoint;
  /** Selector minus tool on the plane's tasks, in score points (positive = better); null without predictions. */
  diff: PairedDifference | null;
  /** The difference's verdict: its 95% interval above 0, below 0, or across it. */
  verdict: 'better' | 'worse' | 'same' | null;
}

export function planeMatch(plane: CostQualityPlane, predictions?: PlanePredictions): PlaneMatch | null {
  const s = plane.direction === 'lower-better' ? -1 : 1;
  const best = plane.points.filter((p) => p.kind === 'always').sort((a, b) => s * (b.quality - a.quality) || a.cost - b.cost)[0];
  const within = best
    ? plane.points.filter((p) => p.kind === 'method' && p.cost <= best.cost).sort((a, b) => s * (b.quality - a.quality) || a.cost - b.cost)[0]
    : undefined;
  if (!best || !within) return null;
  const costs = new Map(Object.entries(plane.costs).map(([t, c]) => [t, c.cost]));
  const input = predictions ? { points: predictions, costs, scaleSpan: 1, ...(plane.direction ? { direction: plane.direction } : {}) } : null;
  const diff = input ? pairedDifference(input, within.label, within.lambda ?? 0, best.label) : null;
  const verdict = !diff ? null : diff.lo > 0 ? 'better' : diff.hi < 0 ? 'worse' : 'same';
  return { best, within, diff, verdict };
}

/** "0.039 higher (95% interval −0.012 to 0.090, 800 tasks of one seed: not a clear difference)". */
export function matchDifferenceText(plane: CostQualityPlane, m: PlaneMatch): string {
  const s = plane.direction === 'lower-better' ? -1 : 1;
  const d = m.diff ? m.diff.mean : s * (m.within.quality - m.best.quality);
  const word = (x: number) => (s * x > 0 ? 'higher' : 'lower');
  const by = Math.abs(d) < 5e-4 ? 'the same score' : `${sig(Math.abs(d), 2)} ${word(d)}`;
  if (!m.diff) return `${by} (one seed's tasks, no interval)`;
  const ci = `95% interval ${signedSig(m.diff.lo)} to ${signedSig(m.diff.hi)} over ${m.diff.tasks.toLocaleString('en-US')} tasks of one seed`;
  // The point is the best of the plane's selector points within the cost: a clear gain is said with that caveat.
  const of = plane.points.filter((p) => p.kind === 'method' && p.cost <= m.best.cost).length;
  const said =
    m.verdict === 'better' ? `clearly better, though the best of ${of} selector points` : m.verdict === 'worse' ? 'clearly worse' : 'not a clear difference';
  return `${by} (${ci}: ${said})`;
}

const signedSig = (x: number) => (x < 0 ? `−${sig(-x, 2)}` : sig(x, 2));

/**
 * The plane in three sentences (the chart's text alternative): the frontier's ends, what a
 * selector reaches for no more than the best single tool costs (with the interval of the
 * difference when the run's predictions are given), and the oracle.
 */
export function planeSummary(plane: CostQualityPlane, predictions?: PlanePredictions): string[] {
  const at = (p: CostQualityPoint) => `${pointName(p)} (${costText(plane, p.cost)}, score ${sig(p.quality)})`;
  const out: string[] = [];
  const frontier = frontierOf(plane);
  if (frontier.length) {
    out.push(
      frontier.length === 1
        ? `The frontier is one point: ${at(frontier[0]!)}.`
        : `The frontier has ${frontier.length} points, from ${at(frontier[0]!)} to ${at(frontier.at(-1)!)}.`,
    );
  }
  const m = planeMatch(plane, predictions);
  if (m) out.push(`The best single tool is ${at(m.best)}; for no more, the best selector is ${at(m.within)}: ${matchDifferenceText(plane, m)}.`);
  const oracle = plane.points.find((p) => p.kind === 'oracle');
  if (oracle)
    out.push(`The oracle (the best true score on every task, out of a predictor's reach) scores ${sig(oracle.quality)} at ${costText(plane, oracle.cost)}.`);
  return out;
}

/**
 * The plane as a chart.js scatter. Every method has its own Okabe–Ito colour and marker (the same
 * as in the run's metric chart when `order` is the run's method list); the references are grey
 * (always one tool: squares, random: a triangle) and the oracle a black star. Names live in the
 * legend (marker and colour) and the tooltip, never beside the points, so no label can cover another.
 */
export function costPlaneChart(plane: CostQualityPlane, order: readonly string[] = []): ChartConfiguration {
  const { factor, label } = costUnit(plane);
  const xy = (p: CostQualityPoint) => ({ x: p.cost * factor, y: p.quality });
  const found = [...new Set(plane.points.filter((p) => p.kind === 'method').map((p) => p.label))];
  const runOrder = [...order, ...found];
  const styles = methodStyles(runOrder);
  // In the run's order, so the legend lists the methods as the metric chart and the leaderboard's form do.
  const methods = found.sort((a, b) => runOrder.indexOf(a) - runOrder.indexOf(b));
  const of = (kind: CostQualityPoint['kind']) => plane.points.filter((p) => p.kind === kind);
  // `names` (one per point, for the tooltip) rides along with each dataset; the tooltip finds them
  // by dataset index in this closure, so chart.js's types need no extra field.
  const set = (name: string, pts: CostQualityPoint[], extra: Partial<ChartDataset<'scatter'>>): ChartDataset<'scatter'> & { names: string[] } => ({
    ...extra,
    label: name,
    data: pts.map(xy),
    names: pts.map(pointName),
  });
  const frontier = frontierOf(plane);
  const datasets = [
    set('frontier', frontier, {
      showLine: true,
      stepped: 'after',
      borderColor: REFERENCE,
      borderDash: [5, 4],
      borderWidth: 1.5,
      pointRadius: 0,
      pointHoverRadius: 0,
      pointStyle: 'line',
      order: 3,
    }),
    set('always one tool', of('always'), { pointStyle: 'rect', pointRadius: 6, backgroundColor: 'rgba(90, 99, 112, 0.45)', borderColor: REFERENCE, order: 1 }),
    ...methods.map((m) => {
      const points = of('method')
        .filter((p) => p.label === m)
        .sort((a, b) => (a.lambda ?? 0) - (b.lambda ?? 0));
      return set(m, points, methodLine(styles.get(m)!));
    }),
    set('random', of('random'), { pointStyle: 'triangle', pointRadius: 7, backgroundColor: 'rgba(90, 99, 112, 0.45)', borderColor: REFERENCE, order: 1 }),
    set('oracle (best true score; a bound)', of('oracle'), {
      pointStyle: 'star',
      pointRadius: 9,
      pointBorderWidth: 2,
      borderColor: oracleColor(),
      backgroundColor: oracleColor(),
      order: 1,
    }),
  ];
  return { type: 'scatter', data: { datasets } as ChartConfiguration['data'], options: planeOptions(plane, datasets, factor, label) };
}

/** A method's line: a little transparent, its markers not, so where lines run together the markers still tell them apart. */
function methodLine(st: MethodStyle): Partial<ChartDataset<'scatter'>> {
  return {
    showLine: true,
    borderColor: `${st.color}cc`,
    borderWidth: 1.5,
    order: 2,
    pointStyle: st.pointStyle,
    pointRotation: st.rotation,
    pointRadius: 5,
    pointHoverRadius: 7,
    pointBackgroundColor: st.color,
    pointBorderColor: st.color,
    pointBorderWidth: st.stroke,
    backgroundColor: st.color,
  };
}

/** Legend, axes in the plane's cost unit, and a tooltip naming the point (`names` rides along with each dataset). */
function planeOptions(plane: CostQualityPlane, datasets: readonly { names: string[] }[], factor: number, label: string): ChartConfiguration['options'] {
  return {
    plugins: {
      legend: { position: 'bottom', labels: { usePointStyle: true, boxHeight: 8 } },
      tooltip: {
        callbacks: {
          label: (item: TooltipItem<keyof ChartTypeRegistry>) => {
            const names = datasets[item.datasetIndex]?.names;
            return (
              `${names?.[item.dataIndex] ?? item.dataset.label}: ${factor === 1 ? `$${sig(item.parsed.x ?? 0)}` : `$${sig(item.parsed.x ?? 0)} per 1M`}, ` +
              `score ${sig(item.parsed.y ?? 0)}`
            );
          },
        },
      },
    },
    scales: {
      x: { type: 'linear', title: { display: true, text: label }, ticks: { callback: (v) => `$${sig(Number(v))}` } },
      y: { title: { display: true, text: plane.direction === 'lower-better' ? 'mean true score (lower is better)' : 'mean true score' } },
    },
  };
}

/** The plane as CSV rows (header first), for core/export/csv-cell toCsv. */
export function costPlaneCsvRows(plane: CostQualityPlane): CsvValue[][] {
  return [
    ['kind', 'label', 'lambda', 'mean_cost_usd', 'mean_score', 'frontier'],
    ...plane.points.map((p) => [p.kind, p.label, p.lambda ?? '', p.cost, p.quality, p.frontier ? 'yes' : 'no']),
  ];
}
