import { describe, expect, it } from 'vitest';
import { isUncertain, pickMargin, pickShare } from '../../../src/core/predict/pick-share';
import type { ResidualBank } from '../../../src/core/predict/residuals';
import { TaskSimilarity } from '../../../src/core/predict/similarity';
import type { ScoreScale } from '../../../src/core/types';

const scale: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: false };

/** A bank of held-out residuals, task × tool (NaN: the tool has no score on that task). */
function bank(tools: string[], rows: number[][]): ResidualBank {
  const tasks = rows.map((_, i) => ({ taskId: `t${i}`, prompt: `task ${i}` }));
  return {
    tasks,
    tools,
    residuals: Float64Array.from(rows.flat()),
    folds: 5,
    maxTrain: 400,
    allTasks: rows.length,
    similarity: new TaskSimilarity({ kind: 'tfidf' }),
  };
}
const tool = (toolId: string, score: number, utility = score) => ({ toolId, score, utility });

describe('pickShare: how often the pick beats the runner-up on similar held-out tasks', () => {
  it('pairs the two tools per task and counts over the most similar ones', () => {
    // Residuals A, B per task; similarity 0.9, 0.8, 0.1, 0.7, 0.02. k 3 → tasks 0, 1, 3 (task 4: B has no residual; 2 is less similar).
    const b = bank(
      ['A', 'B'],
      [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0.5, -1],
        [2, Number.NaN],
      ],
    );
    const sims = Float64Array.from([0.9, 0.8, 0.1, 0.7, 0.02]);
    // Outcomes (A 3 + r, B 2.5 + r): task 0 4 vs 2.5 win; task 1 2 vs 2.5 loss; task 3 3.5 vs 1.5 win → 2 of 3.
    const s = pickShare(b, sims, tool('A', 3), tool('B', 2.5), 1, scale, { k: 3, minSimilar: 2 })!;
    expect(s).toEqual({ share: 2 / 3, n: 3, source: 'similar', paired: true });
    // Fewer similar tasks than asked for: all four shared tasks (task 2: 3 vs 3.5, a loss) → 2 of 4.
    expect(pickShare(b, sims, tool('A', 3), tool('B', 2.5), 1, scale, { k: 3, minSimilar: 4 })).toEqual({ share: 0.5, n: 4, source: 'overall', paired: true });
  });

  it('clamps outcomes to the scale (a tie at the top counts half), and follows the direction and the cost term', () => {
    const b = bank(
      ['A', 'B'],
      [
        [1, 0.5],
        [-1, -0.5],
      ],
    );
    const sims = Float64Array.from([0, 0]);
    // Task 0: A 4.5 + 1 → 5, B 4.8 + 0.5 → 5: a tie (½). Task 1: 3.5 vs 4.3: loss → ½ of 2.
    expect(pickShare(b, sims, tool('A', 4.5), tool('B', 4.8), 1, scale)!.share).toBe(0.25);
    // Lower is better: A 2, B 3. Task 0: 3 vs 3.5 → A lower, a win; task 1: 1 vs 2.5 → a win.
    expect(pickShare(b, sims, tool('A', 2, -2), tool('B', 3, -3), -1, scale)!.share).toBe(1);
    // Costs: A scores 4 but pays 1.5 (utility 2.5), B 3 (utility 3) … the outcomes shift by the same term:
    // task 0: 5 − 1.5 = 3.5 vs 3.5 → tie; task 1: 3 − 1.5 = 1.5 vs 2.5 → loss.
    expect(pickShare(b, sims, tool('A', 4, 2.5), tool('B', 3), 1, scale)!.share).toBe(0.25);
  });

  it("without a shared task, counts every combination of the two tools' errors", () => {
    const b = bank(
      ['A', 'B'],
      [
        [1, Number.NaN],
        [-1, Number.NaN],
        [Number.NaN, 0],
        [Number.NaN, -2],
      ],
    );
    const sims = Float64Array.from([0, 0, 0, 0]);
    // A 3 + (1, −1) = 4, 2; B 3 + (0, −2) = 3, 1: 4>3, 4>1, 2<3, 2>1 → 3 of 4.
    expect(pickShare(b, sims, tool('A', 3), tool('B', 3), 1, scale)).toEqual({ share: 0.75, n: 4, source: 'overall', paired: false });
    expect(pickShare(b, sims, tool('A', 3), tool('Z', 3), 1, scale)).toBeNull();
  });
});

describe('pickMargin', () => {
  it('the margin over the runner-up, with the share when a bank is at hand', () => {
    const ranked = [tool('A', 4), tool('B', 3.2), tool('C', 2)];
    const b = bank(
      ['A', 'B'],
      [
        [0, 0],
        [-1, 0.5],
      ],
    );
    // Task 0: 4 vs 3.2 win; task 1: 3 vs 3.7 loss.
    expect(pickMargin(ranked, 1, scale, { bank: b, sims: Float64Array.from([0, 0]) })).toEqual({
      runnerUp: 'B',
      margin: 4 - 3.2,
      share: { share: 0.5, n: 2, source: 'overall', paired: true },
    });
    expect(pickMargin(ranked, 1, scale, null)!.share).toBeNull();
    expect(pickMargin(ranked.slice(0, 1), 1, scale, null)).toBeNull();
  });

  it('calls a pick uncertain only within 0.1 of a half', () => {
    expect([0.39, 0.4, 0.5, 0.6, 0.61, 0.71].map(isUncertain)).toEqual([false, true, true, true, false, false]);
  });
});
