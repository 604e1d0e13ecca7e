/**
 * Issue #26 through the data worker's handlers over fake-IndexedDB: an import without scores stores
 * its rows as label items (the Label queue's outputs awaiting labels), images attach to them, the
 * Data page's counts tell scored from awaiting, a label and a later import with scores complete the
 * same output (same item id), and undoing the import removes what it added.
 */
import { withDb } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { createLabelHandlers } from '../../../../src/app/label/label';

const ctx = withDb('unscored-svc', ({ repos }) => ({ client: createInThreadClient({ ...createImportHandlers(repos), ...createLabelHandlers(repos) }) }));

const OUTPUTS = 'id,prompt,model\np1,a red cube,sdxl\np1,a red cube,flux\np2,two cats,sdxl\np2,two cats,flux\n';
const csv = (text: string, name = 'outputs.csv') => new File([text], name, { type: 'text/csv' });
/** The scale the labels of these outputs will use: a file without a score cannot tell it (issue #38). */
const SCALE = { min: 1, max: 5, direction: 'higher-better', integer: true } as const;
const png = (path: string) => {
  const f = new File([new Uint8Array([137, 80, 78, 71])], path.split('/').pop()!, { type: 'image/png' });
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
};

describe('outputs imported without a score', () => {
  it('become the dataset, its tools and its Label queue; the counts tell awaiting from scored', async () => {
    const out = await ctx.client.call('import', { file: csv(OUTPUTS), datasetName: 'Mine', scale: SCALE });
    expect(out.summary).toMatchObject({ rowsRead: 4, accepted: 4, unscored: 4, added: 0, rejected: 0 });
    expect(out.createdDataset).toBe(true);
    expect(out.record).toMatchObject({ state: 'completed', unscored: 4 });
    expect((await ctx.repos.tools.list()).map((t) => t.id)).toEqual(['flux', 'sdxl']);
    expect([...(await ctx.repos.labels.awaiting('mine'))]).toEqual([
      ['flux', 2],
      ['sdxl', 2],
    ]);
    const queue = await ctx.client.call('labelQueue', { filter: { datasetIds: ['mine'], mode: 'unlabelled-by-me', order: 'task' }, me: 'ann' });
    expect(queue.ids).toEqual(['mine|p1|flux', 'mine|p1|sdxl', 'mine|p2|flux', 'mine|p2|sdxl']);
  });

  it('get images attached by the <tool>/<id>.<ext> pattern, which marks their tools as image tools', async () => {
    await ctx.client.call('import', { file: csv(OUTPUTS), datasetName: 'Mine', scale: SCALE });
    const res = await ctx.client.call('attachImages', {
      datasetId: 'mine',
      files: [png('images/sdxl/p1.png'), png('images/flux/p2.png'), png('images/other/p9.png')],
    });
    expect(res).toMatchObject({ matched: 2, linkedExperiences: 0, linkedItems: 2, rowsWithoutImage: 2 });
    expect(res.unmatchedFiles).toEqual([{ name: 'images/other/p9.png', reason: 'no tool named other in this dataset' }]);
    const items = await ctx.repos.labels.items('mine');
    expect(items.find((i) => i.id === 'mine|p1|sdxl')?.imageId).toBe('img:mine:sdxl/p1');
    expect((await ctx.repos.images.get('img:mine:sdxl/p1'))?.name).toBe('images/sdxl/p1.png');
    expect((await ctx.repos.tools.get('sdxl'))?.modality).toBe('text→image');
    // A re-import of the same file keeps the attached image and the first import as the owner.
    const again = await ctx.client.call('import', { file: csv(OUTPUTS), datasetName: 'Mine', scale: SCALE });
    const kept = (await ctx.repos.labels.items('mine')).find((i) => i.id === 'mine|p1|sdxl');
    expect(kept?.imageId).toBe('img:mine:sdxl/p1');
    expect(kept?.importId).not.toBe(again.record.id);
  });

  it('a label and a later import with scores complete the same outputs', async () => {
    await ctx.client.call('import', { file: csv(OUTPUTS), datasetName: 'Mine', scale: SCALE });
    const [item] = (await ctx.repos.labels.items('mine')).filter((i) => i.id === 'mine|p1|sdxl');
    const built = await ctx.client.call('labelQueue', { filter: { datasetIds: ['mine'], mode: 'all', order: 'task' }, me: 'ann' });
    const shown = { queue: built.queue, datasetId: 'mine', taskId: 'p1', toolId: 'sdxl', rater: 'ann' };
    await ctx.client.call('saveLabel', {
      label: {
        id: 'mine|sdxl|p1|ann',
        datasetId: 'mine',
        taskId: 'p1',
        toolId: 'sdxl',
        prompt: item!.prompt,
        score: 4,
        rater: 'ann',
        scoreSource: 'human',
        categories: [],
        importId: 'manual',
        createdAt: 1,
      },
      shown,
    });
    expect([...(await ctx.repos.labels.awaiting('mine'))]).toEqual([
      ['flux', 2],
      ['sdxl', 1],
    ]);
    await ctx.client.call('import', { file: csv('id,prompt,model,score\np2,two cats,flux,5\n', 'scores.csv'), datasetName: 'Mine' });
    expect([...(await ctx.repos.labels.awaiting('mine'))]).toEqual([
      ['flux', 1],
      ['sdxl', 1],
    ]);
    const queue = await ctx.client.call('labelQueue', { filter: { datasetIds: ['mine'], mode: 'all', order: 'task' }, me: 'ann' });
    // Still four outputs: the scores joined them, none became a second item.
    expect([queue.total, queue.ids.length, queue.mine]).toEqual([4, 4, 1]);
  });

  it('undoing the import removes its outputs (and the dataset it created)', async () => {
    const out = await ctx.client.call('import', { file: csv(OUTPUTS), datasetName: 'Mine', scale: SCALE });
    await ctx.client.call('undo', { importId: out.record.id });
    expect(await ctx.repos.labels.items('mine')).toEqual([]);
    expect(await ctx.repos.datasets.get('mine')).toBeUndefined();
  });

  it('countRows reads the whole file and stores nothing; with no score it says the scale must be given', async () => {
    expect(await ctx.client.call('countRows', { file: csv(OUTPUTS) })).toMatchObject({
      rowsRead: 4,
      scored: 0,
      unscored: 4,
      rejected: 0,
      scaleUndecided: true,
    });
    expect(await ctx.client.call('countRows', { file: csv(OUTPUTS), scale: SCALE })).toMatchObject({
      scale: SCALE,
      scaleUndecided: false,
      scaleNote: 'given for this import',
    });
    expect(await ctx.repos.datasets.list()).toEqual([]);
  });

  it('a file with no score and no scale is refused before anything is stored, asking for the scale', async () => {
    await expect(ctx.client.call('import', { file: csv(OUTPUTS), datasetName: 'Mine' })).rejects.toThrow(
      /^The file has no score \(4 outputs to label\), so it cannot tell the scale their labels will use\. Give the scale/,
    );
    expect(await ctx.repos.datasets.list()).toEqual([]);
    expect(await ctx.repos.labels.items('mine')).toEqual([]);
  });
});
