import type { ChartConfiguration } from 'chart.js';
import type { EvalResult } from '../services/eval-api';
import { PALETTE } from './palette';

export type MetricKey = 'mae' | 'rmse' | 'pearson';
const NAMES: Record<MetricKey, string> = { mae: 'MAE', rmse: 'RMSE', pearson: 'Pearson r' };

/** Metric per tool × method (mean over seeds) with ± sd whiskers. */
export function metricChart(r: EvalResult, metric: MetricKey): ChartConfiguration {
  const methods = Object.keys(r.toolSpread);
  const tools = Object.keys(r.toolSpread[methods[0]!] ?? {});
  return {
    type: 'bar',
    data: {
      labels: [...tools, 'mean'],
      datasets: methods.map((m, i) => ({
        label: m,
        backgroundColor: PALETTE[i % PALETTE.length],
        data: [...tools.map((t) => r.toolSpread[m]![t]![metric][0]), r.spread[m]![metric]],
        errorBars: [...tools.map((t) => r.toolSpread[m]![t]![metric][1]), r.spread[m]![`${metric}Sd` as 'maeSd']],
      })),
    } as ChartConfiguration['data'],
    options: { plugins: { legend: { position: 'bottom' } }, scales: { y: { title: { display: true, text: NAMES[metric] }, beginAtZero: metric !== 'pearson' } } },
  };
}

/** Predicted vs true (first seed), true scores jittered so integer ratings do not overlap. */
export function predTrueChart(r: EvalResult, method: string): ChartConfiguration {
  const pts = r.points[method] ?? [];
  // Deterministic jitter (a hash of the index), so the picture is the same every time.
  const jitter = (i: number) => (((i * 2654435761) % 1000) / 1000 - 0.5) * (r.scale.integer ? 0.5 : 0);
  return {
    type: 'scatter',
    data: {
      datasets: [
        { label: method, data: pts.map((p, i) => ({ x: p.actual + jitter(i), y: p.predicted })), backgroundColor: 'rgba(0, 114, 178, 0.35)', pointRadius: 2 },
        { type: 'line', label: 'perfect', data: [{ x: r.scale.min, y: r.scale.min }, { x: r.scale.max, y: r.scale.max }], borderColor: '#999', borderDash: [4, 4], pointRadius: 0 },
      ],
    } as ChartConfiguration['data'],
    options: {
      plugins: { legend: { position: 'bottom' } },
      scales: {
        x: { type: 'linear', min: r.scale.min - 0.5, max: r.scale.max + 0.5, title: { display: true, text: 'true score' } },
        y: { min: r.scale.min, max: r.scale.max, title: { display: true, text: 'predicted score' } },
      },
    },
  };
}

/** Pair accuracy per pair × method, with the always-stronger baseline drawn as a line. */
export function pairChart(r: EvalResult): ChartConfiguration {
  const methods = Object.keys(r.report.pairs);
  const pairs = r.report.baselines.alwaysStronger.map((p) => `${p.a} – ${p.b}`);
  return {
    type: 'bar',
    data: {
      labels: pairs,
      datasets: [
        ...methods.map((m, i) => ({ type: 'bar' as const, label: m, backgroundColor: PALETTE[i % PALETTE.length], data: r.report.pairs[m]!.map((p) => p.acc) })),
        { type: 'line' as const, label: 'always stronger', data: r.report.baselines.alwaysStronger.map((p) => p.acc), borderColor: '#c92a2a', backgroundColor: '#c92a2a', borderDash: [6, 4], pointRadius: 3 },
        { type: 'line' as const, label: 'random (0.5)', data: pairs.map(() => 0.5), borderColor: '#999', borderDash: [2, 4], pointRadius: 0 },
      ],
    } as ChartConfiguration['data'],
    options: { plugins: { legend: { position: 'bottom' } }, scales: { y: { min: 0, max: 1, title: { display: true, text: 'pair accuracy (ties wrong)' } }, x: { ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 } } } },
  };
}

/** Top-k ablation: MAE and pair accuracy as k grows, fixed k vs knee cut. */
export function topKChart(r: EvalResult): ChartConfiguration {
  const rows = r.ablation ?? [];
  const series = [...new Set(rows.map((x) => `${x.method} (${x.cut})`))];
  return {
    type: 'line',
    data: {
      labels: [...new Set(rows.map((x) => x.k))].sort((a, b) => a - b),
      datasets: series.map((s, i) => ({
        label: `${s} MAE`,
        borderColor: PALETTE[i % PALETTE.length],
        backgroundColor: PALETTE[i % PALETTE.length],
        data: rows.filter((x) => `${x.method} (${x.cut})` === s).sort((a, b) => a.k - b.k).map((x) => x.mae),
        pointRadius: 2,
      })),
    } as ChartConfiguration['data'],
    options: { plugins: { legend: { position: 'bottom' } }, scales: { x: { title: { display: true, text: 'k (entries / neighbours per prediction)' } }, y: { title: { display: true, text: 'MAE (mean over seeds)' } } } },
  };
}
