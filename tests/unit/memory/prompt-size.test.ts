/**
 * The update prompt's size depends on k and the experience, not on the memory: measured prompt
 * tokens for the same experience as the memory grows from 10 to 5,000 entries of one tool.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../../../src/core/llm';
import { EntryIndex, induceExperience, emptyUsage, DEFAULT_INDUCE_SETTINGS } from '../../../src/core/memory';
import { MAX_ENTRY_CHARS, PROMPT_LIMITS } from '../../../src/core/prompts';
import { LEVELS } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { rng } from '../retrieval/rng';
import { entry, experience, hashEmbedder, SCALE } from './helpers';

const WORDS =
  'fox cat dog tree river city night light shadow count three text sign face hand crowd glass water snow fire red blue small large left right above below behind style photo painting sketch'.split(
    ' ',
  );

function memory(n: number): MemoryEntry[] {
  const r = rng(n);
  return Array.from({ length: n }, (_, i) => {
    const len = 8 + Math.floor(r() * 20);
    const text = Array.from({ length: len }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
    return entry(`e${i}`, LEVELS[i % 4]!, text);
  });
}

async function promptTokens(n: number): Promise<{ tokens: number; shown: number }> {
  const embedder = hashEmbedder();
  const index = new EntryIndex(embedder);
  await index.add(memory(n));
  const engine = new ScriptedEngine(['{"operations": []}']);
  const long = experience(1, {
    prompt: 'a red fox and three dogs under a blue night sky by the river '.repeat(20),
    feedback: 'The count was wrong. '.repeat(50),
    rubric: 'Judge the alignment. '.repeat(60),
  });
  const out = await induceExperience(
    engine,
    index,
    {
      memoryId: 'm1',
      tool: { id: 'ToolA' },
      scale: SCALE,
      experience: long,
      at: 1,
      newId: () => 'x',
      settings: { ...DEFAULT_INDUCE_SETTINGS, critiqueBelow: null },
    },
    emptyUsage(),
  );
  return { tokens: engine.calls[0]!.promptTokens, shown: out.contextSize };
}

describe('update prompt size', () => {
  it('stays flat (±10%) from the point every level holds k entries up to 5,000 entries', async () => {
    const sizes = [10, 24, 100, 1000, 5000];
    const measured = new Map<number, { tokens: number; shown: number }>();
    for (const n of sizes) measured.set(n, await promptTokens(n));
    console.log('prompt tokens by memory size:', Object.fromEntries([...measured].map(([n, m]) => [n, `${m.tokens} tokens, ${m.shown} entries shown`])));
    const k = DEFAULT_INDUCE_SETTINGS.k;
    expect(measured.get(10)!.shown).toBe(10);
    for (const n of [24, 100, 1000, 5000]) expect(measured.get(n)!.shown).toBe(4 * k);
    const ref = measured.get(5000)!.tokens;
    for (const n of [24, 100, 1000]) expect(Math.abs(measured.get(n)!.tokens - ref) / ref).toBeLessThanOrEqual(0.1);
    // Below 4k entries fewer are shown, so the prompt is smaller, never larger.
    expect(measured.get(10)!.tokens).toBeLessThan(ref);
    // A hard ceiling from the clipping limits alone: the memory size does not appear in it.
    const ceiling = Math.ceil(
      (4 * k * (MAX_ENTRY_CHARS + 40) + PROMPT_LIMITS.task + PROMPT_LIMITS.output + PROMPT_LIMITS.rubric + PROMPT_LIMITS.feedback + 4000) / 2,
    );
    for (const m of measured.values()) expect(m.tokens).toBeLessThan(ceiling);
  });
});
