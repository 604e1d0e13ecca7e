import type { Client } from '../rpc';
import type { ImportApi, ImportOutcome } from '../services/import-api';
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
  client: Client<ImportApi>,
  onProgress: (step: { index: number; label: string; progress: ImportProgress | null }) => void,
  signal?: AbortSignal,
): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (const [index, demo] of DEMO_FILES.entries()) {
    onProgress({ index, label: demo.label, progress: null });
    const file = await fetchFile(demo.file);
    const skills = 'skills' in demo ? await fetchFile(demo.skills) : undefined;
    outcomes.push(
      await client.call(
        'import',
        { file, datasetName: demo.datasetName, ...(skills ? { skills } : {}) },
        { ...(signal ? { signal } : {}), onProgress: (progress) => onProgress({ index, label: demo.label, progress }) },
      ),
    );
  }
  return outcomes;
}
