import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CapabilityMemoryPredictor } from '../../../src/core/capability/predictor';
import { summarise } from '../../../src/core/capability/verify';
import { memoryEntriesOf, parseMemoryFile, serializeMemoryFile } from '../../../src/core/memory-format';

// Written by `toolmem build-memory` of the release before issue #25 (format version 2: verdicts
// holds / weaker / contradicted / untested, unshrunk effects, no profiles): tests/fixtures/memory/README.md.
const V2 = readFileSync(resolve(__dirname, '../../fixtures/memory/genai-v2.json'), 'utf8');

describe('a version 2 memory file (before shrunk claims)', () => {
  it('imports, keeps its version and exports byte-identical', () => {
    const parsed = parseMemoryFile(V2);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.file.version).toBe(2);
    expect(serializeMemoryFile(parsed.file)).toBe(V2);
  });

  it("its entries count as claims, a legacy 'weaker' verdict reads as inconclusive, and it still predicts", () => {
    const parsed = parseMemoryFile(V2);
    if (!parsed.ok) throw new Error('fixture does not parse');
    const entries = memoryEntriesOf(parsed.file);
    const weaker = entries.filter((e) => e.verdict?.verdict === 'weaker');
    expect(weaker.length).toBe(2);
    const s = summarise(
      entries.filter((e) => e.verdict && e.effect).map((e) => ({ claimed: e.effect!.deltaVsOthers ?? e.effect!.deltaOwn, verdict: e.verdict! })),
    );
    expect(s.counts.inconclusive).toBeGreaterThanOrEqual(2);
    expect('weaker' in s.counts).toBe(false);
    const model = parsed.file.build.capability!.model!;
    const p = CapabilityMemoryPredictor.fromModel(model).predict({ taskId: 'q', prompt: 'A cat that is not on a mat' }, 'DALLE_3');
    expect(p.score).toBeGreaterThanOrEqual(1);
    expect(p.score).toBeLessThanOrEqual(5);
    expect(p.explanation.contributions.reduce((a, c) => a + c.points, p.explanation.mean)).toBeCloseTo(p.score, 6);
  });
});
