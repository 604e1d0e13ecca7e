import type { PlanePoint } from '../../../src/core/eval/cost-plane';

/**
 * The hand-computed cost–quality plane of tests/unit/eval/cost-plane.test.ts (two tools, A $1 and
 * B $3, two tasks; the working is in that file). The chart helpers' tests draw the same plane.
 */
export const HAND_PLANE_POINTS: PlanePoint[] = [
  { kind: 'always', label: 'A', cost: 1, quality: 2.5, frontier: true },
  { kind: 'always', label: 'B', cost: 3, quality: 3.5, frontier: false },
  { kind: 'random', label: 'random', cost: 2, quality: 3, frontier: false },
  { kind: 'method', label: 'm', lambda: 0, cost: 2, quality: 3.5, frontier: true },
  { kind: 'method', label: 'm', lambda: 2, cost: 1, quality: 2.5, frontier: true },
  // t1 → B (4), t2 → A and B tie at 3: the cheaper A.
  { kind: 'oracle', label: 'oracle', cost: 2, quality: 3.5, frontier: false },
];
