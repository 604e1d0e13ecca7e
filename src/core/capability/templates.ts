/**
 * Every text of the capability memory comes from this module, so entries read alike and carry their
 * numbers, e.g.
 *   Weak at negation ("no", "without"): 2.9 vs its 3.8 (n = 43, 95% CI −1.3 to −0.5); lowest of 6 tools here; e.g. 'A field without grass'.
 *   Bad at tasks tagged "negation": 2.8 vs their 2.9, 5th of 6 tools (n = 43 paired tasks). Its usual lead of +0.5
 *     turns into a deficit here: −0.5 against its usual margin (95% CI −0.8 to −0.2).
 *   Leads less than usual at tasks tagged "advanced": 3.4 vs their 2.9, highest of 6 tools (n = 120 paired tasks). Its
 *     usual lead of +0.9 shrinks here: −0.2 …
 *   Hard for every tool here: comparison (−0.8), differentiation (−0.5).
 * Constraints: means with 1 decimal (2 on scales no wider than 1, e.g. AlpacaEval's 0–1), a real
 * minus sign, n with thousands separators; trigger words shown only when the quoted example contains
 * them (a reader checks the claim against the example); examples ≤ 80 characters through quote().
 */
import { quote } from '../text/quote';
import type { Level, ScoreDirection } from '../types';
import { cueById, cueMatches } from './cues';
import type { DiscoveredFacet, Effect, Facet, ToolProfile } from './types';
import {
  formatChange,
  formatChangeInterval,
  formatCount,
  formatLevel,
  formatNumber,
  intervalText,
  numberStyle,
  roundShown,
  type NumberStyle,
} from './number-style';

export type EntryKind = 'own-strength' | 'own-weakness' | 'relative-strength' | 'relative-weakness';

export interface EntryTextOptions {
  level: Level;
  /** The example to quote; default: the facet's own `example`. */
  example?: string;
  /** False: no example (and cue words from the facet's triggers, unchecked). Default true. */
  showExample?: boolean;
  /** Decides "highest/lowest" vs "best/worst" in the rank; default higher-better. */
  direction?: ScoreDirection;
  /** Width of the score scale (max − min): ≤ 1 shows 2 decimals. Default 4 (a 1–5 scale). */
  scaleWidth?: number;
}

export const EXAMPLE_MAX = 80;
const MAX_SHOWN = 3;

const OWN_VERB: Readonly<Record<Level, string>> = { proficient: 'Proficient at', good: 'Good at', bad: 'Bad at', weak: 'Weak at' };

function asFacet(f: Facet | DiscoveredFacet): { facet: Facet; disc?: DiscoveredFacet } {
  return 'facet' in f ? { facet: f.facet, disc: f } : { facet: f };
}

// Compiled word patterns, bounded (cue triggers: a few hundred); no `g` flag, so `test` keeps no state between texts.
const wordPatterns = new Map<string, RegExp>();

/** Whole-word, case-insensitive occurrence of `word` in `text`. */
export function contains(text: string, word: string): boolean {
  let re = wordPatterns.get(word);
  if (!re) {
    const esc = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(`(?<![\\p{L}\\p{N}])${esc}(?![\\p{L}\\p{N}])`, 'iu');
    if (wordPatterns.size >= 1024) wordPatterns.clear();
    wordPatterns.set(word, re);
  }
  return re.test(text);
}

/** Cue words to show: the facet's most frequent triggers that the example contains, else the example's own. */
function cueWords(cueId: string, disc: DiscoveredFacet | undefined, example: string | undefined): string[] {
  const known = disc?.triggers ?? cueById(cueId)?.triggers ?? [];
  if (example === undefined) return known.slice(0, MAX_SHOWN);
  const inExample = known.filter((w) => w !== 'quoted text' && contains(example, w));
  const own = [...new Set(cueMatches(cueId, example))].filter((w) => w !== 'quoted text');
  return [...new Set([...inExample, ...own])].slice(0, MAX_SHOWN);
}

/**
 * What a facet is, for a reader: `negation ("no", "without")`, `tasks tagged "counting"`,
 * `tasks about snow, park`. Cue words are checked against `example` when one is given.
 */
export function facetSubject(f: Facet | DiscoveredFacet, example?: string): string {
  const { facet, disc } = asFacet(f);
  const rule = facet.rule;
  if (rule.type === 'category') return `tasks tagged "${rule.value}"`;
  if (rule.type === 'theme') return `tasks about ${rule.keywords.join(', ')}`;
  const label = cueById(rule.cue)?.label ?? rule.cue;
  const words = cueWords(rule.cue, disc, example);
  return words.length ? `${label} (${words.map((w) => `"${w}"`).join(', ')})` : label;
}

/** Short name in lists (the dataset-level notes): the cue label, category value or theme words joined by "/" (commas separate the list). */
export function facetShortName(f: Facet | DiscoveredFacet): string {
  const rule = asFacet(f).facet.rule;
  return rule.type === 'category' ? rule.value : rule.type === 'theme' ? rule.keywords.join('/') : (cueById(rule.cue)?.label ?? rule.cue);
}

/**
 * The example quoted, cut at the last space within EXAMPLE_MAX characters and ended with "…" — no
 * "(N more)" count, which beside an example reads as N more examples (issue #25).
 */
function quoteExample(text: string, max = EXAMPLE_MAX): string {
  // Only the head is read (2·max + 2 UTF-16 units hold more than max code points when cut), so a
  // long prompt costs O(max). Both quotes below are already within bounds: no second cut.
  const head = text.length > 2 * max + 2 ? text.slice(0, 2 * max + 2) : text;
  const cps = [...head];
  if (head === text && cps.length <= max) return quote(text, Infinity);
  const lastSpace = cps.slice(0, max + 1).lastIndexOf(' ');
  const cut = cps
    .slice(0, lastSpace >= max / 2 ? lastSpace : max)
    .join('')
    .replace(/[\s,;:]+$/, '');
  return quote(`${cut}…`, Infinity);
}

/** Entry texts stay within an entry's limit (MAX_ENTRY_CHARS): the example gives way first. */
export const ENTRY_TEXT_MAX = 300;

function withExample(body: string, example: string | undefined): string {
  if (example === undefined) return `${body}.`;
  const full = `${body}; e.g. ${quoteExample(example)}.`;
  if ([...full].length <= ENTRY_TEXT_MAX) return full;
  const room = ENTRY_TEXT_MAX - [...body].length - "; e.g. '…'.".length;
  return room >= 24 ? `${body}; e.g. ${quoteExample(example, room)}.` : `${body}.`;
}

function ordinal(k: number): string {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : k % 10 === 1 ? 'st' : k % 10 === 2 ? 'nd' : k % 10 === 3 ? 'rd' : 'th';
  return `${k}${suffix}`;
}

/**
 * The rank as words. "highest"/"best" only for rank 1 and "lowest"/"worst" only for the last, and
 * only when the absolute standing agrees (`above`: the tool's mean is at least the others' there),
 * so a rank word can never contradict the sentence it sits in.
 */
function rankWords(rank: number | undefined, of: number | undefined, direction: ScoreDirection, above: boolean | null): string {
  if (rank === undefined || of === undefined || of < 2) return '';
  const higher = direction === 'higher-better';
  if (rank === 1 && above !== false) return `${higher ? 'highest' : 'best'} of ${formatCount(of)} tools`;
  if (rank === of && above !== true) return `${higher ? 'lowest' : 'worst'} of ${formatCount(of)} tools`;
  return `${ordinal(rank)} of ${formatCount(of)} tools`;
}

/**
 * Whether the tool does at least as well as the other tools on the facet's tasks (oriented), from
 * the numbers the text prints: its mean there and the others' mean on the same tasks.
 */
export function aboveOthers(effect: Effect, direction: ScoreDirection = 'higher-better'): boolean | null {
  if (effect.mean === undefined || effect.othersMean === undefined) return null;
  const diff = effect.mean - effect.othersMean;
  return direction === 'lower-better' ? diff <= 0 : diff >= 0;
}

/**
 * Where a tool stands on a facet, as printed: its lead over the other tools there (its mean minus
 * theirs, each rounded as shown, oriented) and its usual lead over them on all tasks (rounded).
 */
export function standing(effect: Effect, style: NumberStyle, direction: ScoreDirection = 'higher-better'): { here: number; usual: number } | null {
  if (effect.mean === undefined || effect.othersMean === undefined) return null;
  const sign = direction === 'lower-better' ? -1 : 1;
  const here = sign * (roundShown(effect.mean, style) - roundShown(effect.othersMean, style));
  const raw = sign * (effect.mean - effect.othersMean);
  const usual = effect.usual ?? raw - (effect.raw?.delta ?? effect.deltaVsOthers ?? 0);
  return { here: roundShown(here, style), usual: roundShown(usual, style) };
}

/**
 * The lead of a relative entry, by what its two numbers mean together: the level word where the
 * tool's standing on the facet (above / below the others) and the claimed change agree; otherwise
 * the change said as such ("Leads less than usual at …", "Trails less than usual at …").
 */
function relativeLead(level: Level, subject: string, here: number, change: number): string {
  const up = change > 0;
  if (here > 0 && !up) return `Leads less than usual at ${subject}`;
  if (here === 0 && !up) return `Only level with the others at ${subject}`;
  if (here < 0 && up) return `Trails less than usual at ${subject}`;
  return `${OWN_VERB[level]} ${subject}`;
}

/** The second sentence: the claimed change from the tool's usual lead, in plain words. */
export function changeSentence(usual: number, here: number, change: number, ci: readonly [number, number], style: NumberStyle): string {
  const d = formatChange(change, style);
  const u = formatChange(usual, style);
  const tail = `${d} against its usual margin (95% CI ${formatChangeInterval(ci, style)})`;
  const up = change > 0;
  if (usual > 0 && here > 0) return up ? `It leads by more than its usual ${u} here: ${tail}.` : `Its usual lead of ${u} shrinks here: ${tail}.`;
  if (usual > 0 && !up) return `Its usual lead of ${u} ${here < 0 ? 'turns into a deficit' : 'disappears'} here: ${tail}.`;
  if (usual < 0 && here < 0) return up ? `Its usual deficit of ${u} narrows here: ${tail}.` : `It trails by more than its usual ${u} here: ${tail}.`;
  if (usual < 0 && up) return `Its usual deficit of ${u} ${here > 0 ? 'turns into a lead' : 'disappears'} here: ${tail}.`;
  if (usual === 0) return `Usually level with the others, it does ${up ? 'better' : 'worse'} here: ${tail}.`;
  return `It does ${up ? 'better' : 'worse'} than usual against the others here: ${tail}.`;
}

/**
 * One entry's text. With ≥ 2 tools the claim is the relative one (vs the other tools, beyond the
 * tool's usual margin), led by the absolute level (its mean there vs the others') — issue #34; with one
 * tool it is the tool's mean on the facet vs its own mean. `tentative` prefixes the text.
 */
export function entryText(kind: EntryKind, f: Facet | DiscoveredFacet, effect: Effect, tool: string, opts: EntryTextOptions & { tentative?: boolean }): string {
  void tool; // entries sit under their tool; the name is not repeated in each sentence
  const decimals = (opts.scaleWidth ?? 4) <= 1 ? 2 : 1;
  const direction = opts.direction ?? 'higher-better';
  const rawExample = opts.showExample === false ? undefined : (opts.example ?? asFacet(f).disc?.example);
  const example = rawExample?.replace(/\s+/g, ' ').trim() || undefined;
  const shownExample = example === undefined ? undefined : example.replace(/[.。]$/, '');
  const subject = facetSubject(f, shownExample);
  const pre = opts.tentative ? 'Tentative: ' : '';
  const fmt = (x: number, signed = false) => formatNumber(x, decimals, signed);
  if (kind === 'own-strength' || kind === 'own-weakness') {
    const ci = effect.ci95Own ?? effect.ci95;
    const means =
      effect.mean !== undefined && effect.toolMean !== undefined
        ? `${fmt(effect.mean)} vs its ${fmt(effect.toolMean)}`
        : `${fmt(effect.deltaOwn, true)} vs its mean`;
    const rank = rankWords(effect.rank, effect.of, direction, null);
    return withExample(
      `${pre}${OWN_VERB[opts.level]} ${subject}: ${means} (n = ${formatCount(effect.n)}, 95% CI ${intervalText(ci, decimals)})${rank ? `; ${rank} here` : ''}`,
      shownExample,
    );
  }
  const style = numberStyle(opts.scaleWidth ?? 4, effect.latent !== undefined);
  const delta = effect.deltaVsOthers ?? effect.deltaOwn;
  const stand = standing(effect, style, direction);
  const above = stand ? stand.here >= 0 : aboveOthers(effect, direction);
  const rank = rankWords(effect.rank, effect.of, direction, above);
  const n = `n = ${formatCount(effect.n)} paired tasks`;
  if (!stand || effect.mean === undefined || effect.othersMean === undefined) {
    // An effect without the two means (files before issue #25): the change alone.
    return withExample(
      `${pre}${OWN_VERB[opts.level]} ${subject}: ${formatChange(delta, style)} against its usual margin over the others (${n}, 95% ` +
        `CI ${formatChangeInterval(effect.ci95, style)})${rank ? `; ${rank} here` : ''}`,
      shownExample,
    );
  }
  const verb = style.percent ? 'passes ' : '';
  const first =
    `${pre}${relativeLead(opts.level, subject, stand.here, delta)}: ${verb}${formatLevel(effect.mean, style)} vs ` +
    `their ${formatLevel(effect.othersMean, style)}${rank ? `, ${rank}` : ''} (${n})`;
  return withSecond(first, shownExample, changeSentence(stand.usual, stand.here, delta, effect.ci95, style));
}

/** The first sentence, its example, then the second sentence; the example gives way first (ENTRY_TEXT_MAX). */
function withSecond(first: string, example: string | undefined, second: string): string {
  const len = (x: string) => [...x].length;
  const full = `${withExample(first, example)} ${second}`;
  if (len(full) <= ENTRY_TEXT_MAX || example === undefined) return len(full) <= ENTRY_TEXT_MAX ? full : `${first}. ${second}`;
  const room = ENTRY_TEXT_MAX - len(first) - len(second) - "; e.g. '…'. ".length;
  return room >= 24 ? `${first}; e.g. ${quoteExample(example, room)}. ${second}` : `${first}. ${second}`;
}

/**
 * The overall entry of a tool (every tool has one): level, rank with its interval, share of tasks
 * where it is best. `passRates`: pass/fail data, said as pass rates ("passes 64% of its tasks").
 */
export function profileText(p: ToolProfile, opts: { direction?: ScoreDirection; scaleWidth?: number; scale?: string; passRates?: boolean } = {}): string {
  const style = numberStyle(opts.scaleWidth ?? 4, opts.passRates);
  const [lo, hi] = p.rankCi95;
  const range = lo === hi ? `rank ${ordinal(lo)} in every resample` : `95% interval ${ordinal(lo)}–${ordinal(hi)}`;
  const n = `n = ${formatCount(p.n)} tasks`;
  const rank = p.of >= 2 ? `, ${ordinal(p.rank)} of ${formatCount(p.of)} tools (${range}; ${n})` : ` (${n})`;
  const best =
    p.of >= 2 ? `; best on ${Math.round(p.bestShare * 100)}% of its tasks, ${formatChange(p.advantage, style)} vs the other tools on the same tasks` : '';
  const level = style.percent
    ? `passes ${formatLevel(p.mean, style)} of its tasks`
    : `averages ${formatLevel(p.mean, style)}${opts.scale ? ` on ${opts.scale}` : ''}`;
  return `Overall: ${level}${rank}${best}.`;
}

export const HARD_HEAD = 'Hard for every tool here';
export const EASY_HEAD = 'Easy for every tool here';

/** The direction a dataset note's words state: −1 hard, +1 easy, 0 neither (not a note text). */
export function noteSign(text: string): -1 | 0 | 1 {
  return text.startsWith(HARD_HEAD) ? -1 : text.startsWith(EASY_HEAD) ? 1 : 0;
}

export interface SharedFacet {
  facet: Facet | DiscoveredFacet;
  /** Mean over tools of (tool's mean on the facet − its own mean), shown beside the name. */
  delta?: number;
}

/** A DiscoveredFacet has taskIds; a SharedFacet wraps a facet without them; else a bare Facet. */
function asShared(it: Facet | DiscoveredFacet | SharedFacet): SharedFacet {
  if ('taskIds' in it || !('facet' in it)) return { facet: it };
  return it;
}

function sharedNote(head: string, items: readonly (Facet | DiscoveredFacet | SharedFacet)[], decimals: number): string | null {
  if (items.length === 0) return null;
  // A tag and a cue of the same name ("comparison" tagged, "comparison" read from the text) are one
  // thing to a reader: the first (the larger effect, lists come sorted) stands for both.
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const it of items) {
    const shared = asShared(it);
    const name = facetShortName(shared.facet);
    if (seen.has(name)) continue;
    seen.add(name);
    parts.push(shared.delta === undefined ? name : `${name} (${formatNumber(shared.delta, decimals, true)})`);
  }
  const shown = parts.slice(0, 8);
  const more = parts.length > shown.length ? ` and ${formatCount(parts.length - shown.length)} more` : '';
  return `${head}: ${shown.join(', ')}${more}.`;
}

/**
 * The dataset-level note for difficulty every tool shares (written once, not as a trait of each
 * tool); null when there is none. Deltas are score points vs each tool's own mean.
 */
export function sharedDifficultyNote(items: readonly (Facet | DiscoveredFacet | SharedFacet)[], opts: { scaleWidth?: number } = {}): string | null {
  return sharedNote(HARD_HEAD, items, (opts.scaleWidth ?? 4) <= 1 ? 2 : 1);
}

export function sharedEaseNote(items: readonly (Facet | DiscoveredFacet | SharedFacet)[], opts: { scaleWidth?: number } = {}): string | null {
  return sharedNote(EASY_HEAD, items, (opts.scaleWidth ?? 4) <= 1 ? 2 : 1);
}

/** Where a build's scores came from, when not from scores given directly (the derived pairwise table). */
export type EvidenceSource = 'pairwise';

const SOURCE_NOTE: Readonly<Record<EvidenceSource, string>> = {
  pairwise: 'From pairwise judgements: a score here is the share of its comparisons on a task it won (a tie counts ½).',
};

/** An entry's text with the sentence that names its evidence's source (unchanged without one). */
export function withSource(text: string, source: EvidenceSource | undefined): string {
  return source ? `${text} ${SOURCE_NOTE[source]}` : text;
}

/**
 * A pick claim (picks.ts): "For tasks tagged "negation", pick SDXL_2_1: 3.1 vs DALLE_3's 2.9 there
 * (n = 43 tasks); chance it does better there than DALLE_3, the best overall: 93%."
 */
export function pickText(
  pick: { toolId: string; over: string; probability: number; n: number; mean: number; overMean: number },
  facet: Facet | DiscoveredFacet,
  opts: { scaleWidth?: number; passRates?: boolean } = {},
): string {
  const style = numberStyle(opts.scaleWidth ?? 4, opts.passRates);
  const verb = style.percent ? 'passes ' : '';
  const chance = `${Math.min(99, Math.floor(pick.probability * 100))}%`;
  return (
    `For ${facetSubject(facet)}, pick ${pick.toolId}: ${verb}${formatLevel(pick.mean, style)} ` +
    `vs ${pick.over}'s ${formatLevel(pick.overMean, style)} there (n = ${formatCount(pick.n)} tasks); chance it does better there ` +
    `than ${pick.over}, the best overall: ${chance}.`
  );
}
