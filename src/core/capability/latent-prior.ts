/**
 * The latent scale's prior variances, chosen by empirical Bayes: the Laplace approximation of each
 * tool's marginal likelihood, summed over tools, maximised over one shared τ² (`fitTau2`) and, with
 * facet groups (claims.ts `kindPrior`), over each group's ratio to it (`kindRatios`). Pure.
 */
import { fitTool, priorVariance, type Fit, type ToolComparisons } from './latent-fit';

/** log det from a Cholesky factor. */
function logDet(l: Float64Array, P: number): number {
  let s = 0;
  for (let i = 0; i < P; i++) s += 2 * Math.log(l[i * P + i]!);
  return s;
}

/** Laplace log marginal likelihood of one tool at τ² (up to a constant), with its fit. */
function evidence(c: ToolComparisons, F: number, tau2: number | ArrayLike<number>, phi: number, init?: Float64Array): { value: number; fit: Fit } {
  const fit = fitTool(c, F, tau2, phi, init);
  const P = c.others + F;
  // fit.loglik already holds −½ Σ prec θ²; the δ prior's normalising constant is −½ Σ_f log τ²_f.
  let logPrior = 0;
  for (let f = 0; f < F; f++) logPrior += Math.log(priorVariance(tau2, f));
  return { value: fit.loglik - 0.5 * logPrior - 0.5 * logDet(fit.l, P), fit };
}

/** The shared τ² maximising Σ_j Laplace evidence: a log grid, then golden section around the best point. */
export function fitTau2(tools: readonly (ToolComparisons | null)[], F: number, phi: readonly number[]): number {
  return searchLog(
    evidenceOver(tools, F, phi, (t2) => t2),
    Array.from({ length: 9 }, (_, i) => 10 ** (-4 + (i * 2) / 3)),
  );
}

/** Σ_j Laplace evidence as a function of one scalar that `variances` maps to the prior (warm-started). */
function evidenceOver(
  tools: readonly (ToolComparisons | null)[],
  F: number,
  phi: readonly number[],
  variances: (x: number) => number | ArrayLike<number>,
): (x: number) => number {
  const warm: (Float64Array | undefined)[] = tools.map(() => undefined);
  return (x: number) =>
    tools.reduce((s, c, j) => {
      if (!c) return s;
      const e = evidence(c, F, variances(x), phi[j]!, warm[j]);
      warm[j] = e.fit.theta;
      return s + e.value;
    }, 0);
}

/**
 * Per group g, the ratio r_g of its prior variance to τ² that maximises the Laplace evidence, one
 * group at a time with the others held (two sweeps, each over a log grid 0.01–100 refined by
 * golden section). A group whose facets carry no effects is pulled toward 0.01 (shrunk harder),
 * one whose facets carry large effects toward 100.
 */
export function kindRatios(tools: readonly (ToolComparisons | null)[], F: number, phi: readonly number[], tau2: number, groups: readonly number[]): number[] {
  const G = Math.max(0, ...groups) + 1;
  const ratios = new Array<number>(G).fill(1);
  const grid = Array.from({ length: 9 }, (_, i) => 10 ** (-2 + i / 2));
  for (let sweep = 0; sweep < 2; sweep++) {
    for (let g = 0; g < G; g++) {
      if (!groups.includes(g)) continue;
      const variances = (r: number) => Float64Array.from(groups, (h) => tau2 * (h === g ? r : ratios[h]!));
      ratios[g] = searchLog(evidenceOver(tools, F, phi, variances), grid);
    }
  }
  return ratios;
}

/** The maximiser of `total` over a log grid, refined by golden section on the log scale between the best point's neighbours. */
function searchLog(total: (x: number) => number, grid: readonly number[]): number {
  let best = 0;
  let bestValue = -Infinity;
  grid.forEach((t2, i) => {
    const v = total(t2);
    if (v > bestValue + 1e-9) {
      bestValue = v;
      best = i;
    }
  });
  let lo = Math.log(grid[Math.max(0, best - 1)]!);
  let hi = Math.log(grid[Math.min(grid.length - 1, best + 1)]!);
  // Golden section on log τ² (one new evaluation per step).
  const phiG = (Math.sqrt(5) - 1) / 2;
  let a = hi - phiG * (hi - lo);
  let b = lo + phiG * (hi - lo);
  let fa = total(Math.exp(a));
  let fb = total(Math.exp(b));
  for (let i = 0; i < 6; i++) {
    if (fa >= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phiG * (hi - lo);
      fa = total(Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phiG * (hi - lo);
      fb = total(Math.exp(b));
    }
  }
  return Math.exp((lo + hi) / 2);
}
