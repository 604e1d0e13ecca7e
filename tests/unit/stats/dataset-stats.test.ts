import { describe, expect, it } from 'vitest';
import { datasetStats } from '../../../src/core/stats/dataset-stats';
import type { Experience } from '../../../src/core/types';

const e = (taskId: string, toolId: string, score: number, rater = 'r1'): Experience => ({
  id: `${taskId}|${toolId}|${rater}`,
  datasetId: 'd',
  taskId,
  prompt: 'p',
  toolId,
  score,
  rater,
  scoreSource: 'human',
  categories: [],
  importId: 'i',
  createdAt: 0,
});

describe('datasetStats', () => {
  it('bins an integer 1–5 scale one bin per score and sorts tools by mean', () => {
    const s = datasetStats([e('a', 'X', 1), e('b', 'X', 5), e('c', 'X', 5), e('a', 'Y', 4, 'r2'), e('b', 'Y', 5)], {
      min: 1,
      max: 5,
      direction: 'higher-better',
      integer: true,
    });
    expect(s.bins).toEqual(['1', '2', '3', '4', '5']);
    expect(s.tools).toEqual([
      { toolId: 'Y', n: 2, mean: 4.5, histogram: [0, 0, 0, 1, 1] },
      { toolId: 'X', n: 3, mean: 11 / 3, histogram: [1, 0, 0, 0, 2] },
    ]);
    expect(s.raters).toEqual([
      { rater: 'r1', n: 4 },
      { rater: 'r2', n: 1 },
    ]);
    expect(s.tasks).toBe(3);
  });

  it('uses ten bins on a continuous 0–1 scale, the top edge in the last bin', () => {
    const s = datasetStats([e('a', 'X', 0), e('b', 'X', 0.05), e('c', 'X', 0.1), e('d', 'X', 0.95), e('e', 'X', 1)], {
      min: 0,
      max: 1,
      direction: 'higher-better',
      integer: false,
    });
    expect(s.bins).toHaveLength(10);
    expect(s.bins[0]).toBe('0–0.1');
    expect(s.tools[0]!.histogram).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
  });
});
