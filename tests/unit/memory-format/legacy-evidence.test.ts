import { describe, expect, it } from 'vitest';
import { currentEvidenceId } from '../../../src/core/memory-format/legacy-evidence';

describe('evidence ids of memory files written before schema v6', () => {
  it.each([
    // [evidence id, the entry's tool, the id in the store's order]
    ['genai|t17|DALLE_3|r1', 'DALLE_3', 'genai|DALLE_3|t17|r1'], // old order: turned round
    ['genai|DALLE_3|t17|r1', 'DALLE_3', 'genai|DALLE_3|t17|r1'], // already current
    ['genai|x|x|r1', 'x', 'genai|x|x|r1'], // task and tool share the id: the same either way
    ['genai|t|a|b|r1', 'a|b', 'genai|t|a|b|r1'], // a part holding '|': left for the lookup
    ['genai|t17|SDXL|r1', 'DALLE_3', 'genai|t17|SDXL|r1'], // another tool's row: not ours to turn
  ])('%s of %s is %s', (id, tool, expected) => {
    expect(currentEvidenceId(id, tool)).toBe(expected);
  });
});
