/**
 * The base models of `ensemble` (ensemble.ts, step 3): kernel ridge on the prompt kernel for the
 * shared difficulty D, each tool's own deviation zⱼ − D and a second shared factor u, all fitted on
 * one subset of the training tasks (a CV fold's complement, or all of them for the final model).
 */
import { KernelRidge, subMatrix } from './kernel-ridge';
import { presenceGroups, subsetTargets } from './targets';
import type { TrainingTable } from './training-table';

/** Base predictions for one task: difficulty, each tool's deviation (table order), second factor. */
export interface Bases {
  d: number;
  g: number[];
  u: number;
}

/** Leading eigenvector of a small symmetric matrix (power iteration, deterministic start). */
function leadingDirection(c: readonly number[][]): number[] {
  const m = c.length;
  let v = Array.from({ length: m }, (_, i) => 1 + i / m);
  for (let it = 0; it < 200; it++) {
    const w = c.map((r) => r.reduce((s, x, j) => s + x * v[j]!, 0));
    const norm = Math.sqrt(w.reduce((a, b) => a + b * b, 0));
    if (!(norm > 0)) return v.map(() => 0);
    v = w.map((x) => x / norm);
  }
  return v;
}

/** Difficulty, own-deviation and second-factor models fitted on a subset of the training tasks. */
export class BaseModels {
  private readonly rows: number[];
  private readonly dModel: KernelRidge;
  private readonly gModels: { tools: number[]; rows: number[]; model: KernelRidge }[];
  private readonly uModel: { rows: number[]; model: KernelRidge } | null = null;

  constructor(table: TrainingTable, gramMatrix: Float64Array, tasks: readonly number[], lambdaD: number, lambdaG: number, lambdaU: number) {
    const n = table.tasks.length;
    const t = subsetTargets(table, tasks);
    this.rows = t.tasks;
    this.dModel = new KernelRidge(lambdaD).fit(subMatrix(gramMatrix, n, this.rows), this.rows.length, [t.difficulty]);
    this.gModels = presenceGroups(t.z).map(({ tools, rows }) => {
      const idx = rows.map((a) => this.rows[a]!);
      const targets = tools.map((j) => rows.map((a) => t.z[j]![a]! - t.difficulty[a]!));
      return { tools, rows: idx, model: new KernelRidge(lambdaG).fit(subMatrix(gramMatrix, n, idx), idx.length, targets) };
    });
    // Second factor, from the tasks every tool scored.
    const complete = t.tasks.map((_, a) => a).filter((a) => t.z.every((col) => !Number.isNaN(col[a]!)));
    if (lambdaU > 0 && t.z.length > 2 && complete.length > 2) {
      const res = complete.map((a) => t.z.map((col) => col[a]! - t.difficulty[a]!));
      const cov = t.z.map((_, p) => t.z.map((_, q) => res.reduce((s, r) => s + r[p]! * r[q]!, 0) / res.length));
      const dir = leadingDirection(cov);
      const idx = complete.map((a) => this.rows[a]!);
      const u = res.map((r) => r.reduce((s, x, j) => s + x * dir[j]!, 0));
      this.uModel = { rows: idx, model: new KernelRidge(lambdaU).fit(subMatrix(gramMatrix, n, idx), idx.length, [u]) };
    }
  }

  /** `row`: kernel of the query with EVERY training task (table order). */
  predict(row: ArrayLike<number>, toolCount: number): Bases {
    const d = this.dModel.predict(this.rows.map((a) => row[a]!))[0]!;
    const g = new Array<number>(toolCount).fill(0);
    for (const m of this.gModels) {
      const out = m.model.predict(m.rows.map((a) => row[a]!));
      m.tools.forEach((j, s) => (g[j] = out[s]!));
    }
    const u = this.uModel ? this.uModel.model.predict(this.uModel.rows.map((a) => row[a]!))[0]! : 0;
    return { d, g, u };
  }
}
