/**
 * Benjamini–Hochberg q-values: the smallest false-discovery rate at which each hypothesis would be
 * rejected by the step-up procedure.
 *
 *   q(i) = min over k ≥ rank(i) of min(1, m·p(k) / k)        (p sorted ascending, ranks 1…m)
 *
 * - Monotone: a larger p never gets a smaller q; capped at 1.
 * - Ties: equal p-values get the same q (the running minimum from the top reaches the tied block at
 *   its largest rank first, so every member of the block gets m·p / (largest rank)).
 * - Not tested: a p that is NaN (or not a number) is left out of m and gets q = NaN, so callers can
 *   pass "no test was possible" without inflating everyone else's q.
 */
export function bhQValues(ps: readonly number[]): number[] {
  const out = new Array<number>(ps.length).fill(NaN);
  const order = ps
    .map((p, i) => ({ p, i }))
    .filter((x) => !Number.isNaN(x.p))
    .sort((a, b) => a.p - b.p || a.i - b.i);
  const m = order.length;
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    const { p } = order[r]!;
    // Clamp p to [0, 1] first: a rounding error above 1 must not escape the cap.
    running = Math.min(running, (Math.min(1, Math.max(0, p)) * m) / (r + 1));
    out[order[r]!.i] = running;
  }
  return out;
}
