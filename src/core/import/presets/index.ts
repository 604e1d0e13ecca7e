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

/**
 * The preset table: one row per preset (id, label, detection, defaults, scale meaning, protocol
 * split), keyed by `PresetId` so the compiler rejects an id without a row or a row without an id.
 * Everything else that varies by preset reads this table: detection (`scorePresets`), the
 * prompts' scale meanings (scale-meanings.ts), the evaluation's protocol splits (eval/split.ts).
 * Key order is registry order: detection ties keep it, generic last.
 */
const TABLE: { readonly [K in PresetId]: Preset } = {
  'genai-bench': genaiBench,
  'genai-bench-long': genaiBenchLong,
  biggen,
  'alpaca-eval': alpacaEval,
  prometheus,
  promptfoo,
  inspect,
  'lm-eval-harness': lmEvalHarness,
  'openai-evals': openaiEvals,
  helm,
  generic,
};

export const PRESETS: readonly Preset[] = Object.values(TABLE);

export function isPresetId(value: string): value is PresetId {
  return Object.hasOwn(TABLE, value);
}

/** The preset of a stored id (a dataset's `preset`, which may be `manual`), or undefined. */
export function presetOf(id: string | undefined): Preset | undefined {
  return id !== undefined && isPresetId(id) ? TABLE[id] : undefined;
}

export function getPreset(id: PresetId): Preset {
  const preset = presetOf(id);
  if (!preset) throw new Error(`Unknown preset '${id}'`);
  return preset;
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
