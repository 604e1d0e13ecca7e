/**
 * The cues' match rules (cues.ts holds the registry, its table of what each cue fires on and does
 * not, and the derived and length cues): per cue id, the patterns that find its triggers and the
 * phrases masked out first. Whole words only: no letter, digit or hyphen may touch a match.
 */
/** Whole-word alternatives: no letter, digit or hyphen may touch the match (Unicode-aware). */
const B0 = String.raw`(?<![\p{L}\p{N}\-])`;
const B1 = String.raw`(?![\p{L}\p{N}]|-[\p{L}\p{N}])`;
function words(...alts: string[]): RegExp {
  return new RegExp(`${B0}(?:${alts.join('|')})${B1}`, 'giu');
}

export interface Rule {
  find: RegExp[];
  mask?: RegExp[];
}

export function masked(text: string, mask: readonly RegExp[] | undefined): string {
  let t = text;
  for (const m of mask ?? []) t = t.replace(m, ' ');
  return t;
}

/** The trigger texts a rule finds in a prompt, lower-cased, in order of appearance. */
export function findAll(rule: Rule, text: string): string[] {
  const t = masked(text, rule.mask);
  const hits: { at: number; s: string }[] = [];
  for (const re of rule.find) eachMatch(re, t, (at, s) => hits.push({ at, s: s.toLowerCase().replace(/\s+/g, ' ').trim() }));
  return hits.sort((a, b) => a.at - b.at).map((h) => h.s);
}

/**
 * The matches `text.matchAll(re)` yields for a global `re`, without the copy of the expression
 * matchAll makes on every call (most of a cold cue's cost): exec from index 0, stepping one code
 * point past an empty match as matchAll does; `re.lastIndex` is 0 again afterwards.
 */
function eachMatch(re: RegExp, text: string, on: (at: number, match: string) => void): void {
  re.lastIndex = 0;
  try {
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      on(m.index, m[0]);
      if (m[0] === '') re.lastIndex = advance(text, re.lastIndex, re.unicode);
    }
  } finally {
    re.lastIndex = 0;
  }
}

/** AdvanceStringIndex: the next index, past a surrogate pair when `unicode`. */
function advance(text: string, i: number, unicode: boolean): number {
  if (!unicode || i + 1 >= text.length) return i + 1;
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
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

/** A quoted span of 2–80 characters opened after a space or bracket (so apostrophes never open one). */
const QUOTED = /(?<=^|[\s([:])["“'‘][^"“”'‘’\n]{2,80}?["”'’](?=$|[\s.,;:!?)\]])/gu;

export const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
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
