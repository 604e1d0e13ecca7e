/**
 * A small dataset with effects a capability build must find (tests/fixtures/e2e/capability.csv,
 * shared with the e2e tests): 60 tasks × 3 tools, the first 20 tagged `negation` (and written with
 * "no"). Tool A is strong elsewhere and weak on negation, B holds up better than the others there,
 * C is flat. Scores carry a fixed ±1 pattern so that intervals are finite.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const CAPABILITY_TOOLS = ['A', 'B', 'C'] as const;

export function capabilityCsv(): string {
  return readFileSync(resolve(import.meta.dirname, '../../fixtures/e2e/capability.csv'), 'utf8');
}
