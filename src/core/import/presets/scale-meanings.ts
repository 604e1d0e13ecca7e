/**
 * What the points of a preset's score scale mean, in our own words, for the language-model prompts
 * (predict and feedback: a model that knows "3 = some details wrong" reads a score better than one
 * that sees a bare "3 of 5"). Only presets whose scale has one fixed meaning are listed; for the
 * others (judge scores, pass rates, win rates) the prompts say only the range and direction.
 */
import type { PresetId } from '../../types';

const GENAI_BENCH = [
  'Human raters judged how faithfully the generated image (or video) shows what the prompt asks for:',
  '1 = it does not show the prompt at all or shows something else;',
  '2 = it gets the main subject but misses or contradicts much of the prompt;',
  '3 = it shows the gist but several requested details (counts, attributes, relations, text) are wrong or missing;',
  '4 = it matches the prompt except for one or two small details;',
  '5 = it matches every part of the prompt.',
].join('\n');

const RUBRIC_1_5 = [
  'A judge scored the response against the task’s own rubric (shown with the task when known):',
  '1 = the rubric’s lowest description (the response fails the criterion);',
  '3 = it meets the criterion in part;',
  '5 = the rubric’s highest description (it fully meets the criterion).',
].join('\n');

const MEANINGS: ReadonlyMap<PresetId, string> = new Map<PresetId, string>([
  ['genai-bench', GENAI_BENCH],
  ['genai-bench-long', GENAI_BENCH],
  ['biggen', RUBRIC_1_5],
  ['prometheus', RUBRIC_1_5],
]);

/** The meaning of the scale of `preset` (a dataset's preset id), or undefined when it has none. */
export function scaleMeaningOf(preset: string | undefined): string | undefined {
  return preset === undefined ? undefined : MEANINGS.get(preset as PresetId);
}

/** `{ scaleMeaning }` for an options object, or `{}` when the preset has none. */
export function scaleMeaningOption(preset: string | undefined): { scaleMeaning?: string } {
  const m = scaleMeaningOf(preset);
  return m ? { scaleMeaning: m } : {};
}
