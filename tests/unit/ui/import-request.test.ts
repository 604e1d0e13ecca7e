import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../src/core/errors';
import { importErrorMessage, importRequestOf, type ImportSettings } from '../../../src/ui/import-request';

const file = new File(['a,b\n'], 'data.csv');
const settings = (over: Partial<ImportSettings> = {}): ImportSettings => ({
  file,
  skills: null,
  prompts: null,
  results: null,
  scenarioState: null,
  runSpec: null,
  datasetName: '',
  preset: undefined,
  mapping: {},
  scale: undefined,
  judgeColumn: undefined,
  metric: '',
  defaultTool: '',
  ...over,
});

describe('the request the import dialog sends', () => {
  it('only the file when nothing is set', () => {
    expect(importRequestOf(settings())).toEqual({ file });
  });

  it('a generic file: trimmed names, the mapping without its empty fields, the scale, the judge column, the tool for every row', () => {
    const req = importRequestOf(
      settings({
        preset: 'generic',
        datasetName: '  Herons ',
        mapping: { prompt: 'question', tool: undefined, score: 'rating' },
        scale: { min: 1, max: 5, integer: true, direction: 'higher-better' },
        judgeColumn: 'judge',
        defaultTool: ' my-model ',
      }),
    );
    expect(req).toEqual({
      file,
      datasetName: 'Herons',
      preset: 'generic',
      mapping: { prompt: 'question', score: 'rating' },
      scale: { min: 1, max: 5, integer: true, direction: 'higher-better' },
      judgeColumn: 'judge',
      defaultTool: 'my-model',
    });
  });

  it('the mapping and the tool for every row only where the format reads them; HELM’s judge column is its metric', () => {
    const helm = importRequestOf(settings({ preset: 'helm', mapping: { prompt: 'q' }, judgeColumn: 'ignored', metric: ' exact_match ', defaultTool: 'x' }));
    expect(helm).toEqual({ file, preset: 'helm', judgeColumn: 'exact_match' });
    expect(importRequestOf(settings({ preset: 'helm', judgeColumn: 'ignored', metric: '  ' }))).toEqual({ file, preset: 'helm' });
    expect(importRequestOf(settings({ preset: 'lm-eval-harness', defaultTool: 'm' })).defaultTool).toBe('m');
  });

  it('the run’s other files when chosen', () => {
    const results = new File(['{}'], 'results.json');
    expect(importRequestOf(settings({ results, skills: file }))).toEqual({ file, skills: file, results });
  });
});

describe('what the dialog says when an import stops', () => {
  it('cancelled, storage full, any other error: nothing kept', () => {
    expect(importErrorMessage(new CancelledError())).toBe('Import cancelled. Nothing from this file was kept.');
    const full = Object.assign(new Error('The browser storage is full.'), { name: 'StorageFullError' });
    expect(importErrorMessage(full)).toBe('The browser storage is full. The rows already written by this import were removed again.');
    expect(importErrorMessage('bad row 3')).toBe('bad row 3 Nothing from this file was kept.');
  });
});
