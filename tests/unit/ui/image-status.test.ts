import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../src/core/types';
import type { DatasetSummary } from '../../../src/ui/app-state.svelte';
import { isImageDataset, textDatasets } from '../../../src/ui/image-status.svelte';

const tool = (id: string, modality: Tool['modality']): Tool => ({ id, name: id, modality, description: '', createdAt: 1 });
const TOOLS = [tool('painter', 'text→image'), tool('writer', 'text→text')];
const summary = (id: string, tools: string[], total = 10): DatasetSummary => ({
  dataset: {
    id,
    name: id,
    source: 'manual',
    preset: 'manual',
    createdAt: 1,
    scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
    raterPolicy: { kind: 'mean' },
  },
  total,
  perTool: tools.map((toolId) => ({ toolId, count: total / tools.length })),
  awaiting: [],
  awaitingTotal: 0,
  imports: [],
});

describe('which datasets need images (the labelling views’ gate)', () => {
  it('a dataset is an image dataset when one of its tools makes images', () => {
    expect(isImageDataset(summary('pics', ['writer', 'painter']), TOOLS)).toBe(true);
    expect(isImageDataset(summary('text', ['writer']), TOOLS)).toBe(false);
    // A tool the registry does not know is not taken for an image tool.
    expect(isImageDataset(summary('unknown', ['ghost']), TOOLS)).toBe(false);
  });

  it('offers the text datasets that have rows, in their order', () => {
    const all = [summary('pics', ['painter']), summary('empty', ['writer'], 0), summary('b', ['writer']), summary('a', ['ghost'])];
    expect(textDatasets(all, TOOLS).map((d) => d.dataset.id)).toEqual(['b', 'a']);
  });
});
