/** The import preview reads with the import's own options: a file going into an existing dataset is checked against that dataset's scale. */
import { withDb } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';

const ctx = withDb('svc-preview', ({ repos }) => ({ client: createInThreadClient(createImportHandlers(repos)) }));
const csv = (name: string, rows: string) => new File([`prompt,model,score\n${rows}`], name);

describe('import preview', () => {
  it("uses an existing dataset's scale, as the import does", async () => {
    await ctx.client.call('import', {
      file: csv('first.csv', 'A cube,T,1\nA lamp,T,3\n'),
      datasetName: 'Small',
      preset: 'generic',
      scale: { min: 1, max: 3, direction: 'higher-better', integer: true },
    });
    const req = { file: csv('more.csv', 'A boat,T,2\nA tree,T,5\n'), datasetName: 'Small', preset: 'generic' as const };
    const preview = await ctx.client.call('preview', { ...req, rows: 8 });
    // 5 is off the dataset's 1–3 scale: rejected in the preview exactly as in the import.
    expect(preview.errors).toEqual([
      { file: 'more.csv', row: 2, column: 'score', reason: 'score 5 is outside the scale 1–3', raw: { prompt: 'A tree', model: 'T', score: '5' } },
    ]);
    const out = await ctx.client.call('import', req);
    expect(out.summary).toMatchObject({ accepted: 1, rejected: 1 });
    expect(out.record.errors.map((e) => e.row)).toEqual([2]);
  });
});
