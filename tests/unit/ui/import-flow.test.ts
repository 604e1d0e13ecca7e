import { withDb } from '../helpers/db';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CancelledError, StorageFullError } from '../../../src/core/errors';
import { createInThreadClient, type Handlers } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/app/import/handlers';
import type { ImportOutcome } from '../../../src/app/import/api';
import { createSend } from '../../../src/ui/send';
import type { DataApi } from '../../../src/ui/workers';
import { ImportFlow, importErrorMessage } from '../../../src/ui/import-flow.svelte';

const ALPACA = readFileSync('tests/fixtures/import/alpaca_experiences_slice.csv');
const t = withDb('import-flow');

function flow() {
  const outcomes: ImportOutcome[] = [];
  const f = new ImportFlow(
    createSend({ data: () => createInThreadClient<DataApi>(createImportHandlers(t.repos) as Handlers<DataApi>) }),
    (o) => void outcomes.push(o),
  );
  return { f, outcomes };
}

describe('ImportFlow (the import dialog’s steps)', () => {
  it('choose → configure with the detected preset and a preview → import → done, reported once', async () => {
    const { f, outcomes } = flow();
    expect(f.step).toBe('choose');
    await f.choose(new File([ALPACA], 'alpaca.csv', { type: 'text/csv' }));
    expect(f.step).toBe('configure');
    expect(f.preview?.format).toBe('csv');
    expect(f.preset).toBe(f.preview?.preset);
    expect(f.preview?.rows.length).toBeGreaterThan(0);
    expect(f.previewError).toBeNull();
    f.datasetName = '  Alpaca slice ';
    expect(f.request().datasetName).toBe('Alpaca slice');
    await f.start();
    expect([f.step, f.error]).toEqual(['done', null]);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.summary.accepted).toBe(12);
    expect(outcomes[0]!.createdDataset).toBe(true);
    expect(await t.repos.experiences.count()).toBe(12);
  });

  it('a file that is not a table says why in the preview; reset forgets everything', async () => {
    const { f } = flow();
    await f.choose(new File(['\u0000\u0001 not a table'], 'noise.bin'));
    expect(f.previewError).not.toBeNull();
    f.reset();
    expect([f.step, f.file, f.preview, f.previewError, f.datasetName]).toEqual(['choose', null, null, null, '']);
  });

  it('an import that stops says that nothing was kept, and what to free when storage is full', () => {
    expect(importErrorMessage(new CancelledError('stop'))).toBe('Import cancelled. Nothing from this file was kept.');
    expect(importErrorMessage(new Error('Row 3 is broken.'))).toBe('Row 3 is broken. Nothing from this file was kept.');
    const full = new StorageFullError('The browser storage is full.');
    expect(importErrorMessage(full)).toBe('The browser storage is full. The rows already written by this import were removed again.');
  });
});
