import { describe, expect, it } from 'vitest';
import { METHOD_COLORS, methodStyles } from '../../../src/ui/palette';

describe('methodStyles', () => {
  it('the first methods: Okabe–Ito colours in order, a marker each', () => {
    const s = methodStyles(['a', 'b', 'c']);
    expect([...s.entries()]).toEqual([
      ['a', { color: '#0072B2', pointStyle: 'circle', rotation: 0, stroke: 1 }],
      ['b', { color: '#E69F00', pointStyle: 'rectRot', rotation: 0, stroke: 1 }],
      ['c', { color: '#009E73', pointStyle: 'triangle', rotation: 180, stroke: 1 }],
    ]);
  });

  it('no two of the first 42 methods share both colour and marker (7 colours × 6 markers)', () => {
    const names = Array.from({ length: 42 }, (_, i) => `m${i}`);
    const keys = [...methodStyles(names).values()].map((x) => `${x.color}|${x.pointStyle}|${x.rotation}`);
    expect(new Set(keys).size).toBe(42);
    // The 8th method takes the first colour again, with the second marker.
    expect(methodStyles(names).get('m7')).toEqual({ color: METHOD_COLORS[0], pointStyle: 'rectRot', rotation: 0, stroke: 1 });
    // Crosses are strokes only: drawn wider.
    expect(methodStyles(names).get('m3')!.stroke).toBe(2.5);
  });

  it('no black among method colours (kept for the oracle) and a repeated name keeps its first style', () => {
    expect(METHOD_COLORS).not.toContain('#000000');
    expect(methodStyles(['x', 'y', 'x']).size).toBe(2);
    expect(methodStyles(['x', 'y', 'x']).get('x')!.color).toBe('#0072B2');
  });
});
