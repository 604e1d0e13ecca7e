import { describe, expect, it } from 'vitest';
import { getPreset, isPresetId, presetOf, PRESETS } from '../../../src/core/import/presets';
import { scaleMeaningOf } from '../../../src/core/import/presets/scale-meanings';
import { splitSizes } from '../../../src/core/eval/split';

// Issue #29: one table of presets. Each row carries its id, detection, defaults, scale meaning and
// protocol split; the lookups below read only that table.
describe('the preset table', () => {
  it('lists every preset once, keyed by its own id, in registry order (generic last)', () => {
    expect(PRESETS.map((p) => p.id)).toEqual([
      'genai-bench',
      'genai-bench-long',
      'biggen',
      'alpaca-eval',
      'prometheus',
      'promptfoo',
      'inspect',
      'lm-eval-harness',
      'openai-evals',
      'helm',
      'generic',
    ]);
    for (const p of PRESETS) expect(getPreset(p.id)).toBe(p);
  });

  it('knows only its own ids: manual, inherited names and unknown ids have no row', () => {
    expect(['manual', 'toString', '__proto__', 'constructor', 'genai'].map((id) => [isPresetId(id), presetOf(id)])).toEqual(Array(5).fill([false, undefined]));
    expect(presetOf(undefined)).toBeUndefined();
    expect(() => getPreset('nope' as never)).toThrow("Unknown preset 'nope'");
  });

  it('holds the scale meanings and protocol splits the prompts and the evaluation read', () => {
    const withMeaning = PRESETS.filter((p) => p.scaleMeaning).map((p) => p.id);
    expect(withMeaning).toEqual(['genai-bench', 'genai-bench-long', 'biggen', 'prometheus']);
    expect(PRESETS.filter((p) => p.split).map((p) => [p.id, p.split])).toEqual([
      ['genai-bench', { train: 200, test: 800 }],
      ['genai-bench-long', { train: 200, test: 800 }],
      ['biggen', { train: 211, test: 485 }],
    ]);
    expect(scaleMeaningOf('biggen')).toBe(getPreset('prometheus').scaleMeaning);
    expect(scaleMeaningOf('manual')).toBeUndefined();
    // 1000 tasks: the split is the row's; 'manual' and 'toString' fall back to half / half.
    expect(splitSizes(1000, { preset: 'genai-bench-long' })).toEqual({ train: 200, test: 800 });
    expect(splitSizes(1000, { preset: 'manual' })).toEqual({ train: 500, test: 500 });
    expect(splitSizes(1000, { preset: 'toString' })).toEqual({ train: 500, test: 500 });
  });
});
