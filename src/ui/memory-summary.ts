/**
 * What the Memory page says first, in plain words (issue #38: the page led with "Themes: 12 kept
 * of 64 embedding groups …", "embeddings glove-100d@2790b023", "rank 1 of 6 (95% interval 1)"):
 * one paragraph about the whole memory, a tool's rank as a person says it, and what a matrix
 * cell's claim status means for that tool and facet. Pure functions of stored records.
 */
import type { CapabilitySnapshot, Effect, ToolProfile } from '../core/capability/types';
import type { ScoreDirection } from '../core/types';
import { changeText, formatNumber, headline, levelText, profileFigures, snapshotStyle, statusOf, type NumberStyle } from './capability-format';
import { formatCount, formatPlural } from './format';

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/**
 * A tool's rank among the tools with how sure it is, plainly: "1st of 6, in every resample of the
 * tasks" (the 95% interval is one rank), "2nd of 6, could be 1st–3rd".
 */
export function plainRank(p: Pick<ToolProfile, 'rank' | 'of' | 'rankCi95'>): string {
  const [lo, hi] = p.rankCi95;
  return lo === hi ? `${ordinal(p.rank)} of ${p.of}, clearly` : `${ordinal(p.rank)} of ${p.of}, could be ${ordinal(lo)}–${ordinal(hi)}`;
}

/**
 * The profile's figures (capability-format) with the rank said plainly, and the exact interval in a
 * title; `style` is the memory's one rounding rule (issue #34).
 */
export function plainProfileFigures(p: ToolProfile, style?: NumberStyle): { label: string; value: string; title?: string }[] {
  return profileFigures(p, style).map((f) =>
    f.label === 'rank' ? { label: 'rank', value: plainRank(p), title: `Ranks in 95% of resamples of the tasks: ${p.rankCi95[0]}–${p.rankCi95[1]}` } : f,
  );
}

/** What a memory's summary is made from: the stored snapshot and a few facts of the memory row. */
export interface SummaryInput {
  snapshot: CapabilitySnapshot;
  /** The dataset it learned from, by name (undefined: not stored here any more). */
  datasetName?: string | undefined;
  /** Training tasks (null: every task of the dataset; undefined: not known). */
  trainTasks?: number | null | undefined;
  /** Current entries in all (profiles included), when counted. */
  entries?: number | undefined;
}

const quote = (s: string) => `“${s}”`;

/** The overall means of the tools, best first (on a lower-better scale the lowest first). */
function overall(snapshot: CapabilitySnapshot): { tool: string; mean: number }[] {
  const m = snapshot.model;
  if (!m) return [];
  const s = m.scale.direction === 'lower-better' ? -1 : 1;
  return m.model.tools.map((tool, j) => ({ tool, mean: m.model.mu[j]! })).sort((a, b) => s * (b.mean - a.mean));
}

/** The strongest claim above and below the other tools (by the size of the headline delta). */
function extremeClaims(snapshot: CapabilitySnapshot): {
  up?: { tool: string; facet: string; delta: number };
  down?: { tool: string; facet: string; delta: number };
} {
  const claims = snapshot.cells
    .filter((c) => c.entryId !== null && statusOf(c.effect) === 'claim')
    .map((c) => ({ tool: c.toolId, facet: snapshot.facets[c.facet]?.facet.name ?? '', delta: headline(c.effect) }));
  const up = claims.filter((c) => c.delta > 0).sort((a, b) => b.delta - a.delta)[0];
  const down = claims.filter((c) => c.delta < 0).sort((a, b) => a.delta - b.delta)[0];
  return { ...(up ? { up } : {}), ...(down ? { down } : {}) };
}

/** A list of names as a sentence: "a", "a and b", "a, b and 3 more". */
function names(list: readonly string[], most = 2): string {
  const shown = list.slice(0, most).map(quote);
  const rest = list.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
}

/**
 * One paragraph: what it learned from, who does best overall, how many claims (with the strongest
 * two as examples) and tentative entries, what is hard or easy for every tool, and how its claims
 * fared on tasks it never saw. Every number is one the details below show too.
 */
export function memorySummary(input: SummaryInput): string {
  const { snapshot } = input;
  const parts: string[] = [];
  const from =
    input.trainTasks === null ? 'every task' : input.trainTasks !== undefined ? formatPlural(input.trainTasks, 'training task') : 'the training tasks';
  parts.push(`This memory learned from ${from}${input.datasetName ? ` of ${input.datasetName}` : ''}, about ${formatPlural(snapshot.tools.length, 'tool')}.`);
  const ranked = overall(snapshot);
  const m = snapshot.model;
  // The memory's one rounding rule (issue #34): the numbers the entries, bars and cards print.
  const style = snapshotStyle(snapshot);
  if (ranked.length >= 2 && m) {
    const top = levelText(ranked[0]!.mean, style);
    const best = style.percent ? `passes ${top}` : `${top} on the ${formatNumber(m.scale.min, 0)}–${formatNumber(m.scale.max, 0)} scale`;
    parts.push(`Overall ${ranked[0]!.tool} scores best (${best}) and ${ranked.at(-1)!.tool} worst (${levelText(ranked.at(-1)!.mean, style)}).`);
  }
  const claims = snapshot.report.claims ?? snapshot.cells.filter((c) => c.entryId !== null && statusOf(c.effect) === 'claim').length;
  const { up, down } = extremeClaims(snapshot);
  // The headline delta is against the other tools, beyond the tool's usual margin over them: "relatively".
  const examples = [
    up ? `${up.tool} relatively better on ${quote(up.facet)} tasks (${changeText(up.delta, style)}${style.percent ? '' : ' points'})` : '',
    down ? `${down.tool} relatively worse on ${quote(down.facet)} tasks (${changeText(down.delta, style)})` : '',
  ].filter(Boolean);
  if (claims > 0) {
    parts.push(
      `It makes ${formatPlural(claims, 'claim')} — kinds of task on which a tool does clearly better or worse against the others than it usually ` +
        `does${examples.length ? `, such as ${examples.join(' and ')}` : ''}.`,
    );
  } else parts.push('It makes no claim: no tool does clearly better or worse against the others on any kind of task these data test.');
  if (snapshot.report.tentative)
    parts.push(
      `${formatCount(snapshot.report.tentative)} more ${snapshot.report.tentative === 1 ? 'is' : 'are'} tentative: likely, but not settled enough to count.`,
    );
  const note = snapshot.note;
  // The largest shared effects first, as the note lists them (its lines carry the deltas).
  const byEffect = (kind: 'difficulty' | 'ease', fallback: string[]) => {
    const items = (note?.items ?? []).filter((i) => i.kind === kind);
    return items.length ? [...items].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta)).map((i) => i.facet) : fallback;
  };
  const hard = byEffect('difficulty', note?.hard ?? []);
  const easy = byEffect('ease', note?.easy ?? []);
  if (hard.length) parts.push(`Hard for every tool: ${names(hard)}${easy.length ? `; easy for every tool: ${names(easy)}` : ''}.`);
  else if (easy.length) parts.push(`Easy for every tool: ${names(easy)}.`);
  const v = snapshot.report.verification;
  if (v && v.tested > 0) {
    const held = v.counts.holds;
    const against = v.counts.contradicted;
    parts.push(
      `On tasks it never saw, ${formatCount(held)} of ${formatPlural(v.tested, 'claim')} tested ` +
        `held${against ? ` and ${formatCount(against)} ${against === 1 ? 'was' : 'were'} contradicted` : ''}.`,
    );
  }
  return parts.join(' ');
}

/**
 * The entry counts of a capability memory, adding up: "71 entries: 6 tool profiles, 13 claims,
 * 52 tentative" (the build report's "13 claims · 52 tentative" left the profiles out). Null when
 * the counts do not add up (entries written by a model or a person besides them).
 */
export function entryCountsText(report: CapabilitySnapshot['report'], tools: number): string | null {
  const { claims, tentative } = report;
  if (claims === undefined || tentative === undefined) return null;
  const rest = report.entries - claims - tentative - tools;
  const parts = [formatPlural(tools, 'tool profile'), formatPlural(claims, 'claim'), `${formatCount(tentative)} tentative`];
  if (rest > 0) parts.push(`${formatCount(rest)} other`);
  if (rest < 0) return null;
  return `${formatCount(report.entries)} ${report.entries === 1 ? 'entry' : 'entries'}: ${parts.join(', ')}`;
}

/**
 * What a matrix cell's status means for this tool and facet, in words (issue #38: "claim the sign is
 * settled (chance it is wrong ≤ 5%); chance the sign is wrong: < 0.1%"). The sign is of the
 * headline delta: the tool against the other tools on the facet's tasks, beyond its usual margin
 * over them — so a tool ahead of the others everywhere can still do "worse" on a facet, where its
 * lead shrinks. With one tool it is the tool against its own average.
 */
export function cellStatusSentence(effect: Effect, tool: string, facet: string, direction: ScoreDirection = 'higher-better'): string | null {
  const status = statusOf(effect);
  if (!status) return null;
  const d = headline(effect);
  const better = (direction === 'lower-better' ? -d : d) > 0;
  const vs = effect.deltaVsOthers === null ? 'than its own average' : 'against the other tools than it usually does';
  const way = better ? 'better' : 'worse';
  const chance = effect.lfsr === undefined ? null : chanceText(effect.lfsr);
  // Said after the status's badge ("claim", "tentative, not a claim", "no claim"), so it does not repeat it.
  if (status === 'claim') return `${tool} does ${way} on ${quote(facet)} tasks ${vs}${chance ? `; the chance it is the other way is ${chance}` : ''}.`;
  if (status === 'tentative')
    return (
      `${tool} probably does ${way} on ${quote(facet)} tasks ${vs}${chance ? `, but the chance it is the other way is ${chance}` : ''} — too ` +
      `high to state it as a fact.`
    );
  return `The data do not settle it: ${tool} leans ${way} on ${quote(facet)} tasks ${vs}${chance ? `, with a ${chance} chance it is the other way` : ''}.`;
}

/** A probability as a person reads it: "below 0.1%", "2%", "0.4%". */
function chanceText(p: number): string {
  if (!Number.isFinite(p)) return 'unknown';
  if (p < 0.001) return 'below 0.1%';
  if (p < 0.0095) return `${(p * 100).toFixed(1)}%`;
  return `${Math.round(p * 100)}%`;
}
