/** Preset registry and scoring of a sample against every preset. */
import type { PresetId } from '../../types';
import type { DetectSample, Preset } from '../types';
import { alpacaEval } from './alpaca-eval';
import { biggen } from './biggen';
import { genaiBench } from './genai-bench';
import { genaiBenchLong } from './genai-bench-long';
import { generic } from './generic';
import { prometheus } from './prometheus';
import { promptfoo } from './promptfoo';
import { inspect } from './inspect';
import { lmEvalHarness } from './lm-eval-harness';
import { openaiEvals } from './openai-evals';
import { helm } from './helm';

export const PRESETS: readonly Preset[] = [
  genaiBench,
  genaiBenchLong,
  biggen,
  alpacaEval,
  prometheus,
  promptfoo,
  inspect,
  lmEvalHarness,
  openaiEvals,
  helm,
  generic,
];

export function getPreset(id: PresetId): Preset {
  const preset = PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`Unknown preset '${id}'`);
  return preset;
}

export function isPresetId(value: string): value is PresetId {
  return PRESETS.some((p) => p.id === value);
}

/** Every preset's detection score, best first (ties keep registry order, generic last). */
export function scorePresets(sample: DetectSample): { preset: PresetId; score: number }[] {
  // Rounded so reports show 0.99, not 0.9900000000000001.
  const clamp = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
  return PRESETS.map((p) => ({ preset: p.id, score: clamp(p.detect(sample)) })).sort((a, b) => b.score - a.score);
}

/**
 * Dataset defaults of a preset before anything is imported (for naming the dataset up front).
 * `scale` is null for the generic preset: its scale comes from the caller or from the data.
 */
export function presetDefaults(id: PresetId, fileName?: string): Preset['defaults'] {
  const defaults = getPreset(id).defaults;
  if (id !== 'generic' || !fileName) return defaults;
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).replace(/\.[^.]+$/, '');
  return { ...defaults, name: base || defaults.name };
}

export { alpacaEval, biggen, genaiBench, genaiBenchLong, generic, helm, inspect, lmEvalHarness, openaiEvals, prometheus, promptfoo };
export { scaleMeaningOf } from './scale-meanings';
