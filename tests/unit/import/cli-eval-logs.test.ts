/**
 * Issue #27 in the CLI: a HELM run folder as --data, an lm-eval samples file whose results file is
 * found beside it, logs that cannot be imported (exit 2 with the reason), a negative --scale.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinNegativeValues } from '../../../src/cli/io';
import { parseScale } from '../../../src/cli/load-data';
import type { ImportSummary } from '../../../src/core/import/types';
import { toolmem } from '../helpers/cli';
import { FIXTURES } from './helpers';

const fx = (name: string) => resolve(FIXTURES, name);
const summaryOf = (stdout: string) => JSON.parse(stdout) as ImportSummary;

describe('toolmem import on real evaluation logs', () => {
  it('a HELM run folder: the three files are read together', async () => {
    const run = await toolmem(['import', '--data', fx('helm/bbq_llama-3-70b'), '--json']);
    expect(run.code).toBe(0);
    const s = summaryOf(run.stdout);
    expect([s.preset, s.accepted, s.datasetId, Object.keys(s.tools)]).toEqual([
      'helm',
      2,
      'helm-bbq-subject-all-method-multiple-choice-joint',
      ['meta/llama-3-70b'],
    ]);
  });

  it('an lm-eval samples file takes its model from the results file beside it', async () => {
    const run = await toolmem(['import', '--data', fx('lm-eval/Qwen__Qwen3-8B/samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl'), '--json']);
    expect(run.code).toBe(0);
    expect(Object.keys(summaryOf(run.stdout).tools)).toEqual(['Qwen/Qwen3-8B']);
  });

  it('a log without samples and a results file exit 2, saying what the file holds', async () => {
    const empty = await toolmem(['import', '--data', fx('inspect/real/no-samples_0.3.95.json')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("toolmem import: The Inspect log holds no samples (status 'cancelled'");
    const results = await toolmem(['import', '--data', fx('lm-eval/Qwen__Qwen3-8B/results_2026-07-08T18-15-33.115417.json')]);
    expect(results.code).toBe(2);
    expect(results.stderr).toContain('--log_samples');
  });

  it('an .eval whose one score cannot tell the scale: exit 2 without --scale, read with --scale -25:0:real', async () => {
    const file = fx('inspect/real/log_message_deduplication_0.3.135.eval');
    const refused = await toolmem(['import', '--data', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The scores cannot tell the scale');
    const given = await toolmem(['import', '--data', file, '--scale', '-25:0:real', '--json']);
    expect(given.code).toBe(0);
    expect(summaryOf(given.stdout).scale).toEqual({ min: -25, max: 0, direction: 'higher-better', integer: false });
  });

  it('--scale takes a negative minimum as the next argument', () => {
    expect(joinNegativeValues(['--scale', '-25:0:real', '--json'], { scale: { type: 'string' }, json: { type: 'boolean' } })).toEqual([
      '--scale=-25:0:real',
      '--json',
    ]);
    expect(parseScale('-25:0:real')).toEqual({ min: -25, max: 0, direction: 'higher-better', integer: false });
  });
});
