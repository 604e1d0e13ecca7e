/**
 * A detector's score turned into a calibrated probability, and how well it ranks (detectors.ts):
 * the Mann–Whitney AUC of held-out scores and a one-score logistic (Platt) fit. Pure arithmetic.
 */
/** The logistic function, written so neither branch overflows. */
export const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Mann–Whitney AUC of scores for positives vs negatives (ties count ½); NaN without both classes. */
export function auc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const idx = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let pos = 0;
  let neg = 0;
  let rankSum = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1]!] === scores[idx[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (labels[idx[k]!]) rankSum += rank;
    i = j + 1;
  }
  for (let i = 0; i < labels.length; i++)
    if (labels[i]) pos++;
    else neg++;
  if (pos === 0 || neg === 0) return NaN;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Logistic fit of y on one score (Newton, a little ridge so separable data stays finite): [slope, intercept]. */
export function plattFit(scores: ArrayLike<number>, labels: ArrayLike<number>): [number, number] {
  let a = 1;
  let b = 0;
  const ridge = 1e-3;
  for (let it = 0; it < 50; it++) {
    let ga = -ridge * a;
    let gb = 0;
    let haa = ridge;
    let hab = 0;
    let hbb = 1e-9;
    for (let i = 0; i < scores.length; i++) {
      const s = scores[i]!;
      const p = sigmoid(a * s + b);
      const r = labels[i]! - p;
      const w = p * (1 - p);
      ga += r * s;
      gb += r;
      haa += w * s * s;
      hab += w * s;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a += da;
    b += db;
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  return [a, b];
}
