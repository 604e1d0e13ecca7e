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

/** Whole-word alternatives: no letter, digit or hyphen may touch the match (Unicode-aware). */
const B0 = String.raw`(?<![\p{L}\p{N}\-])`;
const B1 = String.raw`(?![\p{L}\p{N}]|-[\p{L}\p{N}])`;
function words(...alts: string[]): RegExp {
  return new RegExp(`${B0}(?:${alts.join('|')})${B1}`, 'giu');
}

interface Rule {
  find: RegExp[];
  mask?: RegExp[];
}

function masked(text: string, mask: readonly RegExp[] | undefined): string {
  let t = text;
  for (const m of mask ?? []) t = t.replace(m, ' ');
  return t;
}

/** The trigger texts a rule finds in a prompt, lower-cased, in order of appearance. */
function findAll(rule: Rule, text: string): string[] {
  const t = masked(text, rule.mask);
  const hits: { at: number; s: string }[] = [];
  for (const re of rule.find) for (const m of t.matchAll(re)) hits.push({ at: m.index, s: m[0].toLowerCase().replace(/\s+/g, ' ').trim() });
  return hits.sort((a, b) => a.at - b.at).map((h) => h.s);
}

const NUMBER_WORDS = (
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty ' +
  'fifty sixty seventy eighty ninety hundred thousand dozen dozens'
).split(' ');
// Comparatives/superlatives that are not also common nouns ("cooler", "lighter" are left to "than").
const COMPARATIVE = (
  'bigger larger smaller taller shorter longer older younger higher lower wider narrower thicker thinner heavier darker brighter faster slower ' +
  'fewer greater deeper louder quieter stronger weaker happier sadder busier dirtier fuller emptier sparser denser hotter colder ' +
  'warmer softer harder closer farther further nearer'
).split(' ');
const SUPERLATIVE = (
  'biggest largest smallest tallest shortest longest oldest youngest highest lowest widest narrowest thickest thinnest heaviest lightest darkest ' +
  'brightest fastest slowest fewest greatest deepest loudest strongest weakest happiest saddest cleanest dirtiest plainest hottest ' +
  'coldest closest farthest furthest nearest foremost'
).split(' ');
const wordCount = (t: string) => t.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** A quoted span of 2–80 characters opened after a space or bracket (so apostrophes never open one). */
const QUOTED = /(?<=^|[\s([:])["“'‘][^"“”'‘’\n]{2,80}?["”'’](?=$|[\s.,;:!?)\]])/gu;

const SMALL_NUMBERS = new Set(['two', 'pair', 'pairs', 'couple', '2']);

const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  [
    'negation',
    {
      find: [
        words(
          'no',
          'not',
          'without',
          'none',
          'neither',
          'nor',
          'never',
          'nothing',
          'nobody',
          'nowhere',
          'no one',
          'cannot',
          String.raw`\p{L}+n['’]t`,
          String.raw`no[nt]-\p{L}+`,
        ),
      ],
      mask: [words('not only', 'nothing but', 'no matter', 'no doubt', 'without (?:a )?doubt', 'none other than', 'not to mention'), /\bno\.\s*\d/giu],
    },
  ],
  [
    'counting',
    {
      find: [words(...NUMBER_WORDS, 'pairs? of', 'couple of', String.raw`\d+(?:[.,]\d+)?`)],
      mask: [QUOTED, words(String.raw`(?:1[5-9]|20)\d\d(?:['’]?s)?`)],
    },
  ],
  [
    'spatial',
    {
      find: [
        words(
          'above',
          'below',
          'beneath',
          'under',
          'underneath',
          'behind',
          'beside',
          'between',
          'atop',
          'inside',
          'near',
          'opposite',
          'adjacent to',
          'in front of',
          'next to',
          'on top of',
          'across from',
          'surrounded by',
          'over',
          'across',
          'around',
          'among',
          'amid',
          'amidst',
          'against',
          'along',
          'onto',
          'into',
          'out of',
          'through',
          'outside',
          'on (?:a|an|the|top|its|his|her|their)',
        ),
        words(
          String.raw`(?:on|to|at|from) the (?:far |upper |lower |top |bottom )?(?:left|right)`,
          String.raw`(?:left|right)(?:most| side| hand| corner| half| edge| of| arm| leg| foot| eye| ear| wing| wall)`,
        ),
      ],
      mask: [
        words(
          String.raw`under \d+`,
          String.raw`on (?:a|an|the) (?:\p{L}+ )?(?:day|night|morning|evening|afternoon|weekend)`,
          'on the (?:way|phone|radio|internet)',
        ),
      ],
    },
  ],
  [
    'comparison',
    {
      find: [
        words(
          'than',
          String.raw`as \p{L}+ as`,
          String.raw`the same (?:\p{L}+ )?as`,
          'compared (?:to|with)',
          String.raw`the (?:most|least) \p{L}+`,
          'different(?:ly)?',
          'varying',
          'outnumber(?:s|ed|ing)?',
        ),
        words(...COMPARATIVE, ...SUPERLATIVE),
      ],
      mask: [
        words(
          'rather than',
          'other than',
          'none other than',
          'as well as',
          'as soon as',
          'as long as',
          'as far as',
          'as much as',
          'no longer',
          'the most part',
        ),
      ],
    },
  ],
  [
    'universal',
    {
      find: [words('all', 'every', 'each', 'everyone', 'everything', 'everybody', 'both', 'neither', 'none of')],
      mask: [words('at all', 'after all', 'all right', 'above all', 'all in all', 'every now and then', 'once and for all')],
    },
  ],
  [
    'text-render',
    {
      find: [QUOTED, words('that (?:says|reads|spells)', 'which (?:says|reads)', 'with the (?:words?|text|caption|letters|slogan|title)', 'written on')],
    },
  ],
  [
    'code',
    {
      find: [
        /```/g,
        words(
          'python',
          'javascript',
          'typescript',
          String.raw`c\+\+`,
          'sql',
          'html',
          'css',
          'regex',
          'bash',
          'source code',
          'code snippet',
          'programming',
          'algorithm',
          'debug',
          'compiler?',
          '(?:the|this|my|following|your|some|a piece of) code',
          '(?:write|implement|fix) (?:a|an|the) (?:program|script|function|class|method|query)',
        ),
        /\bdef \w+\(|\bfunction \w+\(|console\.log|#include/g,
      ],
      mask: [words('zip code', 'dress code', 'morse code', 'area code', 'postal code', 'code of conduct')],
    },
  ],
  [
    'math',
    {
      find: [
        /\d\s*[+*×÷^=]\s*\d|\d\s+[-−/]\s+\d|\b[a-z]\s*=\s*-?\d|\bf\([a-z]\)/giu,
        words(
          'equations?',
          'calculate',
          'compute',
          'integral',
          'derivative',
          'arithmetic',
          'algebra',
          'algebraic',
          'geometry',
          'calculus',
          'theorem',
          'polynomial',
          'probability',
          'prime numbers?',
          'solve for',
          String.raw`mathemat\p{L}*`,
          'sqrt',
        ),
      ],
    },
  ],
  [
    'role-play',
    {
      find: [
        words(
          'role-?play(?:ing)?',
          "pretend (?:to be|you are|you're|that you are)",
          "imagine (?:you are|you're|yourself as)",
          'play the role',
          'in the role of',
          'in character',
        ),
        /(?:^|[.!?]\s+|\bplease\s+|\bwant you to\s+)act as\b/giu,
        /^\s*as an? [\p{L}-]+(?: [\p{L}-]+){0,3},/giu,
      ],
      mask: [/^\s*as an? (?:result|matter|rule|whole|child|kid|side note),/giu],
    },
  ],
  [
    'multi-turn',
    {
      find: [/^\s*(?:#{1,3}\s*)?(?:user|human|assistant|ai|system)\s*:/gimu, /\[INST\]/g],
    },
  ],
  [
    'format',
    {
      find: [
        words(
          'json',
          'yaml',
          'csv',
          'xml',
          'markdown',
          'bullet(?:ed)? (?:points?|list)',
          'numbered list',
          '(?:in|as|into|create|make) (?:a |the )?table',
          'tabular',
          'in the (?:following )?format',
          'use the following format',
          'all caps',
          'uppercase',
        ),
      ],
    },
  ],
  [
    'and-list',
    {
      // Several things joined: two "and"s, or a comma list closed by "and" ("a cat, a dog and a bird").
      find: [words('and')],
      mask: [
        QUOTED,
        words(
          'and then',
          'and so on',
          'black and white',
          'salt and pepper',
          'rock and roll',
          'bread and butter',
          'back and forth',
          'up and down',
          'here and there',
          'now and then',
        ),
      ],
    },
  ],
  [
    'people',
    {
      find: [
        words(
          'man',
          'men',
          'woman',
          'women',
          'person',
          'people',
          'boy',
          'boys',
          'girl',
          'girls',
          'child',
          'children',
          'kid',
          'kids',
          'baby',
          'lady',
          'gentleman',
          'crowd',
          'couple',
          'family',
          'player',
          'players',
          'chef',
          'doctor',
          'teacher',
          'student',
          'students',
          'worker',
          'farmer',
          'artist',
          'musician',
          'dancer',
          'athlete',
          'soldier',
          'police officer',
          'hands?',
          'fingers',
          'faces?',
        ),
      ],
      mask: [QUOTED, words('couple of', 'snowman', 'man-made')],
    },
  ],
  [
    'length-limit',
    {
      find: [
        words(
          String.raw`\d[\d,]*(?:-| )(?:words?|sentences?|paragraphs?|lines?|characters?|bullet points)`,
          '(?:in|using) (?:one|two|three|a single) (?:sentence|paragraph|word|line)s?',
          String.raw`(?:under|within|at most|at least|no more than|less than|fewer than|up to|maximum of) \d+`,
          'briefly',
          'be brief',
          'concise(?:ly)?',
          '(?:word|character) (?:limit|count)',
          'brief (?:answer|summary|response|overview|explanation|description)',
        ),
      ],
      mask: [words('short story', 'a brief history')],
    },
  ],
]);

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

/** The trigger texts of cue `id` found in `prompt` (lower-cased, in order); [] for length cues. */
export function cueMatches(id: string, prompt: string): string[] {
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

function makeCue(meta: (typeof META)[number]): Cue {
  const length = lengthTests.get(meta.id);
  const test = length ? (p: string) => length(wordCount(p)) : (p: string) => cueMatches(meta.id, p).length > 0;
  return { ...meta, test };
}

/** Every cue, in documentation order. */
export const CUES: readonly Cue[] = META.map(makeCue);
const BY_ID: ReadonlyMap<string, Cue> = new Map(CUES.map((c) => [c.id, c]));

export function cueById(id: string): Cue | undefined {
  return BY_ID.get(id);
}
