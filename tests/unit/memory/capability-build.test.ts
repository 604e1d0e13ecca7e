/**
 * A build without an LLM is a capability analysis of every tool at once (src/core/capability/build.ts
 * through the build runner), on real data with the offline GloVe embedder: the GenAI-Bench slice in
 * the repo and, when /work/shared/data is present, the full GenAI-Bench with its skill tags (paper
 * split of 200 training prompts, seeds 1–3). Every entry carries its facet and effect and is backed by
 * that tool's training experiences on the facet's tasks; the memory row carries the snapshot.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadData } from '../../../src/cli/load-data';
import { applies } from '../../../src/core/capability/facets';
import { NoneEngine } from '../../../src/core/llm';
import {
  buildConfig,
  buildMetrics,
  createBuildRun,
  groundTruthExperiences,
  InMemoryMemoryRepository,
  runBuild,
  splitTasks,
  trainingByTool,
} from '../../../src/core/memory';
import { MAX_ENTRY_CHARS } from '../../../src/core/prompts';
import type { Experience } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { createTransformersEmbedder, type TransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { buildConfigFor } from './helpers';

const REPO = resolve(import.meta.dirname, '../../..');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const FULL = resolve(REPO, '../shared/data/genai_bench/genai_image.json');
const SKILLS = resolve(REPO, '../shared/data/genai_bench/genai_skills.json');

let embedder: TransformersEmbedder;
beforeAll(async () => {
  embedder = createTransformersEmbedder();
  await embedder.load();
});

async function capabilityBuild(experiences: Experience[], train?: number, seed = 0) {
  const truth = groundTruthExperiences(experiences, { kind: 'rater', rater: 'rater1' });
  const split = splitTasks(
    truth.map((e) => e.taskId),
    train === undefined ? {} : { train, seed },
  );
  const data = trainingByTool(truth, split.train);
  const repo = new InMemoryMemoryRepository();
  const config = buildConfigFor([...data.keys()], { engine: 'none', embeddingModel: embedder.id, split: { train, seed } }, { clusters: true });
  const run = await runBuild(createBuildRun('r', config, data, 0), { repo, engine: new NoneEngine(), embedder, experiences: data, now: () => 5 });
  return { run, data, entries: await repo.allEntries('m1'), memory: (await repo.get('m1'))! };
}

function checkEntries(entries: readonly MemoryEntry[], data: Map<string, Experience[]>) {
  // Every tool has exactly one profile (its overall entry), whose evidence is all its training experiences.
  for (const [tool, mine] of data) {
    const profiles = entries.filter((e) => e.toolId === tool && e.profile);
    expect(profiles.length, tool).toBe(1);
    expect(profiles[0]!.evidence.length).toBe(mine.length);
    expect(profiles[0]!.text).toMatch(/^Overall: averages /);
  }
  for (const e of entries.filter((x) => !x.profile)) {
    const mine = data.get(e.toolId)!;
    const byId = new Map(mine.map((x) => [x.id, x]));
    expect(e.origin).toBe('stats');
    expect(e.facet, e.text).toBeDefined();
    expect(['claim', 'tentative']).toContain(e.effect!.status);
    if (e.effect!.status === 'claim') expect(e.effect!.ci95[0] > 0 || e.effect!.ci95[1] < 0, e.text).toBe(true);
    expect(e.text.startsWith('Tentative: ')).toBe(e.effect!.status === 'tentative');
    expect(e.effect!.n).toBe(e.evidence.length);
    expect(e.support).toBe(e.evidence.length);
    expect(e.text.length).toBeLessThanOrEqual(MAX_ENTRY_CHARS);
    expect(e.text).toContain(`n = ${e.effect!.n.toLocaleString('en-US')}`);
    // Evidence = the tool's experiences on the facet's tasks: the rule applies to every one of them.
    for (const id of e.evidence) {
      const x = byId.get(id);
      expect(x, id).toBeDefined();
      if (e.facet!.kind !== 'theme') expect(applies({ facet: e.facet! }, x!)).toBe(true);
    }
  }
}

describe('capability build (no LLM)', () => {
  it('GenAI-Bench slice: one capability step for all tools, a snapshot on the memory row, deterministic', async () => {
    const { experiences } = await loadData({ data: SLICE });
    const { run, data, entries, memory } = await capabilityBuild(experiences);
    expect(run.state).toBe('completed');
    expect(buildConfig(run).engine).toBe('none');
    expect(buildMetrics(run)).toMatchObject({ done: 1, total: 1, llmCalls: 0 });
    checkEntries(entries, data);
    const snap = memory.capability!;
    expect(snap.tools).toEqual([...data.keys()].sort());
    expect(snap.cells.length).toBe(snap.tools.length * snap.facets.length);
    expect(buildMetrics(run).capability).toEqual(snap.report);
    // Little data, said plainly: how many tasks there are, how many a facet and a claim need, and
    // that nothing was held out to check claims on (all 20 tasks trained).
    expect(snap.report.notes[0]).toBe(
      '20 training tasks: a facet is tested when it applies to at least 5 of them and not to all; a claim needs 10 tasks of the tool inside the facet and 10 outside.',
    );
    expect(snap.report.notes.at(-1)).toBe(
      'Every task was used for training: none is held out, so no claim was checked on tasks the memory never saw (choose fewer training tasks to check them).',
    );
    const again = await capabilityBuild(experiences);
    expect(again.entries).toEqual(entries);
    expect(again.memory.capability).toEqual(snap);
  });

  it.skipIf(!existsSync(FULL))(
    'full GenAI-Bench with skills, 200 training tasks (seeds 1–3): DALLE_3 on negation is never a strength; shared difficulty is one note',
    { timeout: 120_000 },
    async () => {
      const { experiences } = await loadData({ data: FULL, skills: SKILLS });
      for (const seed of [1, 2, 3]) {
        const { data, entries, memory } = await capabilityBuild(experiences, 200, seed);
        checkEntries(entries, data);
        // On all 1,600 tasks DALLE_3 does worse than usual on negation (−0.36 vs the others): an entry,
        // when 200 tasks show it, says its lead shrinks there (its level against the others may stay
        // above them: "leads less than usual", issue #34), never that it grows.
        const negation = entries.filter((e) => e.toolId === 'DALLE_3' && /negation/.test(e.facet?.name ?? ''));
        for (const e of negation) expect(e.effect!.deltaVsOthers ?? e.effect!.deltaOwn, e.text).toBeLessThan(0);
        // Difficulty every tool shares is one dataset-level note, not a trait of each tool.
        expect(memory.capability!.note?.hard.length, `seed ${seed}`).toBeGreaterThan(0);
        for (const f of memory.capability!.note!.hard) expect(entries.filter((e) => e.facet?.name === f && e.value < 0).length).toBeLessThan(data.size);
      }
    },
  );
});
