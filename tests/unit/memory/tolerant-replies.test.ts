/**
 * Tolerant, still-safe replies (issue #17, item 3): aliases, per-operation validation, lenient
 * JSON, dedup against every valid entry of the tool, facet/effect kept by updates, critiques that
 * fail without discarding the update.
 */
import { describe, expect, it } from 'vitest';
import { jsonValues } from '../../../src/core/llm/lenient-json';
import { ScriptedEngine, type ChatMessage } from '../../../src/core/llm';
import {
  buildMetrics,
  createBuildRun,
  DUPLICATE_SIMILARITY,
  InMemoryMemoryRepository,
  parseCritique,
  parseOperations,
  runBuild,
} from '../../../src/core/memory';
import { LEVEL_ALIASES, OP_ALIASES, aliasKey } from '../../../src/core/prompts';
import type { MemoryEntry } from '../../../src/core/records';
import { aliasOf, buildConfigFor, entry, experience, hashEmbedder } from './helpers';

const rules = { aliases: new Set(['E1', 'E2', 'E3']), pinned: new Set(['E3']) };

describe('aliases', () => {
  it('matches level and op names case-insensitively, with the documented aliases', () => {
    expect(LEVEL_ALIASES.get(aliasKey('Good'))).toBe('good');
    expect(LEVEL_ALIASES.get(aliasKey('VERY_GOOD'))).toBe('proficient');
    expect(LEVEL_ALIASES.get(aliasKey('Poor'))).toBe('bad');
    expect(OP_ALIASES.get(aliasKey('Delete'))).toBe('retire');
    for (const word of ['ok', 'fair', 'neutral', 'average', 'strength', '3']) expect(LEVEL_ALIASES.has(aliasKey(word))).toBe(false);
    const r = parseOperations('{"operations": [{"action": "Add", "level": "Good", "text": "x"}, {"Op": "EDIT", "ID": "e1", "Text": "y"}]}', rules);
    expect(r).toMatchObject({
      ok: true,
      operations: [
        { op: 'add', level: 'good', text: 'x' },
        { op: 'update', id: 'E1', text: 'y' },
      ],
      rejected: [],
    });
  });
});

describe('per-operation validation', () => {
  it('keeps the valid operations and reports each invalid one with its reason', () => {
    const r = parseOperations(
      JSON.stringify({
        operations: [
          { op: 'add', level: 'superb', text: 'a' },
          { op: 'retire', id: 'E3', reason: 'x' },
          { op: 'update', id: 'E1', text: 'b' },
          { op: 'retire', id: 'E1', reason: 'again' },
          { op: 'update', id: 'E9', text: 'c' },
          { op: 'add', level: 'bad', text: 'd' },
        ],
      }),
      rules,
    );
    expect(r.ok && r.operations).toEqual([
      { op: 'update', id: 'E1', text: 'b' },
      { op: 'add', level: 'bad', text: 'd' },
    ]);
    expect(r.rejected.map((x) => [x.index, x.reason])).toEqual([
      [0, "unknown level 'superb' (use proficient, good, bad or weak)"],
      [1, 'entry E3 is pinned and may not be changed'],
      [3, 'id E1 is already used by an earlier operation'],
      [4, "unknown id 'E9' (use only the ids shown: E1, E2, E3)"],
    ]);
  });

  it('a reply with no valid operation is an error naming the reasons; an empty list is not', () => {
    expect(parseOperations('{"operations": [{"op": "explode"}]}', rules)).toMatchObject({
      ok: false,
      error: "operations.0: unknown op 'explode' (use add, update, merge or retire)",
    });
    expect(parseOperations('{"operations": []}', rules)).toMatchObject({ ok: true, operations: [] });
    expect(parseOperations('{"operations": [{"op": "add", "level": "good", "text": "Foxes', rules)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/cut off/) as unknown,
    });
  });

  it('never infers a retire, and never salvages part of a cut-off operation', () => {
    expect(parseOperations('{"operations": [{"id": "E1", "reason": "x"}]}', rules).ok).toBe(false);
    // The nested object is a part of the cut-off operation, not an operation of its own.
    expect(parseOperations('{"operations": [{"op": "update", "entry": {"id": "E1", "text": "z"}, "te', rules).ok).toBe(false);
  });

  it('reads lenient JSON: single quotes, apostrophes, trailing commas, Python literals, unquoted keys', () => {
    expect(jsonValues("{'a': 'it doesn't', b: [1, 2,], 'c': None,}").values).toEqual([{ a: "it doesn't", b: [1, 2], c: null }]);
    expect(jsonValues('x {"a": 1} y {"b": 2}').values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(jsonValues('[{"a": 1}, {"b": 2}, {"c"').salvaged).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('critiques: aliases and lenient JSON, only bad or weak', () => {
    expect(parseCritique("{'critique': {'Level': 'WEAK', 'text': 't'}}")).toEqual({ ok: true, critique: { level: 'weak', text: 't' } });
    expect(parseCritique('{"critique": "none"}')).toEqual({ ok: true, critique: null });
    expect(parseCritique('{"critique": {"level": "good", "text": "t"}}').ok).toBe(false);
  });
});

describe('dedup and updates', () => {
  const build = async (seed: MemoryEntry[], reply: (m: readonly ChatMessage[]) => string, k = 6, critiques = false) => {
    const repo = new InMemoryMemoryRepository();
    await repo.applyUpdate([], seed, 1);
    const data = new Map([['ToolA', [experience(1, { score: 1 })]]]);
    const engine = new ScriptedEngine((m) => reply(m));
    const run = await runBuild(createBuildRun('d', buildConfigFor(['ToolA'], {}, { k, critiqueBelow: critiques ? 0.25 : null }), data, 0), {
      repo,
      engine,
      embedder: hashEmbedder(),
      experiences: data,
      now: () => 10,
    });
    return { repo, run, engine };
  };

  it('an add repeating an entry that was NOT retrieved becomes an update of it', async () => {
    expect(DUPLICATE_SIMILARITY).toBeGreaterThan(0.9);
    // k = 1: of the two bad entries only the one closest to the fox experience is shown.
    const seed = [entry('F', 'bad', 'Red fox jumping over fences'), entry('Z', 'bad', 'Mirrors and reflective water surfaces')];
    const { repo, run, engine } = await build(
      seed,
      () => JSON.stringify({ operations: [{ op: 'add', level: 'weak', text: 'Reflective water surfaces and mirrors' }] }),
      1,
    );
    expect(engine.calls[0]!.messages[1]!.content).not.toContain('Mirrors');
    const valid = await repo.validEntries('m1', 'ToolA');
    expect(valid.map((e) => e.text).sort()).toEqual(['Red fox jumping over fences', 'Reflective water surfaces and mirrors']);
    const updated = valid.find((e) => e.text.startsWith('Reflective'))!;
    expect(updated).toMatchObject({ level: 'weak', evidence: ['ev-Z', experience(1).id], support: 2 });
    expect((await repo.allEntries('m1')).find((e) => e.id === 'Z')).toMatchObject({ supersededBy: updated.id });
    expect(buildMetrics(run).operations).toMatchObject({ add: 0, update: 1 });
  });

  it('an update keeps the facet and effect of the capability entry it refines', async () => {
    const facet = { id: 'cue:counting', kind: 'cue', name: 'counting' } as unknown as MemoryEntry['facet'];
    const effect = { deltaOwn: -0.5 } as unknown as MemoryEntry['effect'];
    const seed = [entry('C', 'bad', 'Counting several objects', { facet, effect, origin: 'stats' })];
    const { repo } = await build(seed, (m) =>
      JSON.stringify({ operations: [{ op: 'update', id: aliasOf(m, 'Counting'), text: 'Counting more than three objects' }] }),
    );
    const [e] = await repo.validEntries('m1', 'ToolA');
    expect(e).toMatchObject({ text: 'Counting more than three objects', facet, effect });
  });

  it('a critique that stays invalid is reported but the update is applied', async () => {
    const { repo, run } = await build(
      [],
      (m) => (m[0]!.content.startsWith('You study') ? 'no idea' : JSON.stringify({ operations: [{ op: 'add', level: 'bad', text: 'Foxes over fences' }] })),
      6,
      true,
    );
    expect(buildMetrics(run)).toMatchObject({ applied: 1, skipped: [], critiques: 0 });
    expect((await repo.validEntries('m1', 'ToolA')).map((e) => e.text)).toEqual(['Foxes over fences']);
  });

  it('repeating an add over several experiences never creates a second entry', async () => {
    const repo = new InMemoryMemoryRepository();
    const data = new Map([['ToolA', [1, 2, 3].map((i) => experience(i))]]);
    const engine = new ScriptedEngine((_m, call) =>
      JSON.stringify({ operations: [{ op: 'add', level: 'good', text: call % 2 ? 'Foxes jumping fences' : 'foxes jumping FENCES.' }] }),
    );
    await runBuild(createBuildRun('r', buildConfigFor(['ToolA']), data, 0), { repo, engine, embedder: hashEmbedder(), experiences: data, now: () => 10 });
    const valid = await repo.validEntries('m1', 'ToolA');
    expect(valid).toHaveLength(1);
    expect(valid[0]!.support).toBe(3);
  });
});
