/**
 * Wording of evidence-cluster entries (no LLM): the cluster's most typical task, its most
 * distinctive words, and the numbers behind the claim, e.g.
 *   Does well on tasks like "a cat sitting on a windowsill at sunset" (cat, window, sunset) —
 *   mean 4.3 vs 3.8 overall, 14 tasks
 * Text is kept within MAX_ENTRY_CHARS by clipping the quoted task.
 */
import { MAX_ENTRY_CHARS } from '../prompts/shared';
import { lexicalTokens } from '../retrieval/text-tokens';
import type { Level } from '../types';

export type EvidenceTier = 'confident' | 'tentative' | 'little';

const VERB: Readonly<Record<Level, string>> = {
  proficient: 'Excels at',
  good: 'Does well on',
  bad: 'Often falls short on',
  weak: 'Fails on',
};

/** Index (into `members`) of the member closest to the members' mean direction. */
export function typicalMember(vectors: readonly ArrayLike<number>[], members: readonly number[]): number {
  const dim = vectors[members[0]!]!.length;
  const centre = new Float64Array(dim);
  for (const i of members) for (let d = 0; d < dim; d++) centre[d] = centre[d]! + vectors[i]![d]!;
  let best = 0;
  let bestS = -Infinity;
  members.forEach((i, pos) => {
    let s = 0;
    for (let d = 0; d < dim; d++) s += vectors[i]![d]! * centre[d]!;
    if (s > bestS) {
      bestS = s;
      best = pos;
    }
  });
  return best;
}

/** What the tokenizer leaves of "doesn't", "isn't"…: not words a reader can use. */
const CONTRACTION_STEMS: ReadonlySet<string> = new Set([
  'doesn',
  'isn',
  'aren',
  'wasn',
  'weren',
  'don',
  'didn',
  'hasn',
  'haven',
  'hadn',
  'won',
  'wouldn',
  'couldn',
  'shouldn',
]);

/**
 * Words over-represented in the group: share of group texts containing the word minus the share
 * of all texts containing it; the word must occur in at least two group texts. Ties: alphabetical.
 */
export function distinctiveWords(groupTexts: readonly string[], allDocFreq: ReadonlyMap<string, number>, totalDocs: number, max = 3): string[] {
  const df = new Map<string, number>();
  for (const t of groupTexts) for (const w of new Set(lexicalTokens(t))) df.set(w, (df.get(w) ?? 0) + 1);
  const m = groupTexts.length;
  return [...df]
    .filter(([w, c]) => c >= 2 && w.length > 2 && !/^\d+$/.test(w) && !CONTRACTION_STEMS.has(w))
    .map(([w, c]) => ({ w, lift: c / m - (allDocFreq.get(w) ?? c) / totalDocs }))
    .filter((x) => x.lift > 0)
    .sort((a, b) => b.lift - a.lift || (a.w < b.w ? -1 : 1))
    .slice(0, max)
    .map((x) => x.w);
}

export function documentFrequencies(texts: readonly string[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const t of texts) for (const w of new Set(lexicalTokens(t))) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

const fmt = (x: number) => (Math.abs(x) >= 10 || Number.isInteger(x) ? x.toFixed(1) : x.toFixed(2).replace(/0$/, ''));

export function clusterEntryText(args: {
  level: Level;
  typical: string;
  words: readonly string[];
  mean: number;
  overall: number;
  size: number;
  tier: EvidenceTier;
  p: number;
}): string {
  const words = args.words.length ? ` (${args.words.join(', ')})` : '';
  const p = args.p < 0.01 ? 'p < 0.01' : `p = ${args.p.toFixed(2)}`;
  const note = args.tier === 'tentative' ? `; tentative, ${p}` : args.tier === 'little' ? '; little evidence' : '';
  const tail = `${words} — mean ${fmt(args.mean)} vs ${fmt(args.overall)} overall, ${args.size} tasks${note}`;
  const head = `${VERB[args.level]} tasks like "`;
  const room = Math.max(20, MAX_ENTRY_CHARS - head.length - tail.length - 1);
  const t = args.typical
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.。]$/, '');
  const quoted = t.length <= room ? t : `${t.slice(0, room - 1).trimEnd()}…`;
  return `${head}${quoted}"${tail}`.slice(0, MAX_ENTRY_CHARS);
}
