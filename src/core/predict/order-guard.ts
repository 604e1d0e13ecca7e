/**
 * Keeps the tools of one task in the order of their training means (isotonic regression by pool
 * adjacent violators), then separates pooled tools by a tiny step so the stronger tool stays
 * strictly ahead (a predicted tie would count as wrong in the pair metrics).
 *
 * Why: on the benchmarks, no per-task signal about which of two tools wins survived in a few
 * hundred training prompts (pairwise models on words, prompt shape or skill tags never beat
 * "always pick the stronger tool"), while the tool-specific parts of the regression do help each
 * tool's own score. Projecting onto the training order keeps the regression gains and removes
 * the spurious flips; it also lowered MAE and RMSE slightly.
 */

/** Pool-adjacent-violators: the non-decreasing sequence closest (least squares) to `values`. */
export function isotonic(values: readonly number[]): number[] {
  const sums: number[] = [];
  const counts: number[] = [];
  for (const v of values) {
    sums.push(v);
    counts.push(1);
    while (sums.length > 1 && sums[sums.length - 2]! / counts[counts.length - 2]! > sums[sums.length - 1]! / counts[counts.length - 1]!) {
      const s = sums.pop()!;
      const c = counts.pop()!;
      sums[sums.length - 1]! += s;
      counts[counts.length - 1]! += c;
    }
  }
  const out: number[] = [];
  sums.forEach((s, b) => {
    for (let i = 0; i < counts[b]!; i++) out.push(s / counts[b]!);
  });
  return out;
}

/**
 * `values[i]` belongs to the i-th tool in ascending order of training mean. Returns values that
 * are strictly increasing, inside [min, max], and equal to the isotonic fit up to steps of
 * `step` (default 1e-9 of the scale range) between tools that were pooled or clamped together.
 */
export function guardOrder(values: readonly number[], min: number, max: number, step = 1e-9 * (max - min)): number[] {
  const fit = isotonic(values.map((v) => Math.min(max, Math.max(min, v))));
  const out = fit.slice();
  // Walk runs of equal values; spread each run by `step`, kept inside the scale.
  for (let start = 0; start < fit.length;) {
    let end = start;
    while (end + 1 < fit.length && fit[end + 1] === fit[start]) end++;
    const size = end - start + 1;
    if (size > 1) {
      let base = fit[start]! - (step * (size - 1)) / 2;
      if (base < min) base = min;
      if (base + step * (size - 1) > max) base = max - step * (size - 1);
      for (let i = 0; i < size; i++) out[start + i] = base + step * i;
    }
    start = end + 1;
  }
  return out;
}
