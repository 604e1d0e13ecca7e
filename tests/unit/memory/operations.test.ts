/**
 * The retrieval-refined update applied through the real build runner with a ScriptedEngine:
 * add / update / merge / retire change exactly what they say, history is kept, undo restores the
 * previous state, and a retry with the error message recovers from one bad reply.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedEngine, type ChatMessage } from '../../../src/core/llm';
import { createBuildRun, InMemoryMemoryRepository, latestChange, runBuild, undoLatest, buildMetrics } from '../../../src/core/memory';
import type { Experience } from '../../../src/core/types';
import { aliasOf, buildConfigFor, comparable, entry, experience, hashEmbedder } from './helpers';

const SEED = [
  entry('A', 'good', 'Handles simple everyday scenes with one subject well'),
  entry('B', 'good', 'Renders single objects cleanly on plain backgrounds'),
  entry('C', 'bad', 'Miscounts objects when more than three are asked for'),
  entry('D', 'weak', 'Cannot render legible text or signs'),
];

async function seeded() {
  const repo = new InMemoryMemoryRepository();
  await repo.put({ id: 'm1', name: 'm', datasetIds: ['ds'], embeddingModel: 'hash-64', settings: {}, createdAt: 0, updatedAt: 0 });
  await repo.applyUpdate([], SEED, 1);
  return repo;
}

async function buildOne(repo: InMemoryMemoryRepository, engine: ScriptedEngine, exps: Experience[] = [experience(1)]) {
  const data = new Map([['ToolA', exps]]);
  const run = createBuildRun('run1', buildConfigFor(['ToolA']), data, 0);
  return runBuild(run, { repo, engine, embedder: hashEmbedder(), experiences: data, now: () => 100 });
}

describe('memory update operations', () => {
  it('applies add, update, merge and retire exactly, in one change, keeping history', async () => {
    const repo = await seeded();
    const engine = new ScriptedEngine((messages: readonly ChatMessage[]) =>
      JSON.stringify({
        operations: [
          { op: 'add', level: 'proficient', text: 'Excels at animals in motion' },
          { op: 'update', id: aliasOf(messages, 'everyday scenes'), level: 'proficient', text: 'Handles everyday scenes, even with motion' },
          {
            op: 'merge',
            ids: [aliasOf(messages, 'single objects'), aliasOf(messages, 'Miscounts')],
            level: 'good',
            text: 'Clean single objects; counts up to three',
          },
          { op: 'retire', id: aliasOf(messages, 'legible text'), reason: 'contradicted by the example' },
        ],
      }),
    );
    const run = await buildOne(repo, engine);
    expect(run.state).toBe('completed');
    expect(engine.calls).toHaveLength(1);
    // All four seed entries were shown (k = 6 per level).
    for (const e of SEED) expect(engine.calls[0]!.messages[1]!.content).toContain(e.text);

    const all = await repo.allEntries('m1');
    const byId = new Map(all.map((e) => [e.id, e]));
    const valid = all.filter((e) => e.validTo === null);
    expect(valid.map((e) => e.text).sort()).toEqual([
      'Clean single objects; counts up to three',
      'Excels at animals in motion',
      'Handles everyday scenes, even with motion',
    ]);
    expect(all).toHaveLength(7);

    const expId = experience(1).id;
    const added = valid.find((e) => e.text.startsWith('Excels'))!;
    expect(added).toMatchObject({ level: 'proficient', value: 2, origin: 'llm', evidence: [expId], support: 1, validFrom: 100 });
    const updated = valid.find((e) => e.text.startsWith('Handles'))!;
    expect(updated).toMatchObject({ level: 'proficient', value: 2, evidence: ['ev-A', expId], support: 2 });
    expect(byId.get('A')).toMatchObject({ validTo: 100, supersededBy: updated.id, text: SEED[0]!.text });
    const merged = valid.find((e) => e.text.startsWith('Clean'))!;
    expect(merged).toMatchObject({ level: 'good', value: 1, evidence: ['ev-B', 'ev-C', expId], support: 3 });
    expect(byId.get('B')).toMatchObject({ validTo: 100, supersededBy: merged.id });
    expect(byId.get('C')).toMatchObject({ validTo: 100, supersededBy: merged.id });
    expect(byId.get('D')).toMatchObject({ validTo: 100, supersededBy: null, retiredReason: 'contradicted by the example' });
    expect(buildMetrics(run).operations).toEqual({ add: 1, update: 1, merge: 1, retire: 1 });
    expect(latestChange(all)).toEqual({ at: 100, restore: ['A', 'B', 'C', 'D'], remove: expect.arrayContaining([added.id, updated.id, merged.id]) as unknown });
  });

  it('undo restores the previous state exactly, change by change', async () => {
    const repo = await seeded();
    const before = comparable(await repo.allEntries('m1'));
    const engine = new ScriptedEngine((messages, call) =>
      call === 0
        ? JSON.stringify({
            operations: [
              { op: 'retire', id: aliasOf(messages, 'legible text'), reason: 'x' },
              { op: 'add', level: 'bad', text: 'Struggles with reflections' },
            ],
          })
        : JSON.stringify({
            operations: [
              { op: 'merge', ids: [aliasOf(messages, 'single objects'), aliasOf(messages, 'everyday')], level: 'good', text: 'Simple scenes and objects' },
            ],
          }),
    );
    await buildOne(repo, engine, [experience(1), experience(2)]);
    const afterFirst = await repo.allEntries('m1');
    expect(afterFirst.filter((e) => e.validTo === null)).toHaveLength(3);

    const [second] = await undoLatest(repo, 'm1', { now: () => 500 });
    expect(second!.restore.sort()).toEqual(['A', 'B']);
    const mid = await repo.allEntries('m1');
    expect(
      mid
        .filter((e) => e.validTo === null)
        .map((e) => e.text)
        .sort(),
    ).toEqual([SEED[0]!.text, SEED[1]!.text, SEED[2]!.text, 'Struggles with reflections'].sort());
    expect(mid.find((e) => e.id === 'A')).toMatchObject({ validTo: null, supersededBy: null });

    await undoLatest(repo, 'm1', { now: () => 501 });
    expect(comparable(await repo.allEntries('m1'))).toEqual(before);
    // The retired entry has its reason removed again.
    expect((await repo.allEntries('m1')).find((e) => e.id === 'D')!.retiredReason).toBeUndefined();
  });

  it('asks once more with the reason when a reply is invalid, and uses the corrected reply', async () => {
    const repo = await seeded();
    const engine = new ScriptedEngine([
      '{"operations": [{"op": "add", "level": "superb", "text": "x"}]}',
      'Sure! ```json\n{"operations": [{"op": "add", "level": "good", "text": "Good with foxes"}]}\n```',
    ]);
    const run = await buildOne(repo, engine);
    expect(engine.calls).toHaveLength(2);
    const retry = engine.calls[1]!.messages;
    expect(retry).toHaveLength(4);
    expect(retry[2]).toMatchObject({ role: 'assistant' });
    expect(retry[3]!.content).toMatch(/operations\.0: unknown level 'superb'/);
    expect(buildMetrics(run)).toMatchObject({ applied: 1, skipped: [] });
    expect((await repo.validEntries('m1', 'ToolA')).map((e) => e.text)).toContain('Good with foxes');
  });

  it('does not touch pinned entries, and a "none" reply changes nothing', async () => {
    const repo = new InMemoryMemoryRepository();
    await repo.applyUpdate([], [entry('P', 'good', 'Pinned statement about foxes', { pinned: true })], 1);
    const engine = new ScriptedEngine((m) => JSON.stringify({ operations: [{ op: 'retire', id: aliasOf(m, 'Pinned'), reason: 'no' }] }));
    const run = await buildOne(repo, engine, [experience(1)]);
    expect(buildMetrics(run).skipped[0]!.error).toMatch(/pinned/);
    const none = new ScriptedEngine(['{"operations": [{"op": "none"}]}']);
    const before = await repo.allEntries('m1');
    const run2 = await buildOne(repo, none, [experience(1)]);
    expect(buildMetrics(run2).applied).toBe(1);
    expect(await repo.allEntries('m1')).toEqual(before);
  });
});
