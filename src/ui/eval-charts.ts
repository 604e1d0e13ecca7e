import type { ChartConfiguration, ChartTypeRegistry, TooltipItem } from 'chart.js';
import type { EvalResult } from '../app/evaluate/api';
import { fixed, toolEstimate } from './eval-summary';
import { methodStyles, PALETTE } from './palette';

export type MetricKey = 'mae' | 'rmse' | 'pearson';
const NAMES: Record<MetricKey, string> = { mae: 'MAE', rmse: 'RMSE', pearson: 'Pearson r' };

/**
 * What a click on a chart element opens: the first seed's test points of a method (some tools,
 * or one task). Datasets carry them in `picks`, parallel to `data` (ChartBox reads them).
 */
export interface PickTarget {
  method: string;
  tools?: string[];
  taskId?: string;
  label: string;
}

/** Data of one dataset with the extras ChartBox's plugins read. */
type Extras = { errorBars?: ([number, number] | null)[]; picks?: (PickTarget | null)[]; valueLabels?: (string | null)[] };

/** Suggested axis bounds around the values (10% padding), so differences between methods are visible. */
function zoom(values: readonly number[], clamp?: { min: number; max: number }): { suggestedMin?: number; suggestedMax?: number } {
  if (!values.length) return {};
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.1, 0.01);
  return { suggestedMin: clamp ? Math.max(clamp.min, lo - pad) : lo - pad, suggestedMax: clamp ? Math.min(clamp.max, hi + pad) : hi + pad };
}

/**
 * Metric per tool × method as dots with whiskers (the bootstrap interval, else ± sd over seeds):
 * dots, not bars, because the axis is zoomed to the data and a bar's length would then mislead.
 */
export function metricChart(r: EvalResult, metric: MetricKey): ChartConfiguration {
  const methods = Object.keys(r.toolSpread);
  const tools = Object.keys(r.toolSpread[methods[0]!] ?? {});
  const groups: (string | null)[] = [...tools, null];
  const labels = [...tools, 'mean over tools'];
  const width = 0.7 / Math.max(1, methods.length);
  const all: number[] = [];
  // The same colour and marker per method as the cost–quality plane (both take the run's method order).
  const styles = methodStyles(methods);
  const datasets = methods.map((m, j) => {
    const st = styles.get(m)!;
    const est = groups.map((t) => toolEstimate(r, m, t, metric));
    for (const e of est) for (const v of [e.value, e.lo, e.hi]) if (typeof v === 'number' && Number.isFinite(v)) all.push(v);
    const offset = (j - (methods.length - 1) / 2) * width;
    return {
      label: m,
      backgroundColor: st.color,
      borderColor: st.color,
      pointStyle: st.pointStyle,
      pointRotation: st.rotation,
      borderWidth: st.stroke,
      pointRadius: 4,
      pointHoverRadius: 6,
      data: est.map((e, i) => ({ x: i + offset, y: e.value })),
      errorBars: est.map((e) => (typeof e.lo === 'number' && typeof e.hi === 'number' ? ([e.lo, e.hi] as [number, number]) : null)),
      picks: groups.map((t) => ({ method: m, ...(t === null ? {} : { tools: [t] }), label: `${m} on ${t ?? 'all tools'}` })),
    } satisfies Extras & Record<string, unknown>;
  });
  return {
    type: 'scatter',
    data: { datasets } as ChartConfiguration['data'],
    options: {
      // A click or hover near a dot takes the nearest one (dots are small targets).
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        // boxHeight sets the markers' size in the legend: one size for all (a circle was drawn twice as large).
        legend: { position: 'bottom', labels: { usePointStyle: true, boxHeight: 8 } },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<keyof ChartTypeRegistry>) => {
              const bars = (item.dataset as Extras).errorBars?.[item.dataIndex];
              return `${item.dataset.label} · ${labels[item.dataIndex]}: ${fixed(item.parsed.y)}${bars ? ` (${fixed(bars[0])}–${fixed(bars[1])})` : ''}`;
            },
          },
        },
      },
      scales: {
        x: {
          type: 'linear',
          min: -0.5,
          max: groups.length - 0.5,
          grid: { display: false },
          // One tick per group, at its index (a linear axis would otherwise tick at -0.5, 0.5, …).
          afterBuildTicks: (axis) => {
            axis.ticks = groups.map((_, i) => ({ value: i }));
          },
          ticks: { autoSkip: false, maxRotation: 50, callback: (v) => labels[Number(v)] ?? '' },
        },
        y: { title: { display: true, text: NAMES[metric] }, beginAtZero: false, ...zoom(all, metric === 'pearson' ? { min: -1, max: 1 } : undefined) },
      },
    },
  };
}

/** The values of a whole-number scale of at most 11 points (1–5 → 1, 2, 3, 4, 5); null for other scales (chart.js picks). */
export function scaleTicks(scale: { min: number; max: number; integer: boolean }): number[] | null {
  if (!scale.integer || scale.max - scale.min > 10 || scale.max <= scale.min) return null;
  return Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
}

/** An axis whose ticks are exactly `values` (when given). */
function ticksAt(values: number[] | null): { afterBuildTicks?: (axis: { ticks: { value: number }[] }) => void } {
  return values
    ? {
        afterBuildTicks: (axis) => {
          axis.ticks = values.map((value) => ({ value }));
        },
      }
    : {};
}

/** Predicted vs true (first seed), true scores jittered so integer ratings do not overlap; a click opens the task. */
export function predTrueChart(r: EvalResult, method: string): ChartConfiguration {
  const pts = r.points[method] ?? [];
  // Deterministic jitter (a hash of the index), so the picture is the same every time.
  const jitter = (i: number) => (((i * 2654435761) % 1000) / 1000 - 0.5) * (r.scale.integer ? 0.5 : 0);
  const values = scaleTicks(r.scale);
  const pad = r.scale.integer ? 0.5 : 0;
  return {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: method,
          data: pts.map((p, i) => ({ x: p.actual + jitter(i), y: p.predicted })),
          picks: pts.map((p) =>
            p.taskId === undefined
              ? { method, tools: [p.toolId], label: `${method} on ${p.toolId}` }
              : { method, taskId: p.taskId, label: `${method} on one task` },
          ),
          backgroundColor: 'rgba(0, 114, 178, 0.35)',
          pointRadius: 2,
          pointHoverRadius: 5,
        },
        {
          type: 'line',
          label: 'perfect',
          data: [
            { x: r.scale.min, y: r.scale.min },
            { x: r.scale.max, y: r.scale.max },
          ],
          borderColor: '#999',
          borderDash: [4, 4],
          pointRadius: 0,
        },
      ],
    } as ChartConfiguration['data'],
    options: {
      interaction: { mode: 'nearest', intersect: false },
      plugins: { legend: { position: 'bottom' } },
      scales: {
        // On a small whole-number scale the ticks are its values (1, 2, 3, 4, 5), not chart.js's
        // round steps of the jitter margin ("0.5, 2, 4, 5.5", issue #38).
        x: { type: 'linear', min: r.scale.min - pad, max: r.scale.max + pad, title: { display: true, text: 'true score' }, ...ticksAt(values) },
        y: { min: r.scale.min, max: r.scale.max, title: { display: true, text: 'predicted score' }, ...ticksAt(values) },
      },
    },
  };
}

/**
 * Pair accuracy of one method per tool pair (horizontal bars), beside always-picking-the-stronger.
 * A pair the method ties on every task scores 0 (ties are wrong): it is still drawn (a minimum bar
 * length) and labelled "ties", so it does not vanish.
 */
export function pairChart(r: EvalResult, method: string): ChartConfiguration {
  const pairs = r.report.pairs[method] ?? [];
  // Two lines per pair ("A" over "– B"): long tool names fit a phone-wide chart.
  const labels = pairs.map((p) => [p.a, `– ${p.b}`]);
  const allTies = (p: (typeof pairs)[number]) => p.acc === 0 && !p.f1Less && !p.f1Greater;
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [
        {
          label: method,
          backgroundColor: PALETTE[0],
          data: pairs.map((p) => p.acc),
          minBarLength: 4,
          valueLabels: pairs.map((p) => (allTies(p) ? 'ties on every task' : null)),
          picks: pairs.map((p) => ({ method, tools: [p.a, p.b], label: `${method} on ${p.a} and ${p.b}` })),
        },
        { label: 'always the stronger', backgroundColor: '#adb5bd', data: r.report.baselines.alwaysStronger.map((p) => p.acc), minBarLength: 4 },
      ],
    } as ChartConfiguration['data'],
    options: {
      indexAxis: 'y',
      plugins: {
        legend: { position: 'bottom' },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<keyof ChartTypeRegistry>) => {
              const pair = item.datasetIndex === 0 ? pairs[item.dataIndex] : undefined;
              return `${item.dataset.label}: ${fixed(item.parsed.x)}${pair && allTies(pair) ? ' (predicts a tie on every task)' : ''}`;
            },
          },
        },
      },
      scales: {
        x: { min: 0, max: 1, title: { display: true, text: 'pair accuracy (ties wrong; 0.5 = guessing)' } },
        y: { ticks: { autoSkip: false, font: { size: 10 } } },
      },
    },
  };
}

/** Top-k ablation: MAE and pair accuracy as k grows, fixed k vs knee cut. */
export function topKChart(r: EvalResult): ChartConfiguration {
  const rows = r.ablation ?? [];
  const series = [...new Set(rows.map((x) => `${x.method} (${x.cut})`))];
  const maes = rows.map((x) => x.mae).filter((x) => Number.isFinite(x));
  return {
    type: 'line',
    data: {
      labels: [...new Set(rows.map((x) => x.k))].sort((a, b) => a - b),
      datasets: series.map((s, i) => ({
        label: `${s} MAE`,
        borderColor: PALETTE[i % PALETTE.length],
        backgroundColor: PALETTE[i % PALETTE.length],
        data: rows
          .filter((x) => `${x.method} (${x.cut})` === s)
          .sort((a, b) => a.k - b.k)
          .map((x) => x.mae),
        pointRadius: 2,
      })),
    } as ChartConfiguration['data'],
    options: {
      plugins: { legend: { position: 'bottom' } },
      scales: {
        x: { title: { display: true, text: 'k (entries / neighbours per prediction)' } },
        y: { title: { display: true, text: 'MAE (mean over seeds)' }, beginAtZero: false, ...zoom(maes) },
      },
    },
  };
}
