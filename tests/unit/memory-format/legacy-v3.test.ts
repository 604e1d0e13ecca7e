import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CapabilityMemoryPredictor } from '../../../src/core/capability/predictor';
import { parseMemoryFile, serializeMemoryFile } from '../../../src/core/memory-format';

// Written by `toolmem build-memory` before issue #34 (format version 3): no detectors, no
// leaderboards, no picks — tests/fixtures/memory/README.md.
const V3 = readFileSync(resolve(__dirname, '../../fixtures/memory/genai-v3.json'), 'utf8');

describe('a version 3 memory file (before facet detectors)', () => {
  it('imports, keeps its version and exports byte-identical', () => {
    const parsed = parseMemoryFile(V3);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.file.version).toBe(3);
    expect(parsed.file.build.capability?.leaderboards).toBeUndefined();
    expect(serializeMemoryFile(parsed.file)).toBe(V3);
  });

  it('still predicts free text: without detectors a tag never applies to it, and the contributions add up', () => {
    const parsed = parseMemoryFile(V3);
    if (!parsed.ok) throw new Error('fixture does not parse');
    const model = parsed.file.build.capability!.model!;
    expect(model.detectors).toBeUndefined();
    const p = CapabilityMemoryPredictor.fromModel(model);
    const free = p.predict({ taskId: 'q', prompt: 'a cat not wearing a hat, three birds on a fence' }, 'DALLE_3');
    expect(free.score).toBeGreaterThanOrEqual(1);
    expect(free.score).toBeLessThanOrEqual(5);
    expect(free.explanation.contributions.reduce((a, c) => a + c.points, free.explanation.mean)).toBeCloseTo(free.score, 6);
    expect(free.explanation.contributions.every((c) => c.probability === undefined || c.probability === 1)).toBe(true);
    expect(p.picksFor({ taskId: 'q', prompt: 'a cat' })).toEqual([]);
  });
});
