/**
 * Records several unit tests start from. A test that needs other fields spreads one of these
 * (`{ ...SUMS_DATASET, scale: … }`) rather than writing the whole record again.
 */
import type { Dataset } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';

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

/** A memory entry with neutral defaults (tool A, level good, no evidence), `over` on top. */
export function memoryEntryOf(over: Partial<MemoryEntry> & Pick<MemoryEntry, 'id'>): MemoryEntry {
  return {
    memoryId: 'm',
    toolId: 'A',
    level: 'good',
    value: 1,
    text: `entry ${over.id}`,
    evidence: [],
    support: 1,
    origin: 'stats',
    pinned: false,
    validFrom: 0,
    validTo: null,
    supersededBy: null,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}
