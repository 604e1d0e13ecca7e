/**
 * Facet detectors (issue #34): a dataset's category tags are known for its own tasks, never for a
 * prompt an agent sends or a person types. For every category facet, a detector learned on the
 * training tasks gives the probability that a new prompt would carry the tag, from its text alone.
 *
 * Features of a prompt (the same for every detector of a build):
 *   - words: presence of each vocabulary word (lower-cased letters/digits runs of ≥ 2 characters
 *     found in at least `minDocs` training prompts and in at most half of them; the most frequent
 *     `maxWords` kept, ties alphabetical);
 *   - cues: every text cue of cues.ts (1 when it fires);
 *   - the prompt's unit vector (when the training tasks carry vectors; a prompt without one gets the
 *     training mean, i.e. no information from it).
 * Score: ridge regression of the 0/1 tag on the standardised features (one solve for every facet:
 * the same matrix), λ = `lambda` × n. Calibration: a logistic fit of the tag on the score computed
 * out of fold (K-fold, folds by task order), so P(tag | text) = σ(a·score + b) is calibrated on tasks
 * the ridge fit did not see. The out-of-fold scores also give the detector's AUC (Mann–Whitney),
 * reported in the build notes: a detector with AUC < `minAuc` is useless and its facet makes no
 * claim (a new prompt could not be placed in it).
 * The fitted weights are stored in raw feature space (standardisation folded in), so evaluating one
 * prompt is a sparse dot product: cheap enough for every request of the server.
 * Pure and deterministic.
 */
import { cholesky, choleskySolve } from '../predict/linalg';
import { CUES, cueById } from './cues';
import { auc, plattFit, sigmoid } from './score-calibration';

export interface DetectorOptions {
  /** Most vocabulary words (default 300). */
  maxWords?: number;
  /** Fewest training prompts a word must appear in (default max(3, 1% of n)). */
  minDocs?: number;
  /** Ridge penalty per training task on standardised features (default DETECTOR_LAMBDA). */
  lambda?: number;
  /** Folds for the out-of-fold scores (default 5). */
  folds?: number;
}

/** Below this held-out AUC a detector cannot place a new prompt in its facet: no claim on it. */
export const MIN_DETECTOR_AUC = 0.65;
export const DETECTOR_LAMBDA = 3;

/** One facet's detector; weights index the set's features: words, then cues, then vector dimensions. */
export interface FacetDetector {
  /** The category value the detector predicts. */
  value: string;
  weights: number[];
  bias: number;
  /** Calibration: P = σ(platt[0]·score + platt[1]). */
  platt: [number, number];
  /** Area under the ROC curve of the out-of-fold scores (0.5 = chance). */
  auc: number;
  /** Training tasks with the tag, and in all. */
  positives: number;
  n: number;
}

/** Everything a build's detectors need, as plain JSON (memory files carry it). */
export interface DetectorSet {
  version: 1;
  vocabulary: string[];
  cues: string[];
  /** Vector size (0: no vector features) and the training mean vector (the value of a missing one). */
  dim: number;
  vectorMean: number[];
  detectors: FacetDetector[];
}

export interface DetectorTask {
  prompt: string;
  categories?: readonly string[];
  vector?: Float32Array | undefined;
}

const WORD = /[\p{L}\p{N}]{2,}/gu;

/** The distinct lower-cased words of a prompt (letters and digits, ≥ 2 characters). */
export function words(prompt: string): Set<string> {
  return new Set(prompt.toLowerCase().match(WORD) ?? []);
}

function vocabularyOf(prompts: readonly string[], minDocs: number, maxWords: number): string[] {
  const df = new Map<string, number>();
  for (const p of prompts) for (const w of words(p)) df.set(w, (df.get(w) ?? 0) + 1);
  const half = prompts.length / 2;
  return [...df]
    .filter(([, c]) => c >= minDocs && c <= half)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxWords)
    .map(([w]) => w);
}

/** Active (nonzero) sparse features of a prompt: indices of words and cues that fire. */
function sparseFeatures(prompt: string, index: ReadonlyMap<string, number>, cueIds: readonly string[], offset: number): number[] {
  const on: number[] = [];
  for (const w of words(prompt)) {
    const i = index.get(w);
    if (i !== undefined) on.push(i);
  }
  cueIds.forEach((id, c) => {
    if (cueById(id)?.test(prompt)) on.push(offset + c);
  });
  return on.sort((a, b) => a - b);
}

interface Design {
  /** Sparse active features per task (words, cues). */
  on: number[][];
  /** Dense vector part per task (length dim) or null. */
  vec: (Float32Array | null)[];
  sparseCount: number;
  dim: number;
  vectorMean: Float64Array;
}

interface Moments {
  /** Σ x xᵀ, Σ x, Σ y·x per label, Σ y per label, and the row count. */
  xx: Float64Array;
  sx: Float64Array;
  xy: Float64Array[];
  sy: number[];
  n: number;
}

/** Raw-feature sums over the rows of each fold (fold of row t: t mod folds), in one pass. */
function foldMoments(d: Design, labels: readonly Uint8Array[], folds: number): Moments[] {
  const P = d.sparseCount + d.dim;
  const out: Moments[] = Array.from({ length: folds }, () => ({
    xx: new Float64Array(P * P),
    sx: new Float64Array(P),
    xy: labels.map(() => new Float64Array(P)),
    sy: labels.map(() => 0),
    n: 0,
  }));
  const dense = new Float64Array(d.dim);
  for (let t = 0; t < d.on.length; t++) {
    const m = out[t % folds]!;
    const { xx, sx } = m;
    m.n++;
    const on = d.on[t]!;
    const v = d.vec[t];
    for (let k = 0; k < d.dim; k++) dense[k] = v ? v[k]! : d.vectorMean[k]!;
    for (const i of on) {
      sx[i] = sx[i]! + 1;
      for (const j of on) xx[i * P + j] = xx[i * P + j]! + 1;
      const row = i * P + d.sparseCount;
      for (let k = 0; k < d.dim; k++) xx[row + k] = xx[row + k]! + dense[k]!;
    }
    for (let a = 0; a < d.dim; a++) {
      const i = d.sparseCount + a;
      const x = dense[a]!;
      sx[i] = sx[i]! + x;
      const row = i * P + d.sparseCount;
      // Upper triangle only of the dense block; mirrored after the sums.
      for (let b = a; b < d.dim; b++) xx[row + b] = xx[row + b]! + x * dense[b]!;
    }
    labels.forEach((y, f) => {
      if (!y[t]) return;
      m.sy[f] = m.sy[f]! + 1;
      const xy = m.xy[f]!;
      for (const i of on) xy[i] = xy[i]! + 1;
      for (let k = 0; k < d.dim; k++) xy[d.sparseCount + k] = xy[d.sparseCount + k]! + dense[k]!;
    });
  }
  for (const m of out) {
    for (let i = 0; i < d.sparseCount; i++) for (let k = 0; k < d.dim; k++) m.xx[(d.sparseCount + k) * P + i] = m.xx[i * P + d.sparseCount + k]!;
    for (let a = 0; a < d.dim; a++)
      for (let b = 0; b < a; b++) m.xx[(d.sparseCount + a) * P + d.sparseCount + b] = m.xx[(d.sparseCount + b) * P + d.sparseCount + a]!;
  }
  return out;
}

/** The sums of the folds `keep` selects. */
function sumMoments(parts: readonly Moments[], keep: (k: number) => boolean): Moments {
  const first = parts[0]!;
  const total: Moments = {
    xx: new Float64Array(first.xx.length),
    sx: new Float64Array(first.sx.length),
    xy: first.xy.map((r) => new Float64Array(r.length)),
    sy: first.sy.map(() => 0),
    n: 0,
  };
  parts.forEach((m, k) => {
    if (!keep(k)) return;
    total.n += m.n;
    for (let i = 0; i < m.xx.length; i++) total.xx[i] = total.xx[i]! + m.xx[i]!;
    for (let i = 0; i < m.sx.length; i++) total.sx[i] = total.sx[i]! + m.sx[i]!;
    m.xy.forEach((r, f) => {
      const to = total.xy[f]!;
      for (let i = 0; i < r.length; i++) to[i] = to[i]! + r[i]!;
      total.sy[f] = total.sy[f]! + m.sy[f]!;
    });
  });
  return total;
}

/** Raw feature value of task t, feature i. */
function featureOf(d: Design, t: number, i: number, onSet: ReadonlySet<number>): number {
  if (i < d.sparseCount) return onSet.has(i) ? 1 : 0;
  const v = d.vec[t];
  return v ? v[i - d.sparseCount]! : d.vectorMean[i - d.sparseCount]!;
}

interface RidgeFit {
  /** Raw-space weights per label and intercepts. */
  w: Float64Array[];
  b: number[];
}

/**
 * Ridge of each label column on the standardised features, from the sums `m`: (ZᵀZ + λn·I)β =
 * Zᵀ(y − ȳ), Z = (X − mean) / sd; weights mapped back to raw features.
 */
function ridge(m: Moments, lambda: number): RidgeFit {
  const P = m.sx.length;
  const { xx, sx, n } = m;
  const mean = Float64Array.from(sx, (s) => s / Math.max(1, n));
  const sd = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    const v = Math.sqrt(Math.max(0, xx[i * P + i]! / Math.max(1, n) - mean[i]! ** 2));
    sd[i] = v > 1e-9 ? v : 0;
  }
  const a = new Float64Array(P * P);
  for (let i = 0; i < P; i++) {
    for (let j = 0; j < P; j++) {
      const si = sd[i]!;
      const sj = sd[j]!;
      a[i * P + j] = si && sj ? (xx[i * P + j]! - n * mean[i]! * mean[j]!) / (si * sj) : 0;
    }
    a[i * P + i] = a[i * P + i]! + lambda * Math.max(1, n);
  }
  const l = cholesky(a, P);
  const w: Float64Array[] = [];
  const b: number[] = [];
  m.xy.forEach((xy, f) => {
    const ym = m.sy[f]! / Math.max(1, n);
    const rhs = Float64Array.from({ length: P }, (_, i) => (sd[i]! ? (xy[i]! - ym * sx[i]!) / sd[i]! : 0));
    const beta = choleskySolve(l, P, rhs);
    const raw = Float64Array.from({ length: P }, (_, i) => (sd[i]! ? beta[i]! / sd[i]! : 0));
    let intercept = ym;
    for (let i = 0; i < P; i++) intercept -= raw[i]! * mean[i]!;
    w.push(raw);
    b.push(intercept);
  });
  return { w, b };
}

function scoreOf(d: Design, t: number, w: ArrayLike<number>, b: number): number {
  let s = b;
  for (const i of d.on[t]!) s += w[i]!;
  const v = d.vec[t];
  for (let k = 0; k < d.dim; k++) s += w[d.sparseCount + k]! * (v ? v[k]! : d.vectorMean[k]!);
  return s;
}

/**
 * Detectors for `values` (category values) learned on `tasks`. A value on no or on every training
 * task gets no detector (nothing to learn).
 */
export interface LearnedDetectors {
  set: DetectorSet;
  /** Per detector (by value), the calibrated probability of each training task from the fit that did not see it. */
  heldOut: Map<string, Float64Array>;
}

export function learnDetectors(tasks: readonly DetectorTask[], values: readonly string[], opts: DetectorOptions = {}): LearnedDetectors {
  const n = tasks.length;
  const maxWords = opts.maxWords ?? 300;
  const minDocs = opts.minDocs ?? Math.max(3, Math.ceil(0.01 * n));
  const lambda = opts.lambda ?? DETECTOR_LAMBDA;
  const folds = Math.max(2, Math.min(opts.folds ?? 5, n));
  const vocabulary = vocabularyOf(
    tasks.map((t) => t.prompt),
    minDocs,
    maxWords,
  );
  const cues = CUES.map((c) => c.id);
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  const withVector = tasks.filter((t) => t.vector && t.vector.length > 0);
  const dim = withVector.length >= n / 2 ? (withVector[0]?.vector?.length ?? 0) : 0;
  const vectorMean = new Float64Array(dim);
  for (const t of withVector) if (t.vector!.length === dim) for (let k = 0; k < dim; k++) vectorMean[k] = vectorMean[k]! + t.vector![k]! / withVector.length;
  const design: Design = {
    on: tasks.map((t) => sparseFeatures(t.prompt, index, cues, vocabulary.length)),
    vec: tasks.map((t) => (dim > 0 && t.vector?.length === dim ? t.vector : null)),
    sparseCount: vocabulary.length + cues.length,
    dim,
    vectorMean,
  };
  const learnable = values.filter((v) => {
    const k = tasks.filter((t) => t.categories?.includes(v)).length;
    return k > 0 && k < n;
  });
  const labels = learnable.map((v) => Uint8Array.from(tasks, (t) => (t.categories?.includes(v) ? 1 : 0)));
  // Out-of-fold scores: each fold's tasks scored by a fit on the other folds.
  const oof = labels.map(() => new Float64Array(n));
  const parts = foldMoments(design, labels, folds);
  for (let k = 0; k < folds; k++) {
    const fit = ridge(
      sumMoments(parts, (i) => i !== k),
      lambda,
    );
    for (let t = k; t < n; t += folds) labels.forEach((_, f) => (oof[f]![t] = scoreOf(design, t, fit.w[f]!, fit.b[f]!)));
  }
  const full = ridge(
    sumMoments(parts, () => true),
    lambda,
  );
  const detectors = learnable.map((value, f) => ({
    value,
    weights: Array.from(full.w[f]!, (x) => Math.round(x * 1e6) / 1e6),
    bias: full.b[f]!,
    platt: plattFit(oof[f]!, labels[f]!),
    auc: Number.isFinite(auc(oof[f]!, labels[f]!)) ? auc(oof[f]!, labels[f]!) : 0.5,
    positives: labels[f]!.reduce((s, y) => s + y, 0),
    n,
  }));
  const heldOut = new Map(detectors.map((d, f) => [d.value, Float64Array.from(oof[f]!, (s) => sigmoid(d.platt[0] * s + d.platt[1]))]));
  return { set: { version: 1, vocabulary, cues, dim, vectorMean: Array.from(vectorMean), detectors }, heldOut };
}

/**
 * A detector set ready to score prompts: features are computed once per prompt (words, cues, the
 * vector's dot products) and every detector reads them.
 */
export class FacetDetectors {
  private readonly index: Map<string, number>;
  private readonly byValue: Map<string, FacetDetector>;
  /** Per detector, Σ weight × vector mean: the vector part of a prompt without a vector. */
  private readonly meanTerm: Map<string, number>;

  constructor(readonly set: DetectorSet) {
    this.index = new Map(set.vocabulary.map((w, i) => [w, i]));
    this.byValue = new Map(set.detectors.map((d) => [d.value, d]));
    const offset = set.vocabulary.length + set.cues.length;
    this.meanTerm = new Map(set.detectors.map((d) => [d.value, set.vectorMean.reduce((s, m, k) => s + m * (d.weights[offset + k] ?? 0), 0)]));
  }

  has(value: string): boolean {
    return this.byValue.has(value);
  }

  detector(value: string): FacetDetector | undefined {
    return this.byValue.get(value);
  }

  /** P(the task carries `value`) for every detector, from the prompt (and its vector when of the set's size). */
  probabilities(task: { prompt: string; vector?: Float32Array | undefined }): Map<string, number> {
    const on = sparseFeatures(task.prompt, this.index, this.set.cues, this.set.vocabulary.length);
    const offset = this.set.vocabulary.length + this.set.cues.length;
    const vector = this.set.dim > 0 && task.vector?.length === this.set.dim ? task.vector : null;
    const out = new Map<string, number>();
    for (const d of this.set.detectors) {
      let s = d.bias;
      for (const i of on) s += d.weights[i] ?? 0;
      if (vector) for (let k = 0; k < this.set.dim; k++) s += (d.weights[offset + k] ?? 0) * vector[k]!;
      else s += this.meanTerm.get(d.value) ?? 0;
      out.set(d.value, sigmoid(d.platt[0] * s + d.platt[1]));
    }
    return out;
  }
}

/** Dense raw features of one task (for tests and audits): words, cues, vector. */
export function featureVector(set: DetectorSet, task: { prompt: string; vector?: Float32Array }): number[] {
  const index = new Map(set.vocabulary.map((w, i) => [w, i]));
  const on = new Set(sparseFeatures(task.prompt, index, set.cues, set.vocabulary.length));
  const d: Design = {
    on: [[...on]],
    vec: [set.dim > 0 && task.vector?.length === set.dim ? task.vector : null],
    sparseCount: set.vocabulary.length + set.cues.length,
    dim: set.dim,
    vectorMean: Float64Array.from(set.vectorMean),
  };
  return Array.from({ length: d.sparseCount + d.dim }, (_, i) => featureOf(d, 0, i, on));
}
