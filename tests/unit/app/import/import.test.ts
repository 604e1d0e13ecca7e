import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { CancelledError } from '../../../../src/core/errors';

const REPO = resolve(import.meta.dirname, '../../../..');
const file = (rel: string, name = rel.split('/').pop()!) => new File([readFileSync(resolve(REPO, rel))], name);
const LOG = 'tests/fixtures/e2e/team-eval-log.csv';

const ctx = withDb('svc', ({ repos }) => ({ client: createInThreadClient(createImportHandlers(repos)) }));

/** Every table's rows, to prove a failed operation changed nothing. */
async function snapshot() {
  return Promise.all(ctx.db.tables.filter((t) => t.name !== 'imports').map(async (t) => [t.name, await t.toArray()]));
}

describe('import service', () => {
  it('imports a generic CSV, creates the dataset and tools, and reports per-tool tallies', async () => {
    const out = await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    expect(out.createdDataset).toBe(true);
    expect(out.summary).toMatchObject({ accepted: 9, added: 9, rejected: 1, rowsRead: 10 });
    expect(out.summary.tools['assistant-a']).toMatchObject({ accepted: 5, rejected: 0, meanScore: 4.6 });
    expect(out.record).toMatchObject({ state: 'completed', accepted: 9, rejected: 1, datasetId: 'team-log' });
    expect(out.record.errors[0]).toMatchObject({ row: 8, column: 'grade' });
    expect(await ctx.repos.datasets.get('team-log')).toMatchObject({ name: 'Team log', preset: 'generic' });
    expect((await ctx.repos.tools.list()).map((t) => t.id)).toEqual(['assistant-a', 'assistant-b']);
    expect(await ctx.repos.experiences.count('team-log')).toBe(9);
  });

  it('is idempotent: the same file again adds nothing; a changed score is an update that undo reverts', async () => {
    await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    const again = await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    expect(again.summary).toMatchObject({ added: 0, unchanged: 9, updated: 0 });

    const edited = readFileSync(resolve(REPO, LOG), 'utf8').replace('assistant-b,3,', 'assistant-b,4,');
    const third = await ctx.client.call('import', {
      file: new File([edited], 'team-eval-log.csv'),
      datasetName: 'Team log',
      mapping: { id: 'case' },
      preset: 'generic',
    });
    expect(third.summary).toMatchObject({ added: 0, unchanged: 8, updated: 1 });
    const key = 'team-log|assistant-b|1|default';
    expect((await ctx.repos.experiences.get(key))?.score).toBe(4);
    await ctx.client.call('undo', { importId: third.record.id });
    expect((await ctx.repos.experiences.get(key))?.score).toBe(3);
    expect(await ctx.repos.experiences.count('team-log')).toBe(9);
  });

  it('a file that cannot be parsed stores nothing and leaves existing data untouched', async () => {
    await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    const before = await snapshot();
    await expect(ctx.client.call('import', { file: file('tests/fixtures/bad-inputs/truncated.json'), datasetName: 'Team log' })).rejects.toThrow(
      /truncated|end/i,
    );
    expect(await snapshot()).toEqual(before);
    const failed = (await ctx.repos.imports.list()).find((r) => r.fileName === 'truncated.json');
    expect(failed?.state).toBe('failed');
  });

  it('cancelling mid-way rolls back every batch already written and removes the new dataset', async () => {
    const rows = ['id,prompt,tool,score'];
    for (let i = 0; i < 5000; i++) rows.push(`${i},prompt number ${i},tool-${i % 3},${1 + (i % 5)}`);
    const big = new File([rows.join('\n')], 'big.csv');
    const abort = new AbortController();
    let batches = 0;
    const call = ctx.client.call(
      'import',
      { file: big, datasetName: 'Big', preset: 'generic' },
      {
        signal: abort.signal,
        onProgress: (p) => {
          if (p.accepted >= 2000 && batches++ === 0) abort.abort();
        },
      },
    );
    await expect(call).rejects.toBeInstanceOf(CancelledError);
    // The handler finishes its rollback after the caller was told; wait for the record to settle.
    for (let i = 0; i < 100 && (await ctx.repos.imports.list()).some((r) => r.state === 'running'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await ctx.repos.experiences.count()).toBe(0);
    expect(await ctx.repos.datasets.get('big')).toBeUndefined();
  });

  it('recover() rolls back an import that a closed tab left running', async () => {
    const out = await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    await ctx.repos.imports.put({ ...out.record, state: 'running' });
    expect(await ctx.client.call('recover', {})).toEqual({ rolledBack: 1, files: ['team-eval-log.csv'] });
    expect(await ctx.repos.experiences.count()).toBe(0);
    expect((await ctx.repos.imports.get(out.record.id))?.state).toBe('failed');
  });

  it('imports the GenAI-Bench slice with its skills sidecar and computes stats', async () => {
    const out = await ctx.client.call('import', {
      file: file('tests/fixtures/import/genai_image_slice.json', 'genai_image.json'),
      skills: file('tests/fixtures/import/genai_skills_slice.json', 'genai_skills.json'),
    });
    expect(out.summary.preset).toBe('genai-bench');
    const ds = await ctx.repos.datasets.get(out.record.datasetId);
    expect(ds?.raterPolicy).toEqual({ kind: 'rater', rater: 'rater1' });
    expect(ds?.scale).toEqual({ min: 1, max: 5, direction: 'higher-better', integer: true });
    const stats = await ctx.client.call('stats', { datasetId: out.record.datasetId });
    expect(stats.bins).toEqual(['1', '2', '3', '4', '5']);
    expect(stats.tools).toHaveLength(6);
    expect(stats.raters.map((r) => r.rater)).toEqual(['rater1', 'rater2', 'rater3']);
    const total = stats.tools.reduce((s, t) => s + t.n, 0);
    expect(total).toBe(out.summary.accepted);
    const cats = (await ctx.repos.experiences.byDataset(out.record.datasetId)).find((e) => e.taskId === '00000')?.categories;
    expect(cats).toEqual(expect.arrayContaining(['basic', 'attribute', 'scene']));
  });
});

describe('attaching images', () => {
  const png = (path: string) => {
    const f = new File([readFileSync(resolve(REPO, 'tests/fixtures/images/genai', path))], path.split('/').pop()!, { type: 'image/png' });
    Object.defineProperty(f, 'webkitRelativePath', { value: `genai/${path}` });
    return f;
  };

  it('links images to every rater row of the matching tool and task, lists the rest, and survives a re-import', async () => {
    const out = await ctx.client.call('import', { file: file('tests/fixtures/import/genai_image_slice.json', 'genai_image.json'), datasetName: 'G' });
    const res = await ctx.client.call('attachImages', {
      datasetId: out.record.datasetId,
      files: [png('DALLE_3/00000.png'), png('SDXL_2_1/00000.png'), png('Imagen_9/00000.png')],
    });
    expect(res).toMatchObject({ matched: 2, linkedExperiences: 6, rowsWithoutImage: out.summary.accepted - 6 });
    expect(res.unmatchedFiles).toEqual([{ name: 'genai/Imagen_9/00000.png', reason: 'no tool named Imagen_9 in this dataset' }]);
    const rows = await ctx.repos.experiences.byTask('g', '00000');
    const dalle = rows.filter((r) => r.toolId === 'DALLE_3');
    expect(dalle.map((r) => r.imageId)).toEqual(['img:g:DALLE_3/00000', 'img:g:DALLE_3/00000', 'img:g:DALLE_3/00000']);
    const img = await ctx.repos.images.get('img:g:DALLE_3/00000');
    expect(img).toMatchObject({ datasetId: 'g', name: 'genai/DALLE_3/00000.png', mime: 'image/png' });
    expect(img?.blob.size).toBe(readFileSync(resolve(REPO, 'tests/fixtures/images/genai/DALLE_3/00000.png')).length);

    // Re-importing the ratings (which carry no image) keeps the attached images.
    const again = await ctx.client.call('import', { file: file('tests/fixtures/import/genai_image_slice.json', 'genai_image.json'), datasetName: 'G' });
    expect(again.summary).toMatchObject({ added: 0, updated: 0 });
    expect((await ctx.repos.experiences.get(dalle[0]!.id))?.imageId).toBe('img:g:DALLE_3/00000');
  });

  it('refuses a pattern without <tool> when the dataset has several tools', async () => {
    const out = await ctx.client.call('import', { file: file('tests/fixtures/import/genai_image_slice.json', 'genai_image.json'), datasetName: 'G' });
    await expect(
      ctx.client.call('attachImages', { datasetId: out.record.datasetId, files: [png('DALLE_3/00000.png')], pattern: '<id>.<ext>' }),
    ).rejects.toThrow(/must contain <tool>/);
  });
});

describe('malformed files never change what is stored', () => {
  const corpus = [
    'unclosed-quote.csv',
    'missing-column.csv',
    'empty.csv',
    'semicolon.csv',
    'non-numeric-score.csv',
    'duplicate-rows.csv',
    'latin1.csv',
    'truncated.json',
    'bad-line.jsonl',
    'scalar.json',
    'field-count.csv',
    'out-of-scale.csv',
    'near-miss-tool.csv',
    'header-only.csv',
    'numeric-header.csv',
  ];

  async function tableDigest(): Promise<string> {
    const parts: string[] = [];
    for (const t of ctx.db.tables) {
      if (t.name === 'imports') continue; // the failed import's own record is expected
      parts.push(`${t.name}:${JSON.stringify(await t.toArray())}`);
    }
    const bytes = new TextEncoder().encode(parts.join('\n'));
    return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
  }

  it.each(corpus)('%s into an existing dataset: fails with a message or rejects rows, and keeps the stored rows', async (name) => {
    await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    const before = await tableDigest();
    const count = await ctx.repos.experiences.count();
    // Into the same dataset with the generic preset and the Team log's scale: nothing stored may change.
    const res = await ctx.client.call('import', { file: file(`tests/fixtures/bad-inputs/${name}`), datasetName: 'Team log', preset: 'generic' }).then(
      (o) => o,
      (e: Error) => e,
    );
    if (res instanceof Error) {
      expect(res.message.length).toBeGreaterThan(20);
      expect(await tableDigest()).toBe(before);
    } else {
      // Readable files may add their valid rows, but never touch the 9 rows stored before.
      expect(res.summary.updated).toBe(0);
      expect(await ctx.repos.experiences.count()).toBe(count + res.summary.added);
      if (res.summary.added === 0) expect(await tableDigest()).toBe(before);
    }
  });
});

describe('experiences export', () => {
  it('exports CSV that imports again with the generic preset and no mapping, losing nothing', async () => {
    await ctx.client.call('import', { file: file(LOG), datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    const before = await ctx.repos.experiences.byDataset('team-log');
    const csv = await ctx.client.call('exportExperiences', { datasetId: 'team-log', format: 'csv' });
    const text = await csv.text();
    expect(text.split('\n')[0]).toBe(
      'dataset,id,prompt,tool,score,rater,human,score_source,response,feedback,feedback_generated,rubric,category,image,image_id',
    );
    expect(text).toContain('"Red leaves drift and fall\nquiet paths of amber light\nthe year breathes slowly"');

    const again = await ctx.client.call('import', { file: new File([text], 'team-log-export.csv'), datasetName: 'Round trip' });
    expect(again.summary).toMatchObject({ preset: 'generic', accepted: 9, rejected: 0 });
    const after = await ctx.repos.experiences.byDataset('round-trip');
    const strip = (rows: typeof before) =>
      rows
        .map(({ taskId, prompt, toolId, score, rater, response, feedback, categories }) => ({
          taskId,
          prompt,
          toolId,
          score,
          rater,
          response,
          feedback,
          categories,
        }))
        .sort((a, b) => (a.taskId + a.toolId).localeCompare(b.taskId + b.toolId));
    expect(strip(after)).toEqual(strip(before));
  });

  it('exports JSONL with the human flag', async () => {
    await ctx.client.call('import', { file: file('tests/fixtures/import/alpaca_experiences_slice.csv'), datasetName: 'A' });
    const lines = (await (await ctx.client.call('exportExperiences', { datasetId: 'a', format: 'jsonl' })).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(await ctx.repos.experiences.count('a'));
    expect(lines[0]).toMatchObject({ dataset: 'a', human: false, score_source: 'judge' });
  });
});
