import { describe, expect, it } from 'vitest';
import {
  bounds,
  count,
  drillRows,
  fixed,
  hasTaskIds,
  leaderboard,
  rowsMae,
  signed,
  sortRows,
  strongestTool,
  summaryCsvRows,
  toolEstimate,
  verdictLine,
} from '../../../src/ui/eval-summary';
import { planeSummary } from '../../../src/ui/cost-plane-chart';
import { costQualityPlane } from '../../../src/core/eval/cost-plane';
import { intervals, iv, result } from './eval-result-fixture';

describe('number formatting', () => {
  it('shows counts as whole numbers and metrics with three decimals and a true minus sign', () => {
    expect(count(394.666667)).toBe('395');
    expect(count(800)).toBe('800');
    expect(count(29398)).toBe('29,398');
    expect(count(null)).toBe('—');
    expect(fixed(0.8929222)).toBe('0.893');
    expect(fixed(-0.115)).toBe('−0.115');
    expect(fixed(-0.0001)).toBe('0.000');
    expect(fixed(NaN)).toBe('—');
    expect(signed(0.01)).toBe('+0.010');
    expect(signed(-0.058)).toBe('−0.058');
    expect(signed(0)).toBe('0.000');
    expect(bounds(0.59, 0.634)).toBe('[0.590, 0.634]');
    expect(bounds(null, 0.6)).toBe('');
  });
});

describe('leaderboard without intervals (runs made before them)', () => {
  const board = leaderboard(result(), 3);

  it('sorts by MAE and shows mean ± sd over seeds, and the difference to tool-mean without a verdict', () => {
    expect(board.baseline).toBe('tool-mean');
    expect(board.intervals).toBe(false);
    expect(board.rows.map((r) => r.method)).toEqual(['knn', 'tool-mean']);
    const [knn, mean] = board.rows;
    expect(knn!.cells.mae).toEqual({ value: 0.95, text: '0.950', spread: '± 0.008', best: true });
    expect(knn!.cells.pearson.spread).toBe('± 0.025');
    // Pair accuracy: the mean over the method's pairs; gap captured: the report's value.
    expect(knn!.cells.pairAcc).toMatchObject({ value: 0.7, text: '0.700', spread: '', best: true });
    expect(mean!.cells.gapCaptured).toMatchObject({ text: '0.460', best: true });
    expect(knn!.cells.gapCaptured.best).toBe(false);
    expect(mean!.cells.pearson).toMatchObject({ value: null, text: '—', spread: '', best: false });
    // 0.95 − 1.008
    expect(knn!.diff).toEqual({ value: expect.closeTo(-0.058, 9), text: '−0.058', spread: '' });
    expect(mean!.diff).toBeNull();
  });

  it('gives no spread for one seed, and marks every method tied at the shown precision', () => {
    const r = result();
    r.spread.knn!.rmse = 1.1851;
    const one = leaderboard(r, 1);
    expect(one.rows[0]!.cells.mae.spread).toBe('');
    expect(one.rows.map((x) => x.cells.rmse.best)).toEqual([true, true]);
  });

  it('says which method predicts best, from means, and that no method picks tools better than always choosing A', () => {
    expect(verdictLine(result(), board)).toBe(
      'knn predicts best (MAE 0.950, 0.058 better than the tool mean, means over 3 seeds, no intervals in this run); no method picks tools better than always choosing A.',
    );
  });

  it('names the better picker when one beats always choosing the strongest tool', () => {
    const r = result({ selection: { 'tool-mean': 3.79, knn: 3.851 } });
    expect(verdictLine(r, leaderboard(r, 3))).toMatch(/; knn picks tools better than always choosing A \(mean true score 3\.85 vs 3\.79\)\.$/);
  });
});

describe('leaderboard with paired-bootstrap intervals', () => {
  it('shows each value with its 95% interval and the verdict of the difference', () => {
    const r = result({ intervals: intervals({ diff: iv(-0.055, -0.07, -0.04), verdict: 'better' }) });
    const board = leaderboard(r, 3);
    const knn = board.rows[0]!;
    expect(knn.cells.mae).toEqual({ value: 0.953, text: '0.953', spread: '[0.937, 0.969]', best: true });
    expect(knn.cells.pairAcc.spread).toBe('[0.600, 0.700]');
    expect(knn.diff).toEqual({ value: -0.055, text: '−0.055', spread: '[−0.070, −0.040]', verdict: 'better' });
    expect(verdictLine(r, board)).toBe(
      'knn predicts best (MAE 0.953, 0.055 better than the tool mean, clearly better); no method picks tools better than always choosing A.',
    );
  });

  it('says "not a clear difference" when the interval of the difference holds 0, and qualifies a picker that is not clearly better', () => {
    const r = result({ intervals: intervals({ diff: iv(-0.01, -0.03, 0.01), verdict: 'same' }), selection: { 'tool-mean': 3.79, knn: 3.8 } });
    expect(verdictLine(r, leaderboard(r, 3))).toBe(
      'knn predicts best (MAE 0.953, 0.010 better than the tool mean, not a clear difference); knn picks tools slightly better than always choosing A (mean true score 3.80 vs 3.79), not clearly.',
    );
  });

  it('writes the exact values and the intervals into the summary CSV', () => {
    const r = result({ intervals: intervals({ diff: iv(-0.055, -0.07, -0.04), verdict: 'better' }) });
    const rows = summaryCsvRows(r, 3);
    expect(rows[0]!.slice(0, 10)).toEqual([
      'method',
      'mae',
      'mae_sd',
      'rmse',
      'rmse_sd',
      'pearson',
      'pearson_sd',
      'pair_acc',
      'oracle_gap_captured',
      'mae_minus_tool-mean',
    ]);
    expect(rows[0]!.slice(-3)).toEqual(['mae_diff_lo', 'mae_diff_hi', 'mae_verdict']);
    expect(rows[1]!.slice(0, 2)).toEqual(['knn', 0.95]);
    expect(rows[1]!.slice(-3)).toEqual([-0.07, -0.04, 'better']);
    expect(rows[2]!.slice(-3)).toEqual([null, null, null]);
  });
});

describe('chart estimates', () => {
  it('uses the per-tool interval when present, else mean ± sd over seeds; never an inherited key', () => {
    const r = result();
    expect(toolEstimate(r, 'knn', 'A', 'mae')).toEqual({ value: 0.94, lo: expect.closeTo(0.93, 9), hi: expect.closeTo(0.95, 9) });
    expect(toolEstimate(r, 'knn', null, 'mae')).toEqual({ value: 0.95, lo: 0.95 - 0.0077, hi: 0.95 + 0.0077 });
    expect(toolEstimate(r, 'knn', 'toString', 'mae')).toEqual({ value: null, lo: null, hi: null });
    const withIv = result({ intervals: intervals({ diff: iv(-0.055, -0.07, -0.04), verdict: 'better' }) });
    expect(toolEstimate(withIv, 'knn', 'A', 'mae')).toEqual({ value: 0.94, lo: 0.9, hi: 0.98 });
  });
});

describe('the tasks behind a number', () => {
  it('lists the first seed points of a method, filtered by tool or task, sorted by the size of the error', () => {
    const r = result();
    const rows = drillRows(r, 'knn');
    expect(rows).toHaveLength(4);
    expect(rowsMae(rows)).toBeCloseTo((0.5 + 0 + 1 + 1.2) / 4, 9);
    expect(sortRows(rows, 'error', true).map((x) => [x.taskId, x.toolId, x.error])).toEqual([
      ['t2', 'B', expect.closeTo(1.2, 9)],
      ['t2', 'A', -1],
      ['t1', 'A', -0.5],
      ['t1', 'B', 0],
    ]);
    expect(sortRows(rows, 'actual', false).map((x) => x.actual)).toEqual([1, 3, 4, 5]);
    expect(drillRows(r, 'knn', { tools: ['A'] }).map((x) => x.taskId)).toEqual(['t1', 't2']);
    expect(drillRows(r, 'knn', { taskId: 't2' }).map((x) => x.toolId)).toEqual(['A', 'B']);
    expect(drillRows(r, 'ridge')).toEqual([]);
  });

  it('knows the strongest tool from tool-mean, and whether a run kept task ids', () => {
    expect(strongestTool(result())).toBe('A');
    expect(hasTaskIds(result())).toBe(true);
    const old = result({ points: { knn: [{ toolId: 'A', predicted: 3, actual: 4 }] } });
    expect(hasTaskIds(old)).toBe(false);
    expect(strongestTool(old)).toBeNull();
    expect(verdictLine(old, leaderboard(old, 3))).toMatch(/always choosing the tool with the best training mean\.$/);
  });
});

describe('one verdict with the cost–quality plane (issue #38)', () => {
  // A costs $0.04, B $0.002. knn: t1 A 4 over B 3.9 (both truly 5), t2 A 4 over B 1 (truly 4 and 1).
  // At λ 0 it picks A twice (4.5, $0.04); from fraction 0.05 (λ = 0.05 × 4 / 0.038 = 5.26) it takes
  // the cheaper B on t1, where both score 5: the same 4.5 for $0.021.
  const knn = [
    { taskId: 't1', toolId: 'A', predicted: 4, actual: 5 },
    { taskId: 't1', toolId: 'B', predicted: 3.9, actual: 5 },
    { taskId: 't2', toolId: 'A', predicted: 4, actual: 4 },
    { taskId: 't2', toolId: 'B', predicted: 1, actual: 1 },
  ];
  const tm = knn.map((p) => ({ ...p, predicted: p.toolId === 'A' ? 3.9 : 3.4 }));
  const points = { 'tool-mean': tm, knn };
  const plane = costQualityPlane({
    points,
    costs: new Map([
      ['A', 0.04],
      ['B', 0.002],
    ]),
    scaleSpan: 4,
  })!;
  const costPlane = {
    costs: { A: { cost: 0.04, source: 'card' as const }, B: { cost: 0.002, source: 'card' as const } },
    points: plane.points,
    tasks: plane.tasks,
  };

  it('the headline and the plane say the same: as good as the best tool for less, not a clear difference', () => {
    const r = result({ points, costPlane });
    expect(verdictLine(r, leaderboard(r, 3))).toBe(
      'knn predicts best (MAE 0.950, 0.058 better than the tool mean, means over 3 seeds, no intervals in this run); no method picks tools clearly better than always choosing A; ' +
        'counting cost, knn at λ 5.26 matches always choosing A for less ($0.021 vs $0.04 per task): the same score (95% interval 0 to 0 over 2 tasks of one seed: not a clear difference).',
    );
    expect(planeSummary(costPlane, points)[1]).toBe(
      'The best single tool is always A ($0.04, score 4.5); for no more, the best selector is knn at λ 5.26 ($0.021, score 4.5): the same score (95% interval 0 to 0 over 2 tasks of one seed: not a clear difference).',
    );
  });

  it('a plane with no cheaper point as good keeps the plain sentence', () => {
    const r = result();
    const flat = costQualityPlane({
      points: r.points,
      costs: new Map([
        ['A', 0.04],
        ['B', 0.002],
      ]),
      scaleSpan: 4,
    })!;
    const withPlane = result({ costPlane: { costs: costPlane.costs, points: flat.points, tasks: flat.tasks } });
    expect(verdictLine(withPlane, leaderboard(withPlane, 3))).toMatch(/; no method picks tools better than always choosing A\.$/);
  });
});
