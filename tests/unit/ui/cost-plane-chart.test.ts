import { describe, expect, it } from 'vitest';
import { costPlaneChart, costPlaneCsvRows, costText, costUnit, frontierOf, planeSummary, pointName } from '../../../src/ui/cost-plane-chart';
import { HAND_PLANE_POINTS } from '../helpers/cost-plane-case';
import type { CostQualityPlane } from '../../../src/app/evaluate/api';

// The hand-made case of tests/unit/eval/cost-plane.test.ts.
const plane: CostQualityPlane = {
  costs: { A: { cost: 1, source: 'card' }, B: { cost: 3, source: 'data', n: 2 } },
  tasks: 2,
  points: HAND_PLANE_POINTS,
};

describe('cost-plane chart helpers', () => {
  it('the frontier cheapest first, one point per place', () => {
    expect(frontierOf(plane).map(pointName)).toEqual(['always A', 'm at λ 0']);
  });

  it('reads the plane in sentences', () => {
    expect(planeSummary(plane)).toEqual([
      'The frontier has 2 points, from always A ($1, score 2.5) to m at λ 0 ($2, score 3.5).',
      "The best single tool is always B ($3, score 3.5); for no more, the best selector is m at λ 0 ($2, score 3.5): the same score (one seed's tasks, no interval).",
      "The oracle (the best true score on every task, out of a predictor's reach) scores 3.5 at $2.",
    ]);
  });

  it('a selector better than the best single tool for no more: the difference as a number', () => {
    const better: CostQualityPlane = { ...plane, points: plane.points.map((p) => (p.kind === 'method' && p.lambda === 0 ? { ...p, quality: 3.6 } : p)) };
    expect(planeSummary(better)[1]).toBe(
      "The best single tool is always B ($3, score 3.5); for no more, the best selector is m at λ 0 ($2, score 3.6): 0.1 higher (one seed's tasks, no interval).",
    );
  });

  it('tiny costs are shown per 1M', () => {
    const tiny: CostQualityPlane = { ...plane, points: plane.points.map((p) => ({ ...p, cost: p.cost * 1e-6 })) };
    expect(costUnit(tiny)).toEqual({ factor: 1e6, label: 'mean cost per 1M tasks ($)' });
    expect(costText(tiny, 0.000084)).toBe('$84 per 1M');
    expect(costText(plane, 0.0123456)).toBe('$0.0123');
  });

  it('CSV rows: a header, then every point', () => {
    const rows = costPlaneCsvRows(plane);
    expect(rows[0]).toEqual(['kind', 'label', 'lambda', 'mean_cost_usd', 'mean_score', 'frontier']);
    expect(rows[4]).toEqual(['method', 'm', 0, 2, 3.5, 'yes']);
    expect(rows).toHaveLength(7);
  });

  it('the chart: a colour and a marker of its own per method, grey references, a black star for the oracle', () => {
    const six = ['tool-mean', 'tool-median', 'knn', 'knn-difficulty', 'ensemble', 'memory'];
    const many: CostQualityPlane = {
      ...plane,
      points: [
        ...plane.points.filter((p) => p.kind !== 'method'),
        ...six.map((m, i) => ({ kind: 'method' as const, label: m, lambda: 0, cost: 1 + i / 10, quality: 3, frontier: false })),
      ],
    };
    const sets = costPlaneChart(many, six).data.datasets as unknown as Record<string, unknown>[];
    const style = (label: string) => {
      const d = sets.find((x) => x.label === label)!;
      return [d.pointBackgroundColor ?? d.backgroundColor, d.pointStyle, d.pointRotation ?? 0];
    };
    expect(six.map(style)).toEqual([
      ['#0072B2', 'circle', 0],
      ['#E69F00', 'rectRot', 0],
      ['#009E73', 'triangle', 180],
      ['#CC79A7', 'crossRot', 0],
      ['#56B4E9', 'rectRounded', 0],
      ['#D55E00', 'cross', 0],
    ]);
    // Issue #28: the oracle was vermillion beside an orange tool-median; now no method shares its colour or marker.
    expect(style('oracle (best true score; a bound)')).toEqual(['#000000', 'star', 0]);
    expect(style('random')).toEqual(['rgba(90, 99, 112, 0.45)', 'triangle', 0]);
    expect(style('always one tool')).toEqual(['rgba(90, 99, 112, 0.45)', 'rect', 0]);
    // The legend draws each entry's marker in its colour; names are never drawn beside the points.
    const legend = (costPlaneChart(many, six).options as { plugins: { legend: { labels: { usePointStyle: boolean } } } }).plugins.legend;
    expect(legend.labels.usePointStyle).toBe(true);
  });

  it('a method keeps its style by its place in the run, whatever the plane lists first', () => {
    const sets = costPlaneChart(plane, ['a', 'b', 'm']).data.datasets as unknown as Record<string, unknown>[];
    const m = sets.find((x) => x.label === 'm')!;
    expect([m.pointBackgroundColor, m.pointStyle]).toEqual(['#009E73', 'triangle']);
  });
});
