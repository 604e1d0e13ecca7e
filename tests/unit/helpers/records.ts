/**
 * Records several unit tests start from. A test that needs other fields spreads one of these
 * (`{ ...SUMS_DATASET, scale: … }`) rather than writing the whole record again.
 */
import type { Dataset } from '../../../src/core/types';

/** A hand-labelled dataset "Sums" (id `d`) on an integer 1–5 scale, higher better, raters averaged. */
export const SUMS_DATASET: Readonly<Dataset> = Object.freeze<Dataset>({
  id: 'd',
  name: 'Sums',
  source: 'manual',
  preset: 'manual',
  createdAt: 1,
  scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
  raterPolicy: { kind: 'mean' },
});
