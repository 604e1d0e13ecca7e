/**
 * Selection metrics over test tasks. On each task the candidates are the tools with a true score;
 *   selected = true score of the tool with the best prediction (predictions tied at the top:
 *              the mean of their true scores — the expectation of breaking the tie at random)
 *   random   = mean true score of the candidates (expected value of a uniform random pick)
 *   oracle   = best true score
 * Averaged over tasks, and  gapCaptured = (selected − random) / (oracle − random)  (NaN when the
 * oracle gains nothing over random).
 */

export interface SelectionTask {
  truth: readonly number[];
  predicted: readonly number[];
}

export interface SelectionMetrics {
  tasks: number;
  selected: number;
  random: number;
  oracle: number;
  gapCaptured: number;
}

export function selectionMetrics(tasks: Iterable<SelectionTask>): SelectionMetrics {
  let n = 0;
  let sel = 0;
  let rnd = 0;
  let orc = 0;
  for (const t of tasks) {
    if (t.truth.length === 0) continue;
    if (t.truth.length !== t.predicted.length) throw new RangeError('truth and predictions differ in length');
    n++;
    const best = Math.max(...t.predicted);
    const top = t.truth.filter((_, i) => t.predicted[i] === best);
    sel += top.reduce((a, b) => a + b, 0) / top.length;
    rnd += t.truth.reduce((a, b) => a + b, 0) / t.truth.length;
    orc += Math.max(...t.truth);
  }
  if (n === 0) return { tasks: 0, selected: NaN, random: NaN, oracle: NaN, gapCaptured: NaN };
  const selected = sel / n;
  const random = rnd / n;
  const oracle = orc / n;
  return { tasks: n, selected, random, oracle, gapCaptured: oracle - random > 1e-12 ? (selected - random) / (oracle - random) : NaN };
}
