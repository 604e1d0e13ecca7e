/**
 * Invalid model output never reaches the memory: 100 malformed replies (each given twice, so the
 * retry fails too) → every experience is skipped and logged, and the stored entries are exactly
 * what they were (0 corrupted, 0 lost). Also checks the validator on each kind directly.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedEngine, type ChatMessage } from '../../../src/core/llm';
import { buildMetrics, createBuildRun, InMemoryMemoryRepository, MAX_OPERATIONS, parseOperations, runBuild } from '../../../src/core/memory';
import { rng } from '../retrieval/rng';
import { aliasOf, buildConfigFor, entry, experience, hashEmbedder } from './helpers';

const SEED = [
  entry('A', 'proficient', 'Photorealistic landscapes with clear light'),
  entry('B', 'good', 'Single animals in natural settings'),
  entry('C', 'bad', 'Counting more than three objects'),
  entry('D', 'weak', 'Legible text inside the image'),
  entry('P', 'good', 'Pinned: portraits of one person', { pinned: true }),
];

type Maker = (m: readonly ChatMessage[], r: () => number) => string;
const valid = (m: readonly ChatMessage[]) => ({ op: 'update', id: aliasOf(m, 'Single animals'), level: 'good', text: 'Animals, alone or in pairs' });
const ops = (...list: unknown[]) => JSON.stringify({ operations: list });

/** Each kind of malformed reply; every one must be rejected as a whole. */
const KINDS: Record<string, Maker> = {
  truncated: (m, r) => {
    const full = ops(valid(m), { op: 'add', level: 'bad', text: 'Crowds of people' });
    return full.slice(0, 1 + Math.floor(r() * (full.length - 2)));
  },
  prose: () => 'I think the memory is fine as it is.',
  empty: () => '   ',
  unknownId: (_m, r) => ops({ op: 'retire', id: `E${10 + Math.floor(r() * 90)}`, reason: 'x' }),
  realIdNotAlias: () => ops({ op: 'retire', id: 'A', reason: 'x' }),
  emptyId: () => ops({ op: 'update', id: '', text: 'x' }),
  hugeText: (m, r) => ops({ op: 'update', id: aliasOf(m, 'Single animals'), text: 'x'.repeat(301 + Math.floor(r() * 5000)) }),
  hugeAdd: () => ops({ op: 'add', level: 'good', text: 'word '.repeat(100) }),
  unknownLevel: (_m, r) => ops({ op: 'add', level: ['excellent', 'GOOD', 'neutral', 3, null][Math.floor(r() * 5)], text: 'x' }),
  unknownOp: () => ops({ op: 'delete', id: 'E1' }),
  mergeOne: (m) => ops({ op: 'merge', ids: [aliasOf(m, 'Counting')], level: 'bad', text: 'x' }),
  idTwice: (m) => ops({ op: 'update', id: aliasOf(m, 'Counting'), text: 'a' }, { op: 'retire', id: aliasOf(m, 'Counting'), reason: 'b' }),
  mergeDuplicate: (m) => ops({ op: 'merge', ids: [aliasOf(m, 'Legible'), aliasOf(m, 'Legible')], level: 'weak', text: 'x' }),
  missingText: (m) => ops({ op: 'update', id: aliasOf(m, 'Single animals') }),
  blankText: () => ops({ op: 'add', level: 'bad', text: ' \n\t ' }),
  notAList: () => JSON.stringify({ operations: { op: 'add', level: 'good', text: 'x' } }),
  nullOps: () => JSON.stringify({ operations: null }),
  number: () => '42',
  tooMany: () => ops(...Array.from({ length: MAX_OPERATIONS + 1 }, (_, i) => ({ op: 'add', level: 'good', text: `t${i}` }))),
  pinned: (m) => ops({ op: 'retire', id: aliasOf(m, 'Pinned'), reason: 'x' }),
  validThenInvalid: (m) => ops(valid(m), { op: 'retire', id: 'E77', reason: 'x' }),
  wrongTypes: (m) => ops({ op: 'update', id: aliasOf(m, 'Counting'), level: 'bad', text: 12 }),
  mergeUnknown: (m) => ops({ op: 'merge', ids: [aliasOf(m, 'Counting'), 'E42'], level: 'bad', text: 'x' }),
};

describe('invalid model output', () => {
  it('100 malformed replies leave the memory exactly as it was', async () => {
    const repo = new InMemoryMemoryRepository();
    await repo.applyUpdate([], SEED, 1);
    const before = await repo.allEntries('m1');
    const names = Object.keys(KINDS);
    const r = rng(7);
    const chosen = Array.from({ length: 100 }, (_, i) => names[i < names.length ? i : Math.floor(r() * names.length)]!);
    // Each experience gets two replies (the first and the retry); both of the chosen kind.
    const engine = new ScriptedEngine((messages, call) => KINDS[chosen[call >> 1]!]!(messages, r));
    const exps = Array.from({ length: 100 }, (_, i) => experience(i + 1));
    const data = new Map([['ToolA', exps]]);
    const run = await runBuild(createBuildRun('fuzz', buildConfigFor(['ToolA']), data, 0), { repo, engine, embedder: hashEmbedder(), experiences: data, now: () => 10 });

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
