import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/eval/rng';
import { share, stringify } from '../../../src/cli/mcp/shared-json';

/** A random JSON-ish value: nested objects and arrays, odd numbers and keys, undefined and functions. */
function randomValue(random: () => number, depth: number): unknown {
  const r = random();
  if (depth > 4 || r < 0.3) {
    const leaves = [0, -0, 1.5e-7, 123456789.123, NaN, Infinity, -1, 'text', 'é "quoted" \\ \n\u0000 😀', '', true, false, null, undefined, () => 1];
    return leaves[Math.floor(random() * leaves.length)];
  }
  if (r < 0.6) return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth + 1));
  const o: Record<string, unknown> = {};
  const keys = ['a', 'b', '10', '2', '__proto__x', 'ü', 'with "quote"', 'z'];
  for (let i = 0; i < Math.floor(random() * 6); i++) o[keys[Math.floor(random() * keys.length)]!] = randomValue(random, depth + 1);
  return o;
}

/** Marks some of a value's objects as shared, as the select path marks its contribution lines. */
function shareSome(v: unknown, random: () => number): void {
  if (v === null || typeof v !== 'object') return;
  for (const child of Object.values(v)) shareSome(child, random);
  if (random() < 0.4) share(v);
}

describe('stringify with shared parts', () => {
  it('is byte for byte JSON.stringify on 2,000 random values, shared parts serialised once and reused', () => {
    const random = mulberry32(36);
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(random, 0);
      shareSome(v, random);
      expect(stringify(v)).toBe(JSON.stringify(v));
      expect(stringify(v)).toBe(JSON.stringify(v)); // again, from the kept texts
    }
  });

  it('honours toJSON and writes shared arrays inside fresh objects', () => {
    const lines = share([{ id: 'e1', points: 0.25 }]);
    const answer = {
      when: new Date(0),
      ranked: [
        { tool: 'A', contributions: lines },
        { tool: 'B', contributions: lines },
      ],
    };
    expect(stringify(answer)).toBe(JSON.stringify(answer));
  });
});
