/** Seeded PRNG (mulberry32, the one core uses) so random-data tests are reproducible. */
export { seededRandom as rng } from '../../../src/core/memory/kmeans';

export function randomVector(rand: () => number, dim: number): Float32Array {
  return Float32Array.from({ length: dim }, () => rand() * 2 - 1);
}
