/**
 * What the points of a dataset's scale mean (the preset's `scaleMeaning` in the preset table,
 * presets/index.ts), for the language-model prompts. Presets whose scale has no fixed meaning
 * (judge scores, pass rates, win rates) have none: the prompts then say only the range and direction.
 */
import { presetOf } from './index';

/** The meaning of the scale of `preset` (a dataset's preset id), or undefined when it has none. */
export function scaleMeaningOf(preset: string | undefined): string | undefined {
  return presetOf(preset)?.scaleMeaning;
}

/** `{ scaleMeaning }` for an options object, or `{}` when the preset has none. */
export function scaleMeaningOption(preset: string | undefined): { scaleMeaning?: string } {
  const m = scaleMeaningOf(preset);
  return m ? { scaleMeaning: m } : {};
}
