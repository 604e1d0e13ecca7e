import { withDb } from '../helpers/db';
import { describe, expect, it } from 'vitest';
import type { CapabilityCell, Facet } from '../../../src/core/capability/types';
import { experienceKey } from '../../../src/core/ids';
import type { Experience } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { CellDetail, EVIDENCE_SHOWN } from '../../../src/ui/capability-cell.svelte';

const NEGATION: Facet = { kind: 'category', name: 'negation', rule: { type: 'category', value: 'negation' } };
const exp = (taskId: string): Experience => ({
  id: experienceKey('d', taskId, 'A', 'judge'),
  datasetId: 'd',
  taskId,
  prompt: `no ${taskId}`,
  toolId: 'A',
  score: 1,
  rater: 'judge',
  scoreSource: 'judge',
  categories: ['negation'],
  importId: 'i1',
  createdAt: 1,
});
const entry = (id: string, evidence: string[], over: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  memoryId: 'm',
  toolId: 'A',
  level: 'weak',
  value: -2,
  text: `entry ${id}`,
  evidence,
  support: evidence.length,
  origin: 'stats',
  pinned: false,
  validFrom: 1,
  validTo: null,
  supersededBy: null,
  createdAt: 1,
  updatedAt: 1,
  facet: NEGATION,
  ...over,
});
const CELL = { toolId: 'A', facet: 0, entryId: 'e-written', effect: {} } as unknown as CapabilityCell;

// 10 experiences behind the written entry (more than the panel reads), 1 behind a hand edit of the same facet.
const tasks = Array.from({ length: 10 }, (_, i) => `t${i + 1}`);
const t = withDb('cell-detail', async ({ repos }) => {
  for (const id of tasks) await repos.experiences.put(exp(id));
  await repos.memories.applyUpdate(
    [],
    [
      entry(
        'e-written',
        tasks.map((id) => exp(id).id),
      ),
      entry('e-hand', [exp('t3').id], { origin: 'manual' }),
      entry('e-other', [], { facet: { ...NEGATION, name: 'counting' } }),
      entry('e-old', [], { validTo: 5 }),
    ],
    1,
  );
});

describe('CellDetail (one opened matrix cell)', () => {
  it('reads the cell’s valid entries, the written one first, and the first experiences of each', async () => {
    const d = new CellDetail(t.repos);
    await d.load('m', CELL, NEGATION);
    expect(d.entries.map((e) => e.id)).toEqual(['e-written', 'e-hand']);
    expect(d.evidenceOf('e-written').map((x) => x.taskId)).toEqual(tasks.slice(0, EVIDENCE_SHOWN));
    expect(d.evidenceOf('e-hand').map((x) => x.taskId)).toEqual(['t3']);
    expect(d.evidenceOf('e-nothing')).toEqual([]);
    expect([d.loading, d.error]).toEqual([false, null]);
  });

  it('a newer cell opened before the first finishes wins; clear empties the panel', async () => {
    const d = new CellDetail(t.repos);
    const first = d.load('m', CELL, NEGATION);
    const second = d.load('m', { ...CELL, entryId: 'e-other' }, { ...NEGATION, name: 'counting' });
    await Promise.all([first, second]);
    expect(d.entries.map((e) => e.id)).toEqual(['e-other']);
    d.clear();
    expect([d.entries, d.evidence, d.loading]).toEqual([[], [], false]);
  });
});
