import { describe, expect, it } from 'vitest';
import { cholesky, choleskySolve, gram, kernelRow, KernelRidge, ridgeApply, ridgeFit, solveSymmetric } from '../../../src/core/predict';
import { denseToSparse } from '../../../src/core/predict';

describe('linear algebra', () => {
  it('Cholesky solves a hand example', () => {
    // [[4, 2], [2, 3]] x = [2, 1]  →  x = [0.5, 0]
    expect([...solveSymmetric([4, 2, 2, 3], 2, [2, 1])]).toEqual([0.5, 0]);
    const l = cholesky(Float64Array.from([4, 2, 2, 3]), 2);
    expect(l[0]).toBe(2);
    expect(l[2]).toBe(1);
    expect(l[3]).toBeCloseTo(Math.sqrt(2), 12);
    expect([...choleskySolve(l, 2, [6, 5])].map((x) => +x.toFixed(12))).toEqual([1, 1]);
    expect(() => cholesky(Float64Array.from([0, 0, 0, 0]), 2)).toThrow(RangeError);
  });

  it('ridge with an unpenalised intercept fits a line exactly with a tiny penalty', () => {
    const c = ridgeFit([[1], [2], [3], [4]], [3, 5, 7, 9], 1e-9);
    expect(c[0]).toBeCloseTo(1, 6);
    expect(c[1]).toBeCloseTo(2, 6);
    expect(ridgeApply(c, [5])).toBeCloseTo(11, 6);
  });

  it('kernel ridge with a linear kernel equals primal ridge with intercept', () => {
    const xs = [
      [1, 0],
      [2, 1],
      [3, 5],
      [4, 2],
      [0, 3],
    ];
    const y = [1, 3, 2, 5, 0];
    const rows = xs.map((x) => denseToSparse(x));
    for (const lambda of [0.1, 1, 10]) {
      const primal = ridgeFit(xs, y, lambda);
      const dual = new KernelRidge(lambda).fit(gram(rows), rows.length, [y]);
      for (const q of [
        [1, 1],
        [5, -2],
        [0, 0],
      ]) {
        expect(dual.predict(kernelRow(denseToSparse(q), rows))[0]).toBeCloseTo(ridgeApply(primal, q), 7);
      }
    }
    expect(() => new KernelRidge(0)).toThrow(RangeError);
  });
});
