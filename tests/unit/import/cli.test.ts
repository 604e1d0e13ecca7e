/** Spawns the real `toolmem` bin (tsx-registered TypeScript) and checks output and exit codes. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// `inProcess` runs the same entry in-process (fast); spawning the bin is kept for the cases that test the bin itself.
import { toolmem as inProcess } from '../helpers/cli';
import type { ImportSummary } from '../../../src/core/import/types';
import { REPO } from './helpers';

const BIN = resolve(REPO, 'bin/toolmem.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin asynchronously, so a test can run several cases side by side (each start costs ~1 s). */
function toolmem(args: string[], cwd = REPO): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      done({ code, stdout, stderr });
    });
  });
}

type CliSummary = ImportSummary & { dryRun: boolean; stored: boolean };

async function json(args: string[]): Promise<{ code: number | null; summary: CliSummary }> {
  const { code, stdout } = await toolmem([...args, '--json']);
  return { code, summary: JSON.parse(stdout) as CliSummary };
}

describe('toolmem CLI', { timeout: 120_000 }, () => {
  it('imports genai-bench with the skills sidecar (--json)', async () => {
    const { code, summary } = await json([
      'import',
      '--data',
      'tests/fixtures/import/genai_image_slice.json',
      '--skills',
      'tests/fixtures/import/genai_skills_slice.json',
    ]);
    expect(code).toBe(0);
    expect(summary).toMatchObject({ preset: 'genai-bench', datasetId: 'genai-bench', rowsRead: 360, accepted: 358, rejected: 2, dryRun: false, stored: false });
    expect(summary.tools.DALLE_3).toMatchObject({ accepted: 59, rejected: 1 });
    expect(summary.errors[0]).toMatchObject({ row: 19, column: 'models.DALLE_3[1]', reason: 'score 41 is outside the scale 1–5' });
  });

  it('imports the other presets', async () => {
    const [alpaca, long, biggen, prometheus] = await Promise.all([
      json(['import', '--data', 'tests/fixtures/import/alpaca_experiences_slice.csv', '--dry-run']),
      json(['import', '--data', 'tests/fixtures/import/genai_ratings_slice.csv', '--prompts', 'tests/fixtures/import/genai_prompts_slice.csv']),
      json(['import', '--data', 'tests/fixtures/import/biggen_results_synthetic.csv', '--judge', 'prometheus_8x7b_bgb', '--dataset', 'My BiGGen']),
      json(['import', '--data', 'tests/fixtures/import/vicuna_judged_slice.jsonl']),
    ]);
    expect(alpaca.code).toBe(0);
    expect(alpaca.summary).toMatchObject({ preset: 'alpaca-eval', rowsRead: 12, accepted: 12, dryRun: true });
    expect(long.summary).toMatchObject({ preset: 'genai-bench-long', rowsRead: 90, accepted: 89, rejected: 1 });
    expect(biggen.summary).toMatchObject({ preset: 'biggen', judge: 'prometheus_8x7b_bgb', datasetId: 'my-biggen', accepted: 10 });
    expect(prometheus.summary).toMatchObject({ preset: 'prometheus', rowsRead: 24, accepted: 24 });
  });

  it('applies --map, --scale and --preset', async () => {
    const { code, summary } = await json([
      'import',
      '--data',
      'tests/fixtures/bad-inputs/out-of-scale.csv',
      '--preset',
      'generic',
      '--map',
      'prompt=prompt,tool=model',
      '--map',
      'score=score',
      '--scale',
      '1:5',
    ]);
    expect(code).toBe(0);
    expect(summary.scale).toEqual({ min: 1, max: 5, direction: 'higher-better', integer: true });
    expect(summary.errors.map((e) => [e.row, e.reason])).toEqual([
      [2, 'score 7 is outside the scale 1–5'],
      [3, 'score 3.5 is not a whole number; the scale 1–5 allows whole numbers only'],
    ]);
  });

  it('prints per-tool counts and the first 10 errors with row numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolmem-cli-'));
    const file = join(dir, 'scores.csv');
    const rows = ['prompt,model,score', 'ok,alpha,3', ...Array.from({ length: 12 }, (_, i) => `p${i},beta,x${i}`)];
    writeFileSync(file, rows.join('\n'));
    // From another working directory, with an absolute path.
    // A single good score cannot tell the scale (issue #27): it is given.
    const { code, stdout } = await toolmem(['import', '--data', file, '--scale', '1:5'], dir);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}alpha +1 +0$/m);
    expect(stdout).toMatch(/^ {2}beta +0 +12$/m);
    expect(stdout).toContain('First 10 of 12 errors:');
    expect(stdout).toContain("  row 2, column score: score 'x0' is not a number");
    expect(stdout).toContain("  row 11, column score: score 'x9' is not a number");
    expect(stdout).not.toContain("'x10'");
  });

  it('exits 2 when the file cannot be read at all', async () => {
    const cases: [string[], string][] = [
      [['--data', 'tests/fixtures/bad-inputs/empty.csv'], 'The file is empty: there is nothing to import.'],
      [['--data', 'tests/fixtures/does-not-exist.csv'], 'cannot read tests/fixtures/does-not-exist.csv: no such file'],
      [['--data', 'tests/fixtures/bad-inputs/truncated.json'], 'Truncated JSON: the file ends inside member 2'],
      [['--data', 'tests/fixtures/bad-inputs/unclosed-quote.csv'], 'Unclosed quote: row 2'],
      [['--data', 'tests/fixtures/import/genai_ratings_slice.csv'], 'needs the prompts sidecar'],
      [['--data', 'tests/fixtures/bad-inputs/missing-column.csv'], "No column for the required field 'tool'"],
    ];
    // The first two through the real bin (exit code plumbing), the rest in-process.
    const runs = await Promise.all(cases.map(([args], i) => (i < 2 ? toolmem : inProcess)(['import', ...args])));
    runs.forEach((run, i) => {
      const [args, message] = cases[i] as [string[], string];
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
    });
    const { code, stdout } = await inProcess(['import', '--data', 'tests/fixtures/bad-inputs/scalar.json', '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      error: {
        name: 'ParseError',
        message: 'A JSON file must hold an array or an object at the top level; this one starts with a string (line 1, column 1).',
        row: 1,
      },
    });
  });

  it('exits 1 with a usage message for bad command lines', async () => {
    const cases: string[][] = [
      ['import'],
      ['import', '--data', 'x.csv', '--scale', '5'],
      ['import', '--data', 'x.csv', '--scale', '5:1'],
      ['import', '--data', 'x.csv', '--preset', 'nope'],
      ['import', '--data', 'x.csv', '--map', 'colour=c'],
      ['import', '--data', 'x.csv', '--bogus'],
      ['frobnicate'],
      [],
    ];
    const runs = await Promise.all(cases.map((args, i) => (i < 2 ? toolmem : inProcess)(args)));
    runs.forEach((run, i) => {
      expect(run.code, (cases[i] ?? []).join(' ')).toBe(1);
      expect(run.stderr).toContain('Usage: toolmem');
    });
  });

  it('lists subcommands with --help', async () => {
    const [{ code, stdout }, sub] = await Promise.all([toolmem(['--help']), inProcess(['import', '--help'])]);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: toolmem <command> [options]');
    expect(stdout).toMatch(/^ {2}import {2}/m);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--data FILE');
  });
});

describe('toolmem import: outputs without a score (issue #26)', () => {
  it('--json adds "unscored": N (accepted rows without a score), exit 0; the text report says so', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'toolmem-unscored-')), 'outputs.csv');
    writeFileSync(path, 'id,prompt,model\np1,a red cube,sdxl\np1,a red cube,flux\np2,two cats,sdxl\n');
    // No score: the scale their labels will use cannot be told, so it is asked for (issue #38).
    const refused = await inProcess(['import', '--data', path]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The file has no score (3 outputs to label), so it cannot tell the scale their labels will use');
    const run = await inProcess(['import', '--data', path, '--scale', '1:5', '--json']);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as ImportSummary;
    expect([summary.accepted, summary.unscored, summary.rejected, summary.added]).toEqual([3, 3, 0, 0]);
    const text = await inProcess(['import', '--data', path, '--scale', '1:5']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('3 of the accepted rows have no score: outputs to label (scores given later complete them)');
  });
});
