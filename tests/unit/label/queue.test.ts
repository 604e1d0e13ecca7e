import { describe, expect, it } from 'vitest';
import { buildQueue, itemsFromExperiences, leftToolFor, resumeAt, type QueueFilter } from '../../../src/core/label/queue';
import type { Experience } from '../../../src/core/types';

const e = (taskId: string, toolId: string, rater: string, score: number, categories: string[] = []): Experience => ({
  id: `d|${taskId}|${toolId}|${rater}`,
  datasetId: 'd',
  taskId,
  prompt: `p${taskId}`,
  toolId,
  score,
  rater,
  scoreSource: 'human',
  categories,
  importId: 'i',
  createdAt: 0,
});

const rows = [
  e('10', 'A', 'ann', 3, ['scene']),
  e('10', 'A', 'bob', 3, ['scene']),
  e('2', 'A', 'ann', 1, ['count']),
  e('2', 'A', 'bob', 5, ['count']),
  e('2', 'B', 'bob', 4, ['count']),
  e('1', 'B', 'ann', 2, ['scene']),
];
const { items, labels } = itemsFromExperiences(rows);
const base: QueueFilter = { datasetIds: ['d'], mode: 'all', order: 'task' };

describe('label queue', () => {
  it('derives one item per task × tool and orders tasks numerically', () => {
    expect(buildQueue(items, labels, base, 'me')).toEqual(['d|1|B', 'd|2|A', 'd|2|B', 'd|10|A']);
  });

  it('filters by my labels, rater count, tool, category and score range', () => {
    expect(buildQueue(items, labels, { ...base, mode: 'unlabelled-by-me' }, 'ann')).toEqual(['d|2|B']);
    expect(buildQueue(items, labels, { ...base, mode: 'fewer-raters', minRaters: 2 }, 'me')).toEqual(['d|1|B', 'd|2|B']);
    expect(buildQueue(items, labels, { ...base, toolIds: ['A'] }, 'me')).toEqual(['d|2|A', 'd|10|A']);
    expect(buildQueue(items, labels, { ...base, category: 'scene' }, 'me')).toEqual(['d|1|B', 'd|10|A']);
    expect(buildQueue(items, labels, { ...base, scoreRange: [3, 5] }, 'me')).toEqual(['d|2|A', 'd|2|B', 'd|10|A']);
  });

  it('suggested order puts disagreement and thin evidence first', () => {
    // d|2|A: raters 1 vs 5 (spread 2.83) comes first; the rest by thin evidence, then task order.
    const order = buildQueue(items, labels, { ...base, order: 'suggested' }, 'me');
    expect(order[0]).toBe('d|2|A');
    expect(order).toHaveLength(4);
  });

  it('places pairwise sides stably and not always the same way', () => {
    expect(leftToolFor('d|1', 'A', 'B')).toBe(leftToolFor('d|1', 'A', 'B'));
    const lefts = Array.from({ length: 40 }, (_, i) => leftToolFor(`d|${i}`, 'A', 'B'));
    expect(lefts.filter((l) => l === 'A').length).toBeGreaterThan(10);
    expect(lefts.filter((l) => l === 'B').length).toBeGreaterThan(10);
  });
});

describe('resumeAt: where a restored queue starts', () => {
  const items = new Map([
    ['a', { createdAt: 10 }],
    ['b', { createdAt: 10 }],
    ['c', { createdAt: 50 }],
  ]);
  it('resumes on the saved item when nothing before it is newer than the queue it was in', () => {
    expect(resumeAt(['a', 'b', 'c'], items, 'b', 20)).toBe(1);
    expect(resumeAt(['a', 'b', 'c'], items, 'c', 20)).toBe(2); // c itself may be new: it is where the user was
  });
  it('starts at the first item when an item before it came later (a new import), or without a saved queue', () => {
    expect(resumeAt(['c', 'a', 'b'], items, 'b', 20)).toBe(0);
    expect(resumeAt(['a', 'b'], items, 'b', undefined)).toBe(0);
    expect(resumeAt(['a', 'b'], items, 'gone', 20)).toBe(0);
    expect(resumeAt(['a', 'b'], items, null, 20)).toBe(0);
  });
});
