/** `toolmem eval` on the GenAI-Bench fixture slice (20 prompts × 6 tools × 3 raters). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import type { JsonReport, JsonReportWithIntervals } from '../../../src/core/eval';
import { OFFLINE_METHODS } from '../../../src/core/predict';
import { parseSeeds } from '../../../src/cli/commands/eval';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const TOOLS = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['eval', ...args], { out: (t) => void (stdout += `${t}\n`), err: (t) => void (stderr += `${t}\n`) });
  return { code, stdout, stderr };
}

describe('toolmem eval', { timeout: 60_000 }, () => {
  it('writes the JSON summary in the fixed shape (all offline methods — memory needs vectors —, all pairs)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'toolmem-eval-')), 'eval.json');
    const { code, stdout } = await run(['--data', SLICE, '--seeds', '2', '--no-vectors', '--json', out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/10 train \/ 10 test tasks/); // genai-bench's 200/800 does not fit 20 prompts: half / half
    expect(stdout).toMatch(/Pair accuracy/);
    expect(stdout).toMatch(/95% intervals — paired bootstrap by task, 1,000 resamples/);
    expect(stdout).toMatch(/Difference to tool-mean/);
    const json = JSON.parse(readFileSync(out, 'utf8')) as JsonReportWithIntervals;
    // Every field of the original contract, in order; the intervals are added fields only.
    expect(Object.keys(json)).toEqual(['methods', 'pairs', 'baselines', 'intervals']);
    expect(json.intervals).toEqual({ method: 'paired bootstrap by task', resamples: 1000, seed: 1, level: 0.95, baseline: 'tool-mean' });
    expect(Object.keys(json.methods)).toEqual([...OFFLINE_METHODS]);
    for (const m of OFFLINE_METHODS) {
      expect(Object.keys(json.methods[m]!)).toEqual(m === 'tool-mean' ? ['tools', 'mean', 'ci95'] : ['tools', 'mean', 'ci95', 'vsBaseline']);
      const ci = json.methods[m]!.ci95;
      expect(Object.keys(ci)).toEqual(['mae', 'rmse', 'pearson', 'pairAcc', 'gapCaptured']);
      expect(ci.mae![0]).toBeLessThanOrEqual(json.methods[m]!.mean.mae!);
      expect(ci.mae![1]).toBeGreaterThanOrEqual(json.methods[m]!.mean.mae!);
      for (const v of Object.values(json.methods[m]!.vsBaseline ?? {})) expect(['better', 'same', 'worse']).toContain(v.verdict);
      expect(Object.keys(json.methods[m]!.tools)).toEqual(TOOLS);
      for (const t of TOOLS) {
        expect(Object.keys(json.methods[m]!.tools[t]!)).toEqual(['mae', 'rmse', 'pearson', 'n', 'ci95']);
        expect(json.methods[m]!.tools[t]!.n).toBe(10);
      }
      expect(Object.keys(json.methods[m]!.mean)).toEqual(['mae', 'rmse', 'pearson']);
      expect(json.pairs[m]).toHaveLength(15);
      expect(Object.keys(json.pairs[m]![0]!)).toEqual(['a', 'b', 'nUnequal', 'acc', 'f1Less', 'f1Greater']);
      expect(typeof json.baselines.oracleGapCaptured[m]).toBe('number');
    }
    expect(Object.keys(json.baselines)).toEqual(['alwaysStronger', 'oracleGapCaptured']);
    expect(json.baselines.alwaysStronger).toHaveLength(15);
    expect(Object.keys(json.baselines.alwaysStronger[0]!)).toEqual(['a', 'b', 'acc']);
    expect(json.methods['tool-mean']!.mean.pearson).toBeNull();
    expect(json.methods['tool-mean']!.ci95.pearson).toBeNull();
    expect(json.methods.knn!.vsBaseline!.mae.ci95).toHaveLength(2);
  });

  it('--json - prints only JSON; options narrow methods and pairs; same seeds → same numbers', async () => {
    const args = [
      '--data',
      SLICE,
      '--train',
      '8',
      '--test',
      '12',
      '--seeds',
      '1',
      '--methods',
      'knn,knn-difficulty',
      '--k',
      '3',
      '--cut',
      'knee',
      '--pairs',
      'DALLE_3:SDXL_2_1',
      '--json',
      '-',
    ];
    const a = await run(args);
    const b = await run(args);
    expect(a.code).toBe(0);
    const json = JSON.parse(a.stdout) as JsonReport;
    expect(Object.keys(json.methods)).toEqual(['knn', 'knn-difficulty']);
    expect(json.pairs.knn!.map((p) => `${p.a}:${p.b}`)).toEqual(['DALLE_3:SDXL_2_1']);
    expect(json.methods.knn!.tools.DALLE_3!.n).toBe(12);
    expect(a.stdout).toBe(b.stdout);
  });

  it('by default evaluates every method that needs no LLM, memory included (it needs the prompt vectors)', async () => {
    const { code, stdout } = await run(['--data', SLICE, '--seeds', '1', '--json', '-']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as JsonReport;
    expect(Object.keys(json.methods)).toEqual([...OFFLINE_METHODS, 'memory']);
    expect(Object.keys(json.methods.memory!.tools)).toEqual(TOOLS);
  });

  it('embeds prompts for the ensemble (GloVe, offline)', async () => {
    const { code, stdout } = await run(['--data', SLICE, '--seeds', '1', '--methods', 'ensemble', '--json', '-']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as JsonReport).methods.ensemble!.mean.mae).toBeGreaterThan(0);
  });

  it('exit 1 on usage errors', async () => {
    for (const args of [
      ['--data', SLICE, '--methods', 'magic'],
      ['--data', SLICE, '--methods', 'toolmem-llm'],
      ['--data', SLICE, '--methods', 'memory', '--no-vectors'],
      ['--data', SLICE, '--k', '-1'],
      ['--data', SLICE, '--seeds', '0'],
      ['--data', SLICE, '--seeds', '9-3'],
      ['--data', SLICE, '--cut', 'elbow'],
      ['--data', SLICE, '--pairs', 'DALLE_3'],
      ['--data', SLICE, '--pairs', 'DALLE_3:Nope'],
      ['--data', SLICE, '--train', '15', '--test', '15'],
      ['--seeds', '2'],
      ['--data', SLICE, '--bogus'],
    ]) {
      const { code, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(1);
      expect(stderr).toMatch(/toolmem eval: /);
    }
  });

  it('--seeds takes a count or a range: 2-3 evaluates seeds 2 and 3 (the same numbers as those seeds alone)', async () => {
    const base = ['--data', SLICE, '--train', '8', '--test', '12', '--methods', 'knn', '--no-vectors', '--json', '-'];
    const range = JSON.parse((await run([...base, '--seeds', '2-3'])).stdout) as JsonReport;
    const count = JSON.parse((await run([...base, '--seeds', '3'])).stdout) as JsonReport;
    expect(range.methods.knn!.mean.mae).not.toBe(count.methods.knn!.mean.mae); // seeds {2,3} vs {1,2,3}
    expect(parseSeeds('6-15')).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(parseSeeds('3')).toEqual([1, 2, 3]);
    expect(parseSeeds(undefined)).toEqual([1, 2, 3, 4, 5]);
    for (const bad of ['0', '5-2', '0-3', 'a-b', '1-2000', '-3', '2.5']) expect(() => parseSeeds(bad), bad).toThrow(/--seeds must be a count K/);
  });

  it('exit 2 when the data cannot be read (the real bin)', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [resolve(REPO, 'bin/toolmem.mjs'), 'eval', '--data', 'no/such/file.json'],
        { cwd: REPO, encoding: 'utf8' },
        (error, _stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read/);
  });

  it('--help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--pairs A:B/);
  });
});
