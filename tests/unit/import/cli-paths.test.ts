/** `toolmem import --map` with nested paths, and the presets for evaluation logs, from the CLI (issue #18). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { toolmem as run } from '../helpers/cli';
import { FIXTURES } from './helpers';

const PROMPTFOO = join(FIXTURES, 'promptfoo/results.json');

describe('toolmem import --map with nested paths', () => {
  it('maps a promptfoo file with the generic preset: paths into each result', async () => {
    const map =
      'id=testIdx,prompt=prompt.raw,tool=provider.label,score=gradingResult.componentResults[0].score,response=response.output,feedback=gradingResult.componentResults[0].reason';
    const { code, stdout } = await run(['import', '--data', PROMPTFOO, '--preset', 'generic', '--map', map, '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.preset).toBe('generic');
    expect([summary.rowsRead, summary.accepted, summary.rejected]).toEqual([60, 60, 0]);
    // componentResults[0] is the `icontains` assertion: 1 or 0 per row.
    expect(summary.tools['terse-model'].meanScore).toBe(1);
    expect(summary.tools['sloppy-model'].meanScore).toBeCloseTo(9 / 20, 10);
    expect(summary.scale).toMatchObject({ min: 0, max: 1 });
  });

  it('refuses a path that does not parse, naming the character', async () => {
    const { code, stderr } = await run([
      'import',
      '--data',
      PROMPTFOO,
      '--preset',
      'generic',
      '--map',
      'prompt=prompt.raw,tool=provider.label,score=gradingResult.componentResults[0.score',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain("Mapping score: Path 'gradingResult.componentResults[0.score': the '[' at character 31 is never closed.");
  });

  it('detects the promptfoo preset', async () => {
    const { code, stdout } = await run(['import', '--data', PROMPTFOO, '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.preset).toBe('promptfoo');
    expect(Object.keys(summary.tools)).toEqual(['terse-model', 'sloppy-model', 'chatty-model']);
  });

  it('takes --tool for an lm-eval-harness file outside its model folder, and reads Parquet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolmem-paths-'));
    const lm = join(dir, 'samples_arith_gen_2025-03-14T10-22-07.123456.jsonl');
    writeFileSync(
      lm,
      '{"doc_id": 0, "doc": {}, "target": "4", "arguments": {"gen_args_0": {"arg_0": "2+2=", "arg_1": {}}}, "resps": [["4"]], "filtered_resps": ["4"], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}\n',
    );
    const lmRun = await run(['import', '--data', lm, '--tool', 'pythia-70m', '--json']);
    expect(lmRun.code).toBe(0);
    expect(Object.keys(JSON.parse(lmRun.stdout).tools)).toEqual(['pythia-70m']);

    const pq = join(dir, 'train.parquet');
    writeFileSync(
      pq,
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'q', data: ['a', 'b'] },
            {
              name: 'm',
              data: [
                { tool: 'x', s: 3 },
                { tool: 'y', s: 4 },
              ],
            },
          ],
        }),
      ),
    );
    const pqRun = await run(['import', '--data', pq, '--map', 'prompt=q,tool=m.tool,score=m.s', '--json']);
    expect(pqRun.code).toBe(0);
    expect(JSON.parse(pqRun.stdout)).toMatchObject({ format: 'parquet', accepted: 2 });
  });
});
