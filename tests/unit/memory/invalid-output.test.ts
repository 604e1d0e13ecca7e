/**
 * Invalid model output never reaches the memory: 100 malformed replies (each given twice, so the
 * retry fails too) → every experience is skipped and logged, and the stored entries are exactly
 * what they were (0 corrupted, 0 lost). Also checks the validator on each kind directly.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/llm';
import { buildMetrics, createBuildRun, InMemoryMemoryRepository, parseOperations, runBuild } from '../../../src/core/memory';
import { rng } from '../retrieval/rng';
import { buildConfigFor, hashEmbedder } from './helpers';
import { KINDS, malformedBuild, SEED } from './malformed-replies';

describe('invalid model output', () => {
  it('100 malformed replies leave the memory exactly as it was', async () => {
    const repo = new InMemoryMemoryRepository();
    await repo.applyUpdate([], SEED, 1);
    const before = await repo.allEntries('m1');
    // Each experience gets two replies (the first and the retry); both of the chosen kind.
    const { engine, exps, data } = malformedBuild(rng(7));
    const run = await runBuild(createBuildRun('fuzz', buildConfigFor(['ToolA']), data, 0), {
      repo,
      engine,
      embedder: hashEmbedder(),
      experiences: data,
      now: () => 10,
    });

    expect(run.state).toBe('completed');
    expect(engine.calls).toHaveLength(200);
    const m = buildMetrics(run);
    expect(m.skipped).toHaveLength(100);
    expect(m.applied).toBe(0);
    expect(m.skipped.map((s) => s.experienceId)).toEqual(exps.map((e) => e.id));
    for (const s of m.skipped) expect(s.error).toMatch(/^update: /);
    const after = await repo.allEntries('m1');
    expect(after).toEqual(before);
  });

  it.each(Object.keys(KINDS))('rejects a %s reply', (kind) => {
    const shown = SEED.map((e, i) => ({ ...e, alias: `E${i + 1}` }));
    const messages: ChatMessage[] = [
      { role: 'system', content: '' },
      { role: 'user', content: shown.map((e) => `[${e.alias}] (${e.level}, 1 example) ${e.text}`).join('\n') },
    ];
    const reply = KINDS[kind]!(messages, rng(1));
    const result = parseOperations(reply, { aliases: new Set(shown.map((e) => e.alias)), pinned: new Set(['E5']) });
    expect(result.ok).toBe(false);
  });
});
