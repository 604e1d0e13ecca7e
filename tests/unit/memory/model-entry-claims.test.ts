/**
 * Issue #17 part 6: entries a model writes keep the facet and effect of the capability entry they
 * refine (unless the level turns against the measured effect), and are checked on the build's
 * held-out tasks like the analysis's own entries.
 */
import { describe, expect, it } from 'vitest';
import type { Effect, Facet } from '../../../src/core/capability/types';
import { ScriptedEngine } from '../../../src/core/llm';
import { createBuildRun, InMemoryMemoryRepository, planOperations, refinedClaim, runBuild } from '../../../src/core/memory';
import type { MemoryEntry } from '../../../src/core/records';
import { buildConfigFor, entry, experience, hashEmbedder } from './helpers';

const negation: Facet = { kind: 'cue', name: 'negation', rule: { type: 'cue', cue: 'negation' } };
const counting: Facet = { kind: 'cue', name: 'counting', rule: { type: 'cue', cue: 'counting' } };
const weakAt: Effect = { n: 20, deltaOwn: -0.9, deltaVsOthers: -0.7, ci95: [-1.1, -0.3], q: 0.01 };

function facetEntry(id: string, facet: Facet, level: MemoryEntry['level'] = 'bad'): MemoryEntry {
  return { ...entry(id, level, `Weak at ${facet.name}`), origin: 'stats', facet, effect: weakAt };
}

function plan(ops: Parameters<typeof planOperations>[0], shown: MemoryEntry[]) {
  let n = 0;
  return planOperations(ops, {
    memoryId: 'm1',
    toolId: 'ToolA',
    at: 2,
    experienceId: 'x9',
    entries: new Map(shown.map((e, i) => [`E${i + 1}`, e])),
    newId: () => `new${n++}`,
  });
}

describe('a refinement keeps the claim it refines', () => {
  it('update: facet and effect kept (same direction); the old verdict is not', () => {
    const old = { ...facetEntry('s1', negation), verdict: { verdict: 'holds', on: 'test-split', at: 1 } } as unknown as MemoryEntry;
    const p = plan([{ op: 'update', id: 'E1', level: 'weak', text: 'Drops every "without" in a prompt' }], [old]);
    expect(p.added).toHaveLength(1);
    expect(p.added[0]).toMatchObject({ facet: negation, effect: weakAt, level: 'weak', origin: 'llm', evidence: ['ev-s1', 'x9'] });
    expect(p.added[0]!.verdict).toBeUndefined();
  });

  it('update to a level against the measured effect keeps the facet, not the effect', () => {
    const p = plan([{ op: 'update', id: 'E1', level: 'good', text: 'Handles negation well' }], [facetEntry('s1', negation)]);
    expect(p.added[0]!.facet).toEqual(negation);
    expect(p.added[0]!.effect).toBeUndefined();
    expect(refinedClaim(facetEntry('s1', negation), 'bad')).toEqual({ facet: negation, effect: weakAt });
  });

  it('merge: entries of one facet keep its claim; a merge across facets claims none', () => {
    const same = plan([{ op: 'merge', ids: ['E1', 'E2'], level: 'bad', text: 'Weak at negation' }], [facetEntry('s1', negation), facetEntry('s2', negation)]);
    expect(same.added[0]).toMatchObject({ facet: negation, effect: weakAt });
    const mixed = plan(
      [{ op: 'merge', ids: ['E1', 'E2'], level: 'bad', text: 'Weak at negation and counting' }],
      [facetEntry('s1', negation), facetEntry('s2', counting)],
    );
    expect(mixed.added[0]!.facet).toBeUndefined();
    expect(mixed.added[0]!.effect).toBeUndefined();
  });
});

describe('model-written entries are checked on the held-out tasks during the build', () => {
  it('an added entry gets a verdict from the unseen tasks; without unseen tasks none', async () => {
    // Unseen: 20 fox prompts where ToolA fails (1–2) and ToolB does well (4–5), 20 lake prompts where
    // ToolA does well (4–5) and ToolB is middling (3–4). The entry's text is about the fox prompts.
    const train = new Map([
      ['ToolA', [experience(1, { score: 1 })]],
      ['ToolB', [experience(1, { toolId: 'ToolB', score: 5 })]],
    ]);
    const unseen = Array.from({ length: 40 }, (_, i) => {
      const fox = i < 20;
      const prompt = fox ? `a red fox jumping over fences number ${i}` : `a quiet blue lake at dawn, picture ${i}`;
      return [
        experience(100 + i, { prompt, score: fox ? 1 + (i % 2) : 4 + (i % 2) }),
        experience(100 + i, { prompt, toolId: 'ToolB', score: fox ? 5 - (i % 2) : 3 + (i % 2) }),
      ];
    }).flat();
    const reply = () => '{"operations": [{"op": "add", "level": "weak", "text": "Fails to show a red fox jumping over fences"}]}';
    const config = buildConfigFor(['ToolA', 'ToolB'], {}, {});
    const repo = new InMemoryMemoryRepository();
    const run = await runBuild(createBuildRun('v', config, train, 0), {
      repo,
      engine: new ScriptedEngine(reply),
      embedder: hashEmbedder(),
      experiences: train,
      unseen,
      now: () => 3,
    });
    expect(run.state).toBe('completed');
    const added = (await repo.allEntries('m1')).filter((e) => e.toolId === 'ToolA' && e.origin === 'llm');
    expect(added).toHaveLength(1);
    // The retrieval rule takes the 30 unseen tasks most like the text (the 20 fox ones first): there ToolA falls
    // further below ToolB than on the rest, so the "weak" claim holds.
    expect(added[0]!.verdict).toMatchObject({ verdict: 'holds', on: 'test-split' });

    const repo2 = new InMemoryMemoryRepository();
    await runBuild(createBuildRun('v2', config, train, 0), {
      repo: repo2,
      engine: new ScriptedEngine(reply),
      embedder: hashEmbedder(),
      experiences: train,
      now: () => 3,
    });
    expect((await repo2.allEntries('m1')).find((e) => e.toolId === 'ToolA')!.verdict).toBeUndefined();
  });
});
