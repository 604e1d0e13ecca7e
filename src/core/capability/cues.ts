/**
 * Cue detectors: facets read from the prompt text alone, so they apply to any task of any dataset,
 * including free text typed in Predict or sent by an agent. Every rule is a whole-word,
 * case-insensitive match; a word counts only when no letter, digit or hyphen touches it, so
 * "notebook", "someone", "tent", "understand" and "left-handed" never fire. Phrases that contain a
 * trigger but mean something else are masked out first (the "not" column). Documented in
 * docs/memory.md ("Facets"); measured against GenAI-Bench's skill tags there.
 *
 * | id           | suits | fires on                                                      | not                                  |
 * |--------------|-------|---------------------------------------------------------------|--------------------------------------|
 * | negation     | any   | no, not, without, none, neither, nor, never, nothing, nobody, | not only, nothing but, no matter, no |
 * |              |       | nowhere, no one, cannot, …n't, non-/not- words (non-blue)     | doubt, none other than, No. 5;       |
 * |              |       |                                                               | "except" (an exception, not absence) |
 * | counting     | any   | two … twenty, thirty … thousand, dozen, pair of, couple of,   | "one" (mostly a pronoun: the one on  |
 * |              |       | digits                                                        | the left), years (1920s), digits in  |
 * |              |       |                                                               | quoted text to render ('Open 24 h')  |
 * | spatial      | image | above, below, beneath, under, behind, beside, between, atop,  | "left" as a verb, left-handed, right |
 * |              |       | inside, near, opposite, over, across, around, among, against, | now, the right answer, under + a     |
 * |              |       | along, into, onto, through, in front of, next to, on top of,  | number, on a sunny day, on the phone |
 * |              |       | on a/the …, left/right as sides (on the left, right hand)     |                                      |
 * | comparison   | any   | than, as … as, the same … as, compared to/with, the most/     | rather than, other than, as well as, |
 * |              |       | least, different, varying, outnumber, listed comparatives and | as soon/long/far/much as, no longer; |
 * |              |       | superlatives (taller, tallest)                                | nouns like cooler, lighter, cleaner  |
 * | universal    | any   | all, every, each, everyone, everything, everybody, both,      | at all, after all, all right, above  |
 * |              |       | neither, none of, each other (GenAI-Bench tags these too)     | all, every now and then              |
 * | text-render  | image | a quoted span ('Open', "SALE", “…”), that says/reads, with    | apostrophes (it's, dogs' bowl),      |
 * |              |       | the words/text/caption/letters, written on                    | one-letter quotes ('n')              |
 * | and-list     | image | two or more "and", or a comma list closed by "and"            | black and white, salt and pepper, and|
 * |              |       | (a cat, a dog and a bird)                                     | then, "and" in quoted text           |
 * | people       | image | man, women, person, child, boy, crowd, chef, doctor, couple,  | snowman, man-made, a couple of,      |
 * |              |       | hands, faces, …                                               | woman-shaped, quoted text            |
 * | count-3      | any   | the counting cue's numbers except two / pair / couple / < 3   | two dogs, a pair of shoes, 2 cats    |
 * | short-prompt | any   | at most 6 words (about the shortest 10% of GenAI-Bench)       |                                      |
 * | words-12     | image | at least 12 words (about half of GenAI-Bench)                 |                                      |
 * | words-16     | image | at least 16 words (about a quarter of GenAI-Bench)            |                                      |
 * | long-prompt  | image | at least 20 words (about the longest 10% of GenAI-Bench)      |                                      |
 * | long-input   | text  | at least 60 words (about the longest 10% of AlpacaEval)       |                                      |
 * | code         | text  | ```, Python/JavaScript/SQL/HTML/regex/bash, source code,      | zip/dress/Morse/area/postal code,    |
 * |              |       | programming, algorithm, debug, compile, write a program/      | code of conduct; Java and Rust (an   |
 * |              |       | script/function, def f(, console.log, #include                | island, metal) are not listed        |
 * | math         | text  | 3 + 4, 3 - 4, x = 2, f(x), equation, calculate, compute,      | calculated, computer, 3-4, 24/7,     |
 * |              |       | integral, derivative, algebra, probability, theorem, solve for| solve a conflict                     |
 * | role-play    | text  | role-play, pretend to be/you are, act as (starting a sentence | acts as, as a result, as a child,    |
 * |              |       | or after "please"/"want you to"), imagine you are, play the   | the role of mitochondria             |
 * |              |       | role, in character, a prompt opening "As a pirate, …"         |                                      |
 * | multi-turn   | text  | two or more lines opening User:/Assistant:/Human:/AI:/System: | one "User:" line (a label)           |
 * |              |       | (optionally after ###), or [INST]                             |                                      |
 * | format       | text  | JSON, YAML, CSV, XML, Markdown, bullet points, numbered list, | a kitchen table, a table with legs,  |
 * |              |       | in/as/into/create a table, tabular, in the following format,  | format a hard drive                  |
 * |              |       | all caps, uppercase                                           |                                      |
 * | length-limit | text  | 100 words, 3 sentences, a 500-word, in one sentence, under/   | short story, a brief history         |
 * |              |       | within/at most/no more than N, briefly, concise, word limit   |                                      |
 */

import { findAll, masked, RULES } from './cue-rules';

export type CueModality = 'any' | 'image' | 'text';

export interface Cue {
  id: string;
  /** Reader's name of the cue ("negation"). */
  label: string;
  /** Words shown next to the label when the data gives none ("no", "without", "not"). */
  triggers: readonly string[];
  /** Which tasks the cue means something for: image prompts, text instructions, or both. */
  modality: CueModality;
  test(prompt: string): boolean;
}

const wordCount = (t: string) => t.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

const SMALL_NUMBERS = new Set(['two', 'pair', 'pairs', 'couple', '2']);

const lengthTests: ReadonlyMap<string, (n: number) => boolean> = new Map([
  ['short-prompt', (n: number) => n > 0 && n <= 6],
  ['words-12', (n: number) => n >= 12],
  ['words-16', (n: number) => n >= 16],
  ['long-prompt', (n: number) => n >= 20],
  ['long-input', (n: number) => n >= 60],
]);

const META: readonly { id: string; label: string; modality: CueModality; triggers: string[] }[] = [
  { id: 'negation', label: 'negation', modality: 'any', triggers: ['no', 'not', 'without'] },
  { id: 'counting', label: 'numbers and counting', modality: 'any', triggers: ['two', 'three', 'a pair of'] },
  { id: 'spatial', label: 'spatial relations', modality: 'image', triggers: ['behind', 'next to', 'on the left'] },
  { id: 'comparison', label: 'comparison', modality: 'any', triggers: ['than', 'taller', 'the same as'] },
  { id: 'universal', label: 'universal quantifiers', modality: 'any', triggers: ['all', 'every', 'each'] },
  { id: 'text-render', label: 'text to render', modality: 'image', triggers: ['quoted text', 'that says'] },
  { id: 'and-list', label: 'several things joined by "and"', modality: 'image', triggers: ['and'] },
  { id: 'people', label: 'people', modality: 'image', triggers: ['man', 'woman', 'people'] },
  { id: 'count-3', label: 'three or more of a thing', modality: 'any', triggers: ['three', 'four', 'five'] },
  { id: 'short-prompt', label: 'short prompts (≤ 6 words)', modality: 'any', triggers: [] },
  { id: 'words-12', label: 'prompts of 12 words or more', modality: 'image', triggers: [] },
  { id: 'words-16', label: 'prompts of 16 words or more', modality: 'image', triggers: [] },
  { id: 'long-prompt', label: 'long prompts (≥ 20 words)', modality: 'image', triggers: [] },
  { id: 'long-input', label: 'long inputs (≥ 60 words)', modality: 'text', triggers: [] },
  { id: 'code', label: 'code', modality: 'text', triggers: ['code', 'Python', 'function'] },
  { id: 'math', label: 'math', modality: 'text', triggers: ['calculate', 'equation', 'solve for'] },
  { id: 'role-play', label: 'role-play', modality: 'text', triggers: ['pretend', 'act as', 'role-play'] },
  { id: 'multi-turn', label: 'multi-turn dialogue', modality: 'text', triggers: ['User:', 'Assistant:'] },
  { id: 'format', label: 'explicit output format', modality: 'text', triggers: ['JSON', 'table', 'bullet points'] },
  { id: 'length-limit', label: 'explicit length limit', modality: 'text', triggers: ['N words', 'one sentence', 'briefly'] },
];

/**
 * What a build already found in a prompt: each cue's matches, and its word count for the length cues.
 * One build asks each prompt about each cue about four times (discovery, membership, the joint fits,
 * detector features, entry examples: 151,876 calls for 35,904 pairs on the demo), and the regular
 * expressions are most of a cue's cost. Bounded: emptied when it holds MATCH_CACHE_PROMPTS prompts or
 * MATCH_CACHE_CHARS characters of them, so a pass over more tasks than that, or a server asked about
 * long prompts it would otherwise keep, stays flat.
 */
const MATCH_CACHE_PROMPTS = 4096;
const MATCH_CACHE_CHARS = 4_000_000;
interface PromptFinds {
  byCue: Map<string, readonly string[]>;
  words?: number;
}
const promptCache = new Map<string, PromptFinds>();
let cachedChars = 0;
/** Most prompts match most cues not at all: one shared empty answer. */
const NONE: readonly string[] = Object.freeze([]);

/** Empties the match cache (a benchmark times a cold build with it). */
export function forgetCueMatches(): void {
  promptCache.clear();
  cachedChars = 0;
}

/** The prompt's cache entry, made (after emptying a full cache) on first sight. */
function findsOf(prompt: string): PromptFinds {
  let finds = promptCache.get(prompt);
  if (!finds) {
    if (promptCache.size >= MATCH_CACHE_PROMPTS || cachedChars + prompt.length > MATCH_CACHE_CHARS) forgetCueMatches();
    finds = { byCue: new Map() };
    promptCache.set(prompt, finds);
    cachedChars += prompt.length;
  }
  return finds;
}

/** The trigger texts of cue `id` found in `prompt` (lower-cased, in order); [] for length cues. Callers must not change the array. */
export function cueMatches(id: string, prompt: string): readonly string[] {
  const { byCue } = findsOf(prompt);
  const known = byCue.get(id);
  if (known) return known;
  const found = matchesOf(id, prompt);
  const hits = found.length ? found : NONE;
  byCue.set(id, hits);
  return hits;
}

function matchesOf(id: string, prompt: string): string[] {
  // Derived cues: read other cues' matches, so they agree with them on every masked phrase.
  if (id === 'count-3')
    return cueMatches('counting', prompt).filter((h) => !SMALL_NUMBERS.has(h.split(' ')[0]!) && !(/^\d/.test(h) && Number(h.replace(/,/g, '')) < 3));
  const rule = RULES.get(id);
  if (!rule) return [];
  const hits = findAll(rule, prompt);
  // Several speaker lines make a dialogue; one "User:" line is only a label.
  if (id === 'multi-turn') return hits.length >= 2 || hits.includes('[inst]') ? hits : [];
  // A quoted span is shown as what it is, not as its (task-specific) words.
  if (id === 'text-render') return hits.map((h) => (/^["“'‘]/.test(h) ? 'quoted text' : h));
  // One "and" joins two things, which most prompts do; two "and"s or "x, y and z" list several.
  if (id === 'and-list') return hits.length >= 2 || /,[^,.;]*\band\b/iu.test(masked(prompt, RULES.get('and-list')!.mask)) ? hits : [];
  return hits;
}

function cachedWordCount(prompt: string): number {
  const finds = findsOf(prompt);
  return (finds.words ??= wordCount(prompt));
}

function makeCue(meta: (typeof META)[number]): Cue {
  const length = lengthTests.get(meta.id);
  const test = length ? (p: string) => length(cachedWordCount(p)) : (p: string) => cueMatches(meta.id, p).length > 0;
  return { ...meta, test };
}

/** Every cue, in documentation order. */
export const CUES: readonly Cue[] = META.map(makeCue);
const BY_ID: ReadonlyMap<string, Cue> = new Map(CUES.map((c) => [c.id, c]));

export function cueById(id: string): Cue | undefined {
  return BY_ID.get(id);
}
