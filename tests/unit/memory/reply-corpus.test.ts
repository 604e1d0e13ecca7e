/**
 * The reply corpus (tests/fixtures/llm/replies/): every reply through a ScriptedEngine and the real
 * build. Per reply, the memory afterwards must be exactly the context with the expected operations
 * applied — nothing else changed (0 corrupted), nothing else gone (0 lost), no second copy of an
 * entry. The share of replies whose valid operations all reach the memory is the figure in
 * docs/llm-engines.md; it must stay ≥ 90%.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScriptedEngine, type ChatMessage } from '../../../src/core/llm';
import {
  buildMetrics,
  createBuildRun,
  emptyUsage,
  EntryIndex,
  induceExperience,
  InMemoryMemoryRepository,
  runBuild,
  type Operation,
} from '../../../src/core/memory';
import { GenericLlmPredictor } from '../../../src/core/predict';
import type { Level } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { ex, set } from '../predict/helpers';
import { aliasOf, buildConfigFor, entry, experience, hashEmbedder, SCALE } from './helpers';

const DIR = new URL('../../fixtures/llm/replies/', import.meta.url);
const lines = <T>(name: string): T[] =>
  readFileSync(new URL(name, DIR), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

interface UpdateCase {
  id: string;
  shape: string;
  reply: string;
  apply: Operation[];
  rejected: number;
  expectMiss?: boolean;
}
interface CritiqueCase {
  id: string;
  shape: string;
  update: string;
  critique: string;
  apply: Operation[];
  critiqueStored: { level: Level; text: string; updates?: string } | null;
}
interface ScoreCase {
  id: string;
  shape: string;
  reply: string;
  score: number;
}

const UPDATES = lines<UpdateCase>('updates.jsonl');
const CRITIQUES = lines<CritiqueCase>('critiques.jsonl');
const SCORES = lines<ScoreCase>('scores.jsonl');

/** The five entries the prompt shows, as E1…E5 (the corpus's README). */
const CONTEXT: [string, MemoryEntry][] = [
  ['E1', entry('A', 'proficient', 'Photorealistic landscapes with clear light')],
  ['E2', entry('B', 'good', 'Single animals in natural settings')],
  ['E3', entry('P', 'good', 'Pinned: portraits of one person', { pinned: true })],
  ['E4', entry('C', 'bad', 'Counting more than three objects')],
  ['E5', entry('D', 'weak', 'Legible text inside the image')],
];

/** The prompt must show the context in the corpus's order, or the replies' ids mean other entries. */
function checkAliases(messages: readonly ChatMessage[]): void {
  for (const [alias, e] of CONTEXT) expect(aliasOf(messages, e.text)).toBe(alias);
}

/** What the valid entries must be: the context with `ops` applied (independent of plan.ts). */
function expected(ops: readonly Operation[], critique: CritiqueCase['critiqueStored'] = null): string[] {
  const memory = new Map(CONTEXT.map(([alias, e]) => [alias, `${e.level}|${e.text}`]));
  let n = 0;
  for (const op of ops) {
    if (op.op === 'add') memory.set(`new${n++}`, `${op.level}|${op.text}`);
    else if (op.op === 'update') memory.set(op.id, `${op.level ?? memory.get(op.id)!.split('|')[0]}|${op.text}`);
    else if (op.op === 'retire') memory.delete(op.id);
    else {
      for (const id of op.ids) memory.delete(id);
      memory.set(`new${n++}`, `${op.level}|${op.text}`);
    }
  }
  if (critique) memory.set(critique.updates ?? `new${n}`, `${critique.level}|${critique.text}`);
  return [...memory.values()].sort();
}

const touched = (ops: readonly Operation[], critique: CritiqueCase['critiqueStored'] = null) =>
  new Set([...ops.flatMap((o) => (o.op === 'add' ? [] : o.op === 'merge' ? o.ids : [o.id])), ...(critique?.updates ? [critique.updates] : [])]);

async function build(engine: ScriptedEngine, critiques: boolean) {
  const repo = new InMemoryMemoryRepository();
  await repo.applyUpdate(
    [],
    CONTEXT.map(([, e]) => e),
    1,
  );
  const exps = [experience(1, { score: 2 })];
  const data = new Map([['ToolA', exps]]);
  const config = buildConfigFor(['ToolA'], {}, { critiqueBelow: critiques ? 0.25 : null });
  const run = await runBuild(createBuildRun('corpus', config, data, 0), { repo, engine, embedder: hashEmbedder(), experiences: data, now: () => 10 });
  return { repo, run };
}

/** The memory after the reply, checked entry by entry; true when it is exactly what was expected. */
async function replay(
  reply: (messages: readonly ChatMessage[]) => string,
  ops: readonly Operation[],
  critique: CritiqueCase['critiqueStored'],
  critiques: boolean,
) {
  const engine = new ScriptedEngine((messages) => {
    if (!isCritique(messages)) checkAliases(messages);
    return reply(messages);
  });
  const { repo, run } = await build(engine, critiques);
  expect(run.state, run.error).toBe('completed');
  const all = await repo.allEntries('m1');
  // Never corrupted, never lost: an entry no expected operation names is exactly as it was.
  const keep = touched(ops, critique);
  for (const [alias, e] of CONTEXT) {
    if (!keep.has(alias))
      expect(
        all.find((x) => x.id === e.id),
        `${alias} untouched`,
      ).toEqual(e);
  }
  const valid = all
    .filter((e) => e.validTo === null)
    .map((e) => `${e.level}|${e.text}`)
    .sort();
  return { matches: JSON.stringify(valid) === JSON.stringify(expected(ops, critique)), valid, run };
}

const isCritique = (m: readonly ChatMessage[]) => m[0]!.content.startsWith('You study the failures');

describe('reply corpus', () => {
  it('has at least 40 replies', () => {
    expect(UPDATES.length + CRITIQUES.length + SCORES.length).toBeGreaterThanOrEqual(40);
  });

  it('update replies: valid operations applied, the rest reported, nothing else changed', async () => {
    const misses: string[] = [];
    for (const c of UPDATES) {
      const r = await replay(() => c.reply, c.apply, null, false);
      if (!r.matches) misses.push(c.id);
      if (c.expectMiss) continue;
      expect(r.valid, `${c.id} ${c.shape}`).toEqual(expected(c.apply));
      // The operations reported as not applied (induce's outcome, same reply, same context).
      const index = new EntryIndex(hashEmbedder());
      await index.add(CONTEXT.map(([, e]) => e));
      const outcome = await induceExperience(
        new ScriptedEngine(() => c.reply),
        index,
        {
          memoryId: 'm1',
          tool: { id: 'ToolA' },
          scale: SCALE,
          experience: experience(1, { score: 2 }),
          at: 10,
          newId: (() => {
            let n = 0;
            return () => `n${n++}`;
          })(),
          settings: buildConfigFor(['ToolA']).settings,
        },
        emptyUsage(),
      );
      expect(outcome.rejected, `${c.id} ${c.shape}: rejected`).toHaveLength(c.rejected);
      for (const rej of outcome.rejected) expect(rej.reason).not.toBe('');
    }
    expect(misses.sort()).toEqual(
      UPDATES.filter((c) => c.expectMiss)
        .map((c) => c.id)
        .sort(),
    );
    const share = (UPDATES.length - misses.length) / UPDATES.length;
    console.log(`reply corpus (updates): ${UPDATES.length - misses.length}/${UPDATES.length} = ${(share * 100).toFixed(1)}% yield their valid operations`);
    expect(share).toBeGreaterThanOrEqual(0.9);
  });

  it('critique replies: a failed critique never discards the update; a repeated one updates its entry', async () => {
    for (const c of CRITIQUES) {
      const r = await replay((m) => (isCritique(m) ? c.critique : c.update), c.apply, c.critiqueStored, true);
      expect(r.valid, `${c.id} ${c.shape}`).toEqual(expected(c.apply, c.critiqueStored));
      const m = buildMetrics(r.run);
      expect(m.applied, c.id).toBe(1);
      expect(m.critiques, c.id).toBe(c.critiqueStored ? 1 : 0);
    }
  });

  it('score replies: the predictor reads the score, a word included', async () => {
    const train = set([ex('t1', 'A', 3), ex('t2', 'A', 4)]);
    for (const c of SCORES) {
      const p = new GenericLlmPredictor({ engine: new ScriptedEngine([c.reply]) });
      await p.fit(train);
      expect((await p.estimate({ taskId: 'q', prompt: 'a fox' }, 'A')).score, `${c.id} ${c.shape}`).toBe(c.score);
    }
  });
});
