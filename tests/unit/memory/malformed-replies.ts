/**
 * Malformed model replies to a memory update, one maker per kind (fuzzed JSON, prose, wrong ids,
 * huge text, schema violations…) and the seed memory they are aimed at. Every one holds NO valid
 * operation, so none may change the memory. Replies that mix valid and invalid operations (valid
 * then invalid, an id twice, too many) are in the reply corpus, tests/fixtures/llm/replies/.
 * Shared by invalid-output.test.ts (InMemoryMemoryRepository) and bench/memory-bench.ts (Dexie).
 */
import { ScriptedEngine, type ChatMessage } from '../../../src/core/llm';
import { aliasOf, entry, experience } from './helpers';

export const SEED = [
  entry('A', 'proficient', 'Photorealistic landscapes with clear light'),
  entry('B', 'good', 'Single animals in natural settings'),
  entry('C', 'bad', 'Counting more than three objects'),
  entry('D', 'weak', 'Legible text inside the image'),
  entry('P', 'good', 'Pinned: portraits of one person', { pinned: true }),
];

export type Maker = (m: readonly ChatMessage[], r: () => number) => string;
const valid = (m: readonly ChatMessage[]) => ({ op: 'update', id: aliasOf(m, 'Single animals'), level: 'good', text: 'Animals, alone or in pairs' });
const ops = (...list: unknown[]) => JSON.stringify({ operations: list });

/** Each kind of malformed reply; every one must be rejected as a whole. */
export const KINDS: Record<string, Maker> = {
  // Cut inside the first operation: nothing complete to salvage.
  truncated: (m, r) => {
    const full = ops(valid(m), { op: 'add', level: 'bad', text: 'Crowds of people' });
    const firstEnd = full.indexOf('}');
    return full.slice(0, 1 + Math.floor(r() * (firstEnd - 1)));
  },
  prose: () => 'I think the memory is fine as it is.',
  empty: () => '   ',
  unknownId: (_m, r) => ops({ op: 'retire', id: `E${10 + Math.floor(r() * 90)}`, reason: 'x' }),
  realIdNotAlias: () => ops({ op: 'retire', id: 'A', reason: 'x' }),
  emptyId: () => ops({ op: 'update', id: '', text: 'x' }),
  hugeText: (m, r) => ops({ op: 'update', id: aliasOf(m, 'Single animals'), text: 'x'.repeat(301 + Math.floor(r() * 5000)) }),
  hugeAdd: () => ops({ op: 'add', level: 'good', text: 'word '.repeat(100) }),
  unknownLevel: (_m, r) => ops({ op: 'add', level: ['superb', 'neutral', 'average', 3, null][Math.floor(r() * 5)], text: 'x' }),
  unknownOp: () => ops({ op: 'explode', id: 'E1' }),
  mergeOne: (m) => ops({ op: 'merge', ids: [aliasOf(m, 'Counting')], level: 'bad', text: 'x' }),
  mergeDuplicate: (m) => ops({ op: 'merge', ids: [aliasOf(m, 'Legible'), aliasOf(m, 'Legible')], level: 'weak', text: 'x' }),
  missingText: (m) => ops({ op: 'update', id: aliasOf(m, 'Single animals') }),
  blankText: () => ops({ op: 'add', level: 'bad', text: ' \n\t ' }),
  nullOps: () => JSON.stringify({ operations: null }),
  number: () => '42',
  pinned: (m) => ops({ op: 'retire', id: aliasOf(m, 'Pinned'), reason: 'x' }),
  wrongTypes: (m) => ops({ op: 'update', id: aliasOf(m, 'Counting'), level: 'bad', text: 12 }),
  mergeUnknown: (m) => ops({ op: 'merge', ids: [aliasOf(m, 'Counting'), 'E42'], level: 'bad', text: 'x' }),
};

/**
 * The fuzz build's input: 100 experiences of ToolA, and an engine that answers each of them twice
 * (the first try and the retry) with a malformed reply of one kind — every kind once, then kinds
 * drawn with `r` (which the makers also use).
 */
export function malformedBuild(r: () => number) {
  const names = Object.keys(KINDS);
  const chosen = Array.from({ length: 100 }, (_, i) => names[i < names.length ? i : Math.floor(r() * names.length)]!);
  const engine = new ScriptedEngine((messages, call) => KINDS[chosen[call >> 1]!]!(messages, r));
  const exps = Array.from({ length: 100 }, (_, i) => experience(i + 1));
  return { engine, exps, data: new Map([['ToolA', exps]]) };
}
