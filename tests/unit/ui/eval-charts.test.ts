import { describe, expect, it } from 'vitest';
import type { Scale } from 'chart.js';
import { metricChart, pairChart, predTrueChart, scaleTicks, type PickTarget } from '../../../src/ui/eval-charts';
import { intervals, iv, result } from './eval-result-fixture';

type Ds = { label: string; data: unknown[]; errorBars?: unknown[]; picks?: PickTarget[]; valueLabels?: (string | null)[]; minBarLength?: number };
const datasets = (c: ReturnType<typeof metricChart>) => c.data.datasets as unknown as Ds[];

describe('Evaluate charts', () => {
  it('metric dots: one group per tool and the mean, whiskers ± sd, axis zoomed to the data (not from 0)', () => {
    const c = metricChart(result(), 'mae');
    const [mean, knn] = datasets(c);
    expect(knn!.label).toBe('knn');
    expect(knn!.data.map((p) => (p as { y: number }).y)).toEqual([0.94, 0.96, 0.95]);
    expect(knn!.errorBars![2]).toEqual([expect.closeTo(0.9423, 9), expect.closeTo(0.9577, 9)]);
    expect(knn!.picks!.map((p) => p.label)).toEqual(['knn on A', 'knn on B', 'knn on all tools']);
    expect(knn!.picks![0]).toEqual({ method: 'knn', tools: ['A'], label: 'knn on A' });
    expect(mean!.data.length).toBe(3);
    const y = c.options!.scales!.y as { beginAtZero: boolean; suggestedMin: number; suggestedMax: number };
    expect(y.beginAtZero).toBe(false);
    // Values and whiskers span 0.93 … 1.046 (tool-mean on B: 1.016 + 0.03); 10% padding each side.
    expect(y.suggestedMin).toBeCloseTo(0.93 - 0.0116, 9);
    expect(y.suggestedMax).toBeCloseTo(1.046 + 0.0116, 9);
    // One tick per group, at its index.
    const axis = { ticks: [] as { value: number }[] };
    (c.options!.scales!.x as { afterBuildTicks: (a: Scale) => void }).afterBuildTicks(axis as unknown as Scale);
    expect(axis.ticks.map((t) => t.value)).toEqual([0, 1, 2]);
  });

  it('metric dots use the bootstrap interval when the run has one', () => {
    const r = result({ intervals: intervals({ diff: iv(-0.055, -0.07, -0.04), verdict: 'better' }) });
    const knn = datasets(metricChart(r, 'mae'))[1]!;
    expect(knn.errorBars![0]).toEqual([0.9, 0.98]);
    expect(knn.errorBars![2]).toEqual([0.937, 0.969]);
  });

  it('pair bars: a pair tied on every task is still drawn and labelled', () => {
    const r = result();
    r.report.pairs.knn = [{ a: 'A', b: 'B', nUnequal: 394.666667, acc: 0, f1Less: 0, f1Greater: 0 }];
    const [bars, always] = datasets(pairChart(r, 'knn'));
    expect(bars!.data).toEqual([0]);
    expect(bars!.minBarLength).toBeGreaterThan(0);
    expect(bars!.valueLabels).toEqual(['ties on every task']);
    expect(bars!.picks).toEqual([{ method: 'knn', tools: ['A', 'B'], label: 'knn on A and B' }]);
    expect(always!.data).toEqual([0.6]);
    expect(datasets(pairChart(result(), 'knn'))[0]!.valueLabels).toEqual([null]);
  });

  it('predicted-vs-true points open their task; runs without task ids open the tool', () => {
    const [pts] = datasets(predTrueChart(result(), 'knn'));
    expect(pts!.picks![3]).toEqual({ method: 'knn', taskId: 't2', label: 'knn on one task' });
    const old = result({ points: { knn: [{ toolId: 'A', predicted: 3, actual: 4 }] } });
    expect(datasets(predTrueChart(old, 'knn'))[0]!.picks).toEqual([{ method: 'knn', tools: ['A'], label: 'knn on A' }]);
  });

  it('predicted vs true on a 1–5 scale: ticks 1, 2, 3, 4, 5 on both axes (not "0.5, 2, 4, 5.5", issue #38)', () => {
    const c = predTrueChart(result({ scale: { min: 1, max: 5, integer: true } }), 'knn');
    for (const key of ['x', 'y'] as const) {
      const axis = { ticks: [] as { value: number }[] };
      (c.options!.scales![key] as { afterBuildTicks: (a: Scale) => void }).afterBuildTicks(axis as unknown as Scale);
      expect(axis.ticks.map((t) => t.value)).toEqual([1, 2, 3, 4, 5]);
    }
    expect((c.options!.scales!.x as { min: number; max: number }).min).toBe(0.5);
    expect(scaleTicks({ min: 0, max: 1, integer: false })).toBeNull();
    expect(scaleTicks({ min: 0, max: 100, integer: true })).toBeNull();
    expect(scaleTicks({ min: 0, max: 10, integer: true })).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
