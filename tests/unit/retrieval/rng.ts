/** Seeded PRNG (mulberry32) so random-data tests are reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomVector(rand: () => number, dim: number): Float32Array {
  return Float32Array.from({ length: dim }, () => rand() * 2 - 1);
}
