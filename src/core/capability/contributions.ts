/**
 * A memory prediction's explanation: the tool's score as its mean plus one line per entry, dataset
 * note or aggregate, each in score points (mean + Σ points = the unclamped score). Every line has the
 * sign its words say: a claim's line is the tool's own deviation on the facet, a dataset note's line
 * what every tool shares there, and what has no words of its own goes to an aggregate line.
 */
import { toolDeviation, toolDeviations, type JointModel } from './fit';
import { noteSign } from './templates';
import type { CapabilityEntry, DatasetNote } from './entries';
import type { Contribution, DiscoveredFacet } from './types';

/** The tool's deviations on facets with no entry of their own. */
export const OTHER_ID = 'other';
/** The facets the task lacks (their small shares, or a probability below ½). */
export const ABSENT_ID = 'absent';
/** The isotonic guard that keeps the tools in their training order (the reader's words: their overall ranking). */
export const ORDER_ID = 'order';
/** What every tool shares on the task's facets (the part of a claim's facet that is not the tool's own). */
export const SHARED_ID = 'shared';

export interface ContributionInput {
  /** The tool's index in the fit. */
  tool: number;
  /** The tool's points per facet for this task (fit.ts facetPoints). */
  points: readonly number[];
  /** The task's facet values: 1 / 0 for a known tag or cue, a probability for a tag read from text. */
  x: readonly number[];
  /** Per facet, the entry or note that speaks for it (OTHER_ID when none does). */
  labels: readonly { id: string; text: string }[];
  /** A twin facet's index → the facet it was merged into (its probability is shown). */
  keptOf: ReadonlyMap<number, number>;
  model: JointModel;
  /** The order guard's points for this tool (0: none). */
  guard: number;
}

export interface LabelInput {
  tools: readonly string[];
  facets: readonly DiscoveredFacet[];
  /** A twin facet's index → the facet it was merged into (its share is credited there). */
  keptOf: ReadonlyMap<number, number>;
  entries: readonly CapabilityEntry[];
  notes: readonly DatasetNote[];
  /** The predictor's fits (on tags, and for free text): a tentative entry speaks only where every one agrees with it. */
  fits: readonly JointModel[];
}

/**
 * Per tool and facet, the entry or note whose words a contribution line carries. A claim's entry
 * always; a tentative entry (its text says "Tentative:") where every fit gives the tool's deviation
 * on the facet the sign the entry states — the prediction uses that deviation whatever the entry's
 * status, and a reader should see it under the entry's words rather than in "other facets" (issue
 * #34: an agent's prompt cited only shared notes where the tool's own, less sure, entry was at
 * work). Then the facet's dataset note; else OTHER_ID.
 */
export function contributionLabels(input: LabelInput): { id: string; text: string }[][] {
  const { tools, facets, keptOf, fits } = input;
  const facetIndex = new Map(facets.map((d, f) => [d.facet.name, f]));
  const agrees = (e: CapabilityEntry) => {
    const f = facetIndex.get(e.facet.name);
    const sign = Math.sign(e.claim.delta);
    if (f === undefined || sign === 0 || !fits.length) return false;
    // Every fit must have the tool and the facet, and give the deviation the entry's sign.
    const devs = toolDeviations(fits, e.toolId, f);
    return devs.length === fits.length && devs.every((d) => Math.sign(d) === sign);
  };
  const spoken = input.entries.filter((e) => e.status === 'claim' || (e.status === 'tentative' && agrees(e)));
  const entryOf = new Map(spoken.map((e) => [`${e.toolId}\u0000${e.facet.name}`, e]));
  const noteOf = new Map(input.notes.map((n) => [n.facet.name, n]));
  return tools.map((tool) =>
    facets.map((_, f) => {
      const d = facets[keptOf.get(f) ?? f]!;
      const e = entryOf.get(`${tool}\u0000${d.facet.name}`);
      if (e) return { id: e.id, text: e.text };
      const n = noteOf.get(d.facet.name);
      return n ? { id: n.id, text: n.text } : { id: OTHER_ID, text: 'other facets of this task' };
    }),
  );
}

/** The explanation's lines, largest first (ties by id), same ids summed into one line. */
export function contributionLines(input: ContributionInput): Contribution[] {
  const { tool: j, points, x, labels, keptOf, model, guard } = input;
  const byId = new Map<string, Contribution>();
  const add = (id: string, text: string, p: number, probability?: number) => {
    const c = byId.get(id);
    if (c) c.points += p;
    else byId.set(id, { entryId: id, text, points: p, ...(probability !== undefined ? { probability } : {}) });
  };
  points.forEach((p, f) => {
    // A facet applies when its value is at least ½ (a tag's detector may give a probability);
    // the line shows the probability of the facet it stands for (a twin's, the one it merged into).
    const on = x[f]! >= 0.5;
    const label = on ? labels[f]! : { id: ABSENT_ID, text: 'facets this task lacks' };
    if (!on || label.id === OTHER_ID) return add(label.id, label.text, p);
    const probability = x[keptOf.get(f) ?? f]!;
    // The tool's deviation from the average tool (γ_jf − γ̄_f) and what every tool shares on the
    // facet (β_f + γ̄_f) are apart, so each line has the sign its words say: a claim gets the
    // deviation (its shared part is the "shared" line); a dataset note gets the shared part
    // (the tool's own deviation goes to "other facets").
    const own = (x[f]! - model.freq[f]!) * toolDeviation(model, j, f);
    if (!label.id.startsWith('dataset:')) {
      add(label.id, label.text, own, probability);
      return add(SHARED_ID, "what every tool shares on this task's facets", p - own);
    }
    // The note's line only where its share has the sign its words state ("hard" lowers the
    // score): fitted jointly, a facet hard on its own can add a little once overlapping
    // facets have taken their share; that goes to "other facets" instead.
    const shared = p - own;
    const sign = noteSign(label.text);
    if (sign === 0 || shared === 0 || Math.sign(shared) === sign) {
      add(label.id, label.text, shared, probability);
      add(OTHER_ID, 'other facets of this task', own);
    } else add(OTHER_ID, 'other facets of this task', p);
  });
  if (guard !== 0) add(ORDER_ID, "held to the tools' overall ranking", guard);
  return [...byId.values()].sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || (a.entryId < b.entryId ? -1 : 1));
}
