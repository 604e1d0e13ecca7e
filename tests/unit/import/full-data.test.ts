/**
 * Imports the full benchmark files from the sibling data folder (`../shared/data`, read-only) and
 * checks the verified counts and means from its README. Skipped when the folder is absent.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Experience } from '../../../src/core/types';
import { SHARED_DATA, fileSource, importFile, mean } from './helpers';

const data = (path: string) => resolve(SHARED_DATA, path);
const HAS_DATA = existsSync(data('genai_bench/genai_image.json'));

function meansBy(rows: Experience[], keep: (r: Experience) => boolean, digits: number): Record<string, string> {
  const by: Record<string, number[]> = {};
  for (const r of rows) if (keep(r)) (by[r.toolId] ??= []).push(r.score);
  return Object.fromEntries(Object.entries(by).map(([tool, scores]) => [tool, mean(scores).toFixed(digits)]));
}

// README: rater-1 means per generator.
const RATER1_MEANS = {
  DALLE_3: '3.795',
  Midjourney_6: '3.576',
  DeepFloyd_I_XL_v1: '3.359',
  SDXL_Base: '3.239',
  SDXL_Turbo: '3.176',
  SDXL_2_1: '3.024',
};

describe.skipIf(!HAS_DATA)('full data in ../shared/data', () => {
  it('genai_image.json: 1,600 × 6 × 3 rows, exactly the 2 upstream typos rejected, README rater-1 means', async () => {
    const { summary, sink } = await importFile(data('genai_bench/genai_image.json'), {
      sidecars: { skills: fileSource(data('genai_bench/genai_skills.json')) },
    });
    expect(summary.preset).toBe('genai-bench');
    expect(summary.rowsRead).toBe(28_800);
    expect(summary.accepted).toBe(28_798);
    expect(summary.rejected).toBe(2);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason, e.raw?.id])).toEqual([
      [232, 'models.DALLE_3[1]', 'score 41 is outside the scale 1–5', '00231'],
      [253, 'models.DeepFloyd_I_XL_v1[2]', 'score 33 is outside the scale 1–5', '00252'],
    ]);
    expect(meansBy(sink.rows, (r) => r.rater === 'rater1', 3)).toEqual(RATER1_MEANS);
    // Skill tags from the sidecar: prompts per skill as verified in the README.
    const perSkill: Record<string, number> = {};
    for (const r of sink.rows) if (r.rater === 'rater1' && r.toolId === 'SDXL_Base') for (const c of r.categories) perSkill[c] = (perSkill[c] ?? 0) + 1;
    expect(perSkill).toEqual({
      basic: 722,
      advanced: 871,
      attribute: 553,
      scene: 360,
      'spatial relation': 386,
      'action relation': 467,
      'part relation': 195,
      counting: 340,
      comparison: 162,
      differentiation: 296,
      negation: 347,
      universal: 147,
    });
  });

  it('ratings.csv + prompts.csv (long form) gives the same rows', async () => {
    const { summary, sink } = await importFile(data('genai_bench/ratings.csv'), {
      sidecars: { prompts: fileSource(data('genai_bench/prompts.csv')) },
    });
    expect(summary.preset).toBe('genai-bench-long');
    expect(summary).toMatchObject({ rowsRead: 28_800, accepted: 28_798, rejected: 2 });
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [1387, 'rater2', 'score 41 is outside the scale 1–5'],
      [1516, 'rater3', 'score 33 is outside the scale 1–5'],
    ]);
    expect(meansBy(sink.rows, (r) => r.rater === 'rater1', 3)).toEqual(RATER1_MEANS);
  });

  it('alpaca experiences.csv: 4,830 rows, FuseChat mean 0.63332 and the upstream win rates', async () => {
    const { summary, sink } = await importFile(data('alpaca_eval_2/experiences.csv'));
    expect(summary.preset).toBe('alpaca-eval');
    expect(summary).toMatchObject({ rowsRead: 4_830, accepted: 4_830, rejected: 0 });
    const means = meansBy(sink.rows, () => true, 5);
    expect(means['FuseChat-Llama-3.1-8B-Instruct']).toBe('0.63332');
    expect(means).toEqual({
      'FuseChat-Llama-3.1-8B-Instruct': '0.63332',
      'claude-2.1': '0.15734',
      'gpt-3.5-turbo-1106': '0.09178',
      'Qwen-14B-Chat': '0.07502',
      'gemma-2b-it': '0.03402',
      'oasst-sft-pythia-12b': '0.01790',
    });
  });

  it('vicuna_judged.jsonl: 320 × 3 judge rows with the README GPT-4 means', async () => {
    const { summary, sink } = await importFile(data('prometheus_mtbench_vicuna_gpt4/vicuna_judged.jsonl'));
    expect(summary.preset).toBe('prometheus');
    expect(summary).toMatchObject({ rowsRead: 960, accepted: 960, rejected: 0 });
    expect(meansBy(sink.rows, () => true, 2)).toEqual({ vicuna: '3.85', chat_gpt: '4.28', wizard: '4.13', 'llama-2-chat': '4.32' });
  });
});
