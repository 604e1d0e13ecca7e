/**
 * PICKS_DUMP=FILE (claims-bench.ts, picks-bench.ts): one JSON line per build with what its pick claims
 * were chosen from (oriented training scores, facet membership, the overall best, each facet's likely
 * best) and the unseen tasks they are checked on, so pick rules can be compared offline on the tuning
 * seeds without rebuilding. Bench tooling only.
 */
import { appendFileSync } from 'node:fs';
import { oriented, type scoreTableFromSet } from '../../src/core/capability/effects';
import type { CapabilityMemoryPredictor } from '../../src/core/capability/predictor';

/** PICKS_DUMP=FILE: appends one JSON line per build with what the picks are chosen from and the unseen tasks (tuning pick rules offline). */
export function dumpPickInput(
  file: string,
  label: string,
  p: CapabilityMemoryPredictor,
  unseen: ReturnType<typeof scoreTableFromSet>,
  memberOf: (d: CapabilityMemoryPredictor['facets'][number]) => Uint8Array,
): void {
  const k = p.pickInput;
  if (!k) return;
  const arr = (a: ArrayLike<number>) => Array.from(a, (y) => (Number.isNaN(y) ? null : y));
  const bits = (a: ArrayLike<number>) => Array.from(a, (y) => (y ? '1' : '0')).join('');
  const uv = oriented(unseen);
  const rec = {
    label,
    toolIds: k.toolIds,
    best: k.best,
    likelyBest: k.likelyBest,
    facets: p.facets.map((d) => d.facet.name),
    v: k.v.map(arr),
    x: k.x.map(bits),
    unseenTools: unseen.toolIds,
    unseenV: uv.map(arr),
    unseenX: p.facets.map((d, f) => (k.likelyBest[f] ? bits(memberOf(d)) : '')),
  };
  appendFileSync(file, JSON.stringify(rec) + '\n');
}
