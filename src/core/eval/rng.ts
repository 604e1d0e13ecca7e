/**
 * Seeded pseudo-random numbers for the train/test splits (never Math.random, so
 * every evaluation can be repeated exactly). mulberry32: 32-bit state, period 2^32, fast, and
 * good enough for shuffling a few thousand task ids.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

/** Mixes an arbitrary integer seed into a well-spread 32-bit state (splitmix32 finaliser). */
function mixSeed(seed: number): number {
  let z = (Math.trunc(seed) + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * The bare mulberry32 generator over a 32-bit state, uniform in [0, 1). The one PRNG of the tree:
 * k-means seeding, the benches' generated inputs and `createRng` all draw from it, so a seed means
 * the same sequence everywhere. The state is used as given (no mixing): k-means and the benches
 * pass small seeds and their recorded figures depend on exactly this sequence.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The splits' generator: mulberry32 over a mixed seed, so nearby seeds give unrelated orders. */
export function createRng(seed: number): Rng {
  const next = mulberry32(mixSeed(seed));
  return {
    next,
    int: (n) => Math.floor(next() * n),
  };
}

/** Fisher–Yates shuffle into a new array. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
