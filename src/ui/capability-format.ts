/**
 * How capability numbers read on screen (issue #15): signed deltas with a real minus sign, 95%
 * intervals, q-values, ranks among tools, verdict badges, and the geometry of an effect bar.
 * Pure: no DOM, so it is unit-tested in Node (tests/unit/ui/capability-format.test.ts).
 *
 * Every delta here is oriented by the core (positive = better for the tool, whatever the scale's
 * direction), so "+" always reads "does better" and the colours follow that.
 */
import type { CapabilitySnapshot, ClaimStatus, Effect, SharedNote, StoredVerdictKind } from '../core/capability/types';
import { formatChange, formatChangeInterval, formatLevel, numberStyle, type NumberStyle } from '../core/capability/number-style';

export type { NumberStyle };

/**
 * How a memory's numbers are shown (issue #34): the core's one rounding rule (templates.ts) for its
 * scale — 1 decimal, 2 on a 0–1 scale, pass rates in percent for pass/fail claims — so an entry's
 * words, its bar, the matrix tooltip and the Tools card print the same number.
 */
export function snapshotStyle(snapshot: Pick<CapabilitySnapshot, 'model' | 'report'> | null | undefined): NumberStyle {
  const scale = snapshot?.model?.scale;
  return numberStyle(scale ? scale.max - scale.min : 4, snapshot?.report.contrastScale?.kind === 'logit');
}

/** The style of one effect when its memory's is not at hand (pass-rate claims carry `latent`). */
export function effectStyle(effect: Effect, style?: NumberStyle): NumberStyle {
  return style ?? numberStyle(4, effect.latent !== undefined);
}

/** The claim's change as its text prints it: "−0.5", "+0.05", "−9 points". */
export function changeText(x: number, style: NumberStyle): string {
  return formatChange(x, style);
}

/** Its 95% interval as its text prints it: "−0.8 to −0.2", "−14 to −4 points". */
export function changeIntervalText(ci: readonly [number, number], style: NumberStyle): string {
  return formatChangeInterval(ci, style);
}

/** A level on the scale as its text prints it: "2.8", "0.42", "33%". */
export function levelText(x: number, style: NumberStyle): string {
  return formatLevel(x, style);
}

/** U+2212: a hyphen-minus reads as a dash and is narrower than the digits it lines up with. */
export const MINUS = '\u2212';

/** "+0.42", "−0.42", "0.00" — never "−0.00" (a value that rounds to zero has no sign). */
export function formatSigned(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return '–';
  const text = Math.abs(x).toFixed(digits);
  if (Number(text) === 0) return text;
  return `${x < 0 ? MINUS : '+'}${text}`;
}

/** A plain number with a real minus sign ("−1.50", "3.42"). */
export function formatNumber(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return '–';
  const text = Math.abs(x).toFixed(digits);
  return Number(text) !== 0 && x < 0 ? `${MINUS}${text}` : text;
}

/** A 95% interval: "[−0.42, +0.10]". */
export function formatInterval(ci: readonly [number, number], digits = 2): string {
  return `[${formatSigned(ci[0], digits)}, ${formatSigned(ci[1], digits)}]`;
}

/** "q < 0.001", "q = 0.012", "q = 0.45". */
export function formatQ(q: number): string {
  if (!Number.isFinite(q)) return 'q –';
  if (q < 0.001) return 'q < 0.001';
  return `q = ${q < 0.1 ? q.toFixed(3) : q.toFixed(2)}`;
}

function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const last = n % 10;
  return `${n}${last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th'}`;
}

/** "best of 6 tools", "lowest of 6 tools", "3rd of 6 tools"; '' without a rank or with one tool. */
export function rankText(rank: number | undefined, of: number | undefined): string {
  if (!rank || !of || of < 2) return '';
  if (rank === 1) return `best of ${of} tools`;
  if (rank === of) return `lowest of ${of} tools`;
  return `${ordinal(rank)} of ${of} tools`;
}

/** The delta a claim is about: against the other tools when there are any, else against the tool's own mean. */
export function headline(effect: Effect): number {
  return effect.deltaVsOthers ?? effect.deltaOwn;
}

/** What the headline delta is measured against, for labels. */
export function headlineBasis(effect: Effect): 'vs other tools' | 'vs its own mean' {
  return effect.deltaVsOthers === null ? 'vs its own mean' : 'vs other tools';
}

/** True when the 95% interval leaves out zero (the effect's sign is clear). */
export function clearOfZero(ci: readonly [number, number]): boolean {
  return ci[0] > 0 || ci[1] < 0;
}

export interface VerdictBadge {
  label: string;
  tone: 'ok' | 'warn' | 'danger' | 'neutral';
  meaning: string;
}

// A Map, not an object literal: the kind comes from stored or imported memories (issue #14).
// `weaker` comes only from files checked before issue #25 (same sign, smaller than claimed).
const VERDICT_BADGES: ReadonlyMap<StoredVerdictKind, VerdictBadge> = new Map<StoredVerdictKind, VerdictBadge>([
  ['holds', { label: 'holds ✓', tone: 'ok', meaning: 'on tasks the memory never saw, the 95% interval lies on the claimed side of zero' }],
  ['inconclusive', { label: 'inconclusive', tone: 'warn', meaning: 'on tasks the memory never saw, the 95% interval spans zero: not settled either way' }],
  ['contradicted', { label: 'contradicted ✗', tone: 'danger', meaning: 'on tasks the memory never saw, the 95% interval lies on the other side of zero' }],
  ['untested', { label: 'untested', tone: 'neutral', meaning: 'too few unseen tasks to check it on yet' }],
  [
    'weaker',
    { label: 'weaker (older check)', tone: 'warn', meaning: 'checked by an earlier version: same direction, but weaker on tasks the memory never saw' },
  ],
]);

/** The verdicts a check gives now, in reading order (the legend of the badges). */
export const VERDICT_ORDER = ['holds', 'inconclusive', 'contradicted', 'untested'] as const;

/** The badge of a verdict; an unknown kind (a newer file) reads as untested rather than failing. */
export function verdictBadge(kind: StoredVerdictKind | string): VerdictBadge {
  return VERDICT_BADGES.get(kind as StoredVerdictKind) ?? VERDICT_BADGES.get('untested')!;
}

/**
 * The local false sign rate in words: "1%", "< 0.1%" (the chance the sign of the shrunk effect is
 * wrong, given the data and the prior fitted over every cell).
 */
export function formatLfsr(lfsr: number): string {
  if (!Number.isFinite(lfsr)) return '–';
  if (lfsr < 0.001) return '< 0.1%';
  if (lfsr < 0.0095) return `${(lfsr * 100).toFixed(1)}%`;
  return `${Math.round(lfsr * 100)}%`;
}

/** What a cell or entry is: a claim (stated as a fact), tentative (shown apart), or neither; legacy effects have no status. */
export function statusOf(effect: Effect): ClaimStatus | null {
  const s = effect.status;
  return s === 'claim' || s === 'tentative' || s === 'none' ? s : null;
}

const STATUS_WORDS: ReadonlyMap<ClaimStatus, { label: string; meaning: string }> = new Map([
  ['claim', { label: 'claim', meaning: 'the sign is settled (chance it is wrong ≤ 5%)' }],
  ['tentative', { label: 'tentative, not a claim', meaning: 'likely, but not settled enough to state as a fact' }],
  ['none', { label: 'no claim', meaning: 'the data does not settle the sign' }],
] as const);

/** One line saying what a cell's status means ('' for effects built before claims had a status). */
export function statusText(effect: Effect): string {
  const s = statusOf(effect);
  const w = s ? STATUS_WORDS.get(s)! : null;
  return w ? `${w.label}: ${w.meaning}` : '';
}

/** The status's label and meaning apart (a badge and its sentence); null for effects without a status. */
export function statusWords(effect: Effect): { label: string; meaning: string } | null {
  const s = statusOf(effect);
  return s ? STATUS_WORDS.get(s)! : null;
}

/** The upper end of a symmetric axis [−d, d] holding |values|: 1, 2 or 5 × 10^k, at least 0.1. */
export function niceDomain(values: Iterable<number>): number {
  let max = 0;
  for (const v of values) if (Number.isFinite(v)) max = Math.max(max, Math.abs(v));
  if (max <= 0.1) return 0.1;
  const exp = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * exp >= max - 1e-12) return step * exp;
  return 10 * exp;
}

export interface EffectBarGeometry {
  /** Percent positions along the track, 0 = −domain, 50 = zero, 100 = +domain. */
  zero: number;
  barLeft: number;
  barWidth: number;
  ciLeft: number;
  ciWidth: number;
  /** The interval runs past the axis on that side (drawn as an open end). */
  clippedLow: boolean;
  clippedHigh: boolean;
  positive: boolean;
}

/** Where an effect bar's bar (from 0 to the delta) and whisker (its interval) go, in percent. */
export function effectBar(delta: number, ci: readonly [number, number], domain: number): EffectBarGeometry {
  const d = domain > 0 ? domain : 1;
  const at = (v: number) => Math.min(100, Math.max(0, 50 + (v / d) * 50));
  const end = at(delta);
  const lo = at(Math.min(ci[0], ci[1]));
  const hi = at(Math.max(ci[0], ci[1]));
  return {
    zero: 50,
    barLeft: Math.min(50, end),
    barWidth: Math.abs(end - 50),
    ciLeft: lo,
    ciWidth: hi - lo,
    clippedLow: Math.min(ci[0], ci[1]) < -d,
    clippedHigh: Math.max(ci[0], ci[1]) > d,
    positive: delta >= 0,
  };
}

/**
 * One line of numbers for an effect: "+0.42 [+0.10, +0.74] vs other tools · n = 23 · q = 0.012 · lowest of 6 tools".
 * A shrunk effect (issue #25) gives its chance of a wrong sign instead of the raw estimate's q.
 */
export function effectSummary(effect: Effect, style?: NumberStyle): string {
  const st = effectStyle(effect, style);
  const certainty = effect.lfsr !== undefined ? `wrong sign ${formatLfsr(effect.lfsr)}` : formatQ(effect.q);
  const basis = effect.deltaVsOthers === null ? 'vs its own mean' : 'against its usual margin over the others';
  const parts = [`${changeText(headline(effect), st)} (95% CI ${changeIntervalText(effect.ci95, st)}) ${basis}`, `n = ${effect.n}`, certainty];
  const rank = rankText(effect.rank, effect.of);
  if (rank) parts.push(rank);
  return parts.join(' · ');
}

/** The dataset-level note as one sentence: the build's text, else made from its facet lists. */
export function sharedNoteText(note: SharedNote): string {
  if (note.text.trim()) return note.text.trim();
  const parts: string[] = [];
  if (note.hard.length) parts.push(`Hard for every tool: ${note.hard.join(', ')}.`);
  if (note.easy.length) parts.push(`Easy for every tool: ${note.easy.join(', ')}.`);
  return parts.join(' ');
}

type Report = import('../core/capability/types').CapabilitySnapshot['report'];

/** "4 claims · 3 tentative (shown apart, not claims)"; null for builds before issue #25 (no counts). */
export function claimCountsText(report: Pick<Report, 'claims' | 'tentative'>): string | null {
  if (report.claims === undefined && report.tentative === undefined) return null;
  const c = report.claims ?? 0;
  const t = report.tentative ?? 0;
  return `${c} claim${c === 1 ? '' : 's'} · ${t} tentative (shown apart, not claims)`;
}

const share = (x: number | null | undefined): string | null => (x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(2));

/**
 * The held-out check of a build in words: direction (share of tested claims whose unseen sign
 * agrees), confirmed (share that holds), calibration and precision, then the verdict counts.
 * Older builds have no direction or confirmed (precision only) and may count `weaker`.
 */
export function verificationText(v: NonNullable<Report['verification']>): string {
  if (v.tested === 0 || v.precision === null) return 'no claim could be tested';
  const c = v.counts;
  const figures = [
    share(v.direction) !== null ? `direction ${share(v.direction)}` : null,
    share(v.confirmed) !== null ? `confirmed ${share(v.confirmed)}` : null,
    `precision ${v.precision.toFixed(2)}`,
    share(v.calibration) !== null ? `calibration ${share(v.calibration)}` : null,
  ].filter((x): x is string => x !== null);
  const counts = [
    `${c.holds} hold`,
    `${c.inconclusive ?? 0} inconclusive`,
    ...(c.weaker ? [`${c.weaker} weaker (older check)`] : []),
    `${c.contradicted} contradicted`,
    `${c.untested} untested`,
  ];
  return `${figures.join(' · ')} over ${v.tested} tested (${counts.join(', ')})`;
}

type Profile = import('../core/capability/types').ToolProfile;

/**
 * A profile's figures for a glance: mean, rank (with its 95% interval over resamples of the tasks),
 * best share, and the mean advantage over the other tools; rank and share only with ≥ 2 tools.
 */
export function profileFigures(p: Profile, style: NumberStyle = numberStyle()): { label: string; value: string }[] {
  const out = [{ label: style.percent ? 'pass rate' : 'mean', value: levelText(p.mean, style) }];
  if (p.of >= 2) {
    const [lo, hi] = p.rankCi95;
    out.push({ label: 'rank', value: `${p.rank} of ${p.of} (95% interval ${lo === hi ? `${lo}` : `${lo}–${hi}`})` });
    out.push({ label: 'best on', value: `${Math.round(p.bestShare * 100)}% of its tasks` });
    out.push({ label: 'vs the others', value: changeText(p.advantage, style) });
  }
  out.push({ label: 'tasks', value: p.n.toLocaleString('en-US') });
  return out;
}
