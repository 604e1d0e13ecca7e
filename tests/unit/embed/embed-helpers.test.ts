import { describe, expect, it } from 'vitest';
import { cosine, embedderId, normaliseRows, packRows, rowOf, rowsOf, toModelLoadProgress } from '../../../src/core/embed';
import { quantiseRows, sifWeight, subtractMean, zipfNormaliser } from '../../../scripts/build-model/weights';

describe('vector helpers', () => {
  it('normaliseRows makes unit rows and turns zero or NaN rows into zeros', () => {
    const data = normaliseRows(new Float32Array([3, 4, 0, 0, NaN, 1]), 2);
    expect(Array.from(data)).toEqual([0.6000000238418579, 0.800000011920929, 0, 0, 0, 0]);
  });
  it('packs and views rows without copying', () => {
    const b = packRows(
      [
        [1, 2],
        [3, 4],
      ],
      2,
    );
    expect(Array.from(rowOf(b, 1))).toEqual([3, 4]);
    rowOf(b, 0)[0] = 9;
    expect(b.data[0]).toBe(9);
    expect(rowsOf(b)).toHaveLength(2);
    expect(() => rowOf(b, 2)).toThrow(RangeError);
    expect(() => packRows([[1]], 2)).toThrow(RangeError);
  });
  it('cosine is 0 against a zero vector', () => {
    expect(cosine([1, 0], [0, 0])).toBe(0);
    expect(cosine([1, 1], [2, 2])).toBeCloseTo(1, 12);
  });
  it('maps transformers.js progress events and builds ids', () => {
    expect(toModelLoadProgress({ status: 'progress', file: 'x.onnx', progress: 50, loaded: 1, total: 2, name: 'm' })).toEqual({
      status: 'progress',
      file: 'x.onnx',
      progress: 50,
      loaded: 1,
      total: 2,
    });
    expect(toModelLoadProgress({ status: 'weird' })).toBeNull();
    expect(toModelLoadProgress(null)).toBeNull();
    expect(embedderId('glove-100d', 'abcd1234')).toBe('glove-100d@abcd1234');
    expect(embedderId('Xenova/all-MiniLM-L6-v2')).toBe('Xenova/all-MiniLM-L6-v2');
  });
});

describe('model build steps', () => {
  it('subtracts the mean', () => {
    const rows = [Float64Array.from([1, 2]), Float64Array.from([3, 6])];
    expect(Array.from(subtractMean(rows, 2))).toEqual([2, 4]);
    expect(rows.map((r) => Array.from(r))).toEqual([
      [-1, -2],
      [1, 2],
    ]);
  });
  it('SIF weights grow with rank and stay in (0, 1)', () => {
    const h = zipfNormaliser(1000);
    expect(h).toBeCloseTo(
      Array.from({ length: 1000 }, (_, r) => 1 / (r + 2)).reduce((a, b) => a + b),
      12,
    );
    const w = [0, 10, 100, 1000].map((r) => sifWeight(r, 1e-3, h));
    for (let i = 1; i < w.length; i++) expect(w[i]).toBeGreaterThan(w[i - 1]!);
    expect(w[0]).toBeGreaterThan(0);
    expect(w[3]).toBeLessThan(1);
    // a/(a+p) with p = 1/((0+2)·h)
    expect(w[0]).toBeCloseTo(1e-3 / (1e-3 + 1 / (2 * h)), 15);
  });
  it('quantises each row to int8 within half a step, and zero rows to exact zeros', () => {
    const row = Float64Array.from([0.5, -1.27, 0.003, 1.0]);
    const t = quantiseRows([null, row, Float64Array.from([0, 0, 0, 0])], 4);
    expect(t.scales[0]).toBe(0);
    expect(t.scales[2]).toBe(0);
    expect(t.scales[1]).toBeCloseTo(0.01, 7);
    expect(Array.from(t.values.subarray(4, 8))).toEqual([50, -127, 0, 100]);
    for (let d = 0; d < 4; d++) expect(Math.abs(t.values[4 + d]! * t.scales[1]! - row[d]!)).toBeLessThanOrEqual(t.scales[1]! / 2 + 1e-9);
  });
});
