import type { ImportOutcome } from '../app/import/api';
import type { Send } from './send';
import type { ImportProgress } from '../core/import/types';

/** The bundled demo: served from public/demo (precached, so it loads offline). */
export const DEMO_FILES = [
  {
    label: 'GenAI-Bench (1,600 prompts × 6 image generators)',
    datasetName: 'GenAI-Bench demo',
    file: 'genai_image.json',
    skills: 'genai_skills.json',
  },
  {
    label: 'AlpacaEval 2.0 (100 instructions × 6 LLMs)',
    datasetName: 'AlpacaEval demo',
    file: 'alpaca_eval_100.csv',
  },
] as const;

async function fetchFile(name: string): Promise<File> {
  const res = await fetch(`${import.meta.env.BASE_URL}demo/${name}`);
  if (!res.ok) throw new Error(`The demo file ${name} could not be loaded (HTTP ${res.status}).`);
  return new File([await res.blob()], name);
}

/** Imports every demo dataset in turn; progress is reported per file. */
export async function loadDemo(
  send: Send,
  onProgress: (step: { index: number; label: string; progress: ImportProgress | null }) => void,
  signal?: AbortSignal,
): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (const [index, demo] of DEMO_FILES.entries()) {
    onProgress({ index, label: demo.label, progress: null });
    const file = await fetchFile(demo.file);
    const skills = 'skills' in demo ? await fetchFile(demo.skills) : undefined;
    outcomes.push(
      await send(
        'import',
        { file, datasetName: demo.datasetName, ...(skills ? { skills } : {}) },
        { ...(signal ? { signal } : {}), onProgress: (progress) => onProgress({ index, label: demo.label, progress }) },
      ),
    );
  }
  return outcomes;
}

/**
 * GenAI-Bench records no cost, so the demo's cost–quality plane would be empty. These are
 * illustrative prices per image, in US dollars, of the order hosted APIs charged in 2024 — not
 * quotes. They are stored as `example` prices: each card says "example price" until the user
 * types their own.
 */
export const DEMO_EXAMPLE_PRICES: ReadonlyMap<string, number> = new Map([
  ['DALLE_3', 0.04],
  ['Midjourney_6', 0.05],
  ['DeepFloyd_I_XL_v1', 0.012],
  ['SDXL_2_1', 0.004],
  ['SDXL_Base', 0.003],
  ['SDXL_Turbo', 0.001],
]);

/** Gives the demo's tools their example price (through the data worker), leaving any price already on a card alone. */
export async function applyDemoPrices(send: Send): Promise<number> {
  return (await send('setExamplePrices', { prices: [...DEMO_EXAMPLE_PRICES] })).set;
}
