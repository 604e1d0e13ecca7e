/**
 * The claims part of `npm run bench:quality` (issue #25), also runnable alone:
 *   npx tsx bench/drivers/claims-bench.ts [--seeds A-B] [--only genai|alpaca|wmt|mmlu|curve] [--no-rmse]
 *     [--max-lfsr X] [--max-flip X] [--mean-flip X] [--scale score|logit|normal|auto] [--hetero] [--self-check] [--adaptive] [--kind-prior] [--ash-check]
 * Builds capability memories on a training split (no LLM) and checks every claim on the tasks the
 * memory never saw, with the same raw statistic the product's `toolmem verify` uses:
 *   direction         share of tested claims whose unseen sign agrees
 *   confidently wrong share of tested claims contradicted (unseen 95% interval on the other side)
 *   confirmed         claims that hold (unseen interval on the claimed side of 0)
 *   calibration       Σ unseen effect in the claimed direction / Σ |claimed| (1 = right size)
 *   profiled          tools with their overall entry / tools
 * Contrast scale (`--scale`, default auto): logit for pass/fail sets; for interval scores whose per-task
 * residuals have heavy tails (excess kurtosis ≥ 3: WMT MQM) a claim must also hold on normal scores, and
 * the goal line says in how many builds.
 * Figures are pooled over seeds; the design was tuned on seeds 101–140 (`--seeds 101-140`), so the
 * reported seeds 1–5 (GenAI-Bench) and 1–3 (AlpacaEval, WMT MQM) are held out. Prints, never asserts.
 * `--smoke`: one seed, the first 160 tasks of each set, the bundled GenAI-Bench and AlpacaEval
 * copies, 60 training tasks (the curve: 50), WMT MQM skipped when the data folder is missing.
 */
import { wilson } from '../../src/core/label/pairwise-stats';
import { loadData } from '../../src/cli/load-data';
import { applies } from '../../src/core/capability/facets';
import { oriented, scoreTableFromSet, splitMoments, type ScoreTable } from '../../src/core/capability/effects';
import { admitsOnNormalScores } from '../../src/core/capability/contrast-scale';
import { verifyPick } from '../../src/core/capability/picks';
import { boardLevels, rankPosterior } from '../../src/core/capability/leaderboard';
import { CapabilityMemoryPredictor } from '../../src/core/capability/predictor';
import { MIN_VERIFY_N, verifyEntries } from '../../src/core/capability/verify';
import { evaluate, groundTruth, splitByTask, table, trainingExample, type ScoredPair } from '../../src/core/eval';
import { createPredictor } from '../../src/core/predict';
import type { TrainingExample, TrainingSet } from '../../src/core/predict/types';
import type { DiscoveredFacet, FacetKind, LeaderRow } from '../../src/core/capability/types';
import type { ScoreScale } from '../../src/core/types';
import { createTransformersEmbedder } from '../../src/model-host/transformers-embedder';
import { existsSync, readFileSync } from 'node:fs';
import { dumpPickInput } from './pick-dump';
import { argValue, seedSpan, sharedData, SMOKE, smokeTasks } from './bench-env';

export interface Loaded {
  data: ScoredPair[];
  scale: ScoreScale;
  vectors: Map<string, Float32Array>;
}

export async function loadSet(file: string, opts: { skills?: string; scale?: ScoreScale } = {}): Promise<Loaded> {
  const { dataset, experiences } = await loadData({
    data: file,
    ...(opts.skills ? { skills: opts.skills } : {}),
    ...(opts.scale ? { scale: opts.scale } : {}),
  });
  const data = smokeTasks(groundTruth(experiences, dataset.raterPolicy));
  const prompts = new Map<string, string>();
  for (const p of data) if (!prompts.has(p.taskId)) prompts.set(p.taskId, p.prompt);
  const ids = [...prompts.keys()];
  const batch = await createTransformersEmbedder().embed(ids.map((id) => prompts.get(id)!));
  const vectors = new Map(ids.map((id, i) => [id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
  return { data, scale: dataset.scale, vectors };
}

/** The rows as a predictor's training examples, each with its prompt's vector where there is one. */
export function trainingExamples(data: readonly ScoredPair[], vectors: ReadonlyMap<string, Float32Array>): TrainingExample[] {
  return data.map((p) => trainingExample(p, vectors));
}

export interface ClaimsRow {
  label: string;
  builds: number;
  /** Builds whose claims had to hold on normal scores too (heavy tails, contrast-scale.ts). */
  normalScores: number;
  claims: number;
  tentative: number;
  tested: number;
  agree: number;
  holds: number;
  contradicted: number;
  along: number;
  size: number;
  tools: number;
  profiled: number;
  /** Tools with at least one claim or tentative entry beyond the profile. */
  withFacetEntry: number;
  /** Claims whose two means (the tool's and the others' on the facet) sit within 15% of the scale of one bound. */
  bound: number;
  /** Pick claims: made, tested on unseen tasks, with the pick ahead there, holding. */
  picks: number;
  pickTested: number;
  pickAgree: number;
  pickHolds: number;
  pickContradicted: number;
  /** Σ stated probability of the tested picks (their mean beside the direction). */
  pickProbability: number;
  /**
   * Leaderboards checked on unseen tasks: facets with at least MIN_VERIFY_N unseen tasks, Σ the chance
   * of being best stated for each facet's likely best tool, and how often that tool is the best there.
   */
  boards: number;
  boardStated: number;
  boardBest: number;
  /** Σ the likely best tool's chance of being best on a new sample the size of the facet's unseen tasks (the check's own noise added). */
  boardExpected: number;
}

export const emptyRow = (label: string): ClaimsRow => ({
  label,
  builds: 0,
  normalScores: 0,
  claims: 0,
  tentative: 0,
  tested: 0,
  agree: 0,
  holds: 0,
  contradicted: 0,
  along: 0,
  size: 0,
  tools: 0,
  profiled: 0,
  withFacetEntry: 0,
  bound: 0,
  picks: 0,
  pickTested: 0,
  pickAgree: 0,
  pickHolds: 0,
  pickContradicted: 0,
  pickProbability: 0,
  boards: 0,
  boardStated: 0,
  boardBest: 0,
  boardExpected: 0,
});

function sub(data: readonly ScoredPair[], ids: ReadonlySet<string>) {
  return data.filter((p) => ids.has(p.taskId));
}

/** A 95% interval as the CLAIMS_DEBUG lines print it: "[lo, hi]" at 3 decimals ("[NaN, NaN]" when there is none). */
const intervalOf = (ci: readonly [number, number] | null | undefined): string => `[${(ci ?? [NaN, NaN]).map((c) => c.toFixed(3)).join(', ')}]`;

/** One build on `train` tasks, its claims checked on the rest; adds to `row`. */
export function checkBuild(
  set: Loaded,
  trainIds: readonly string[],
  row: ClaimsRow,
  opts: {
    kinds?: readonly FacetKind[];
    maxLfsr?: number;
    maxFlip?: number;
    meanFlip?: number;
    contrastScale?: 'score' | 'logit' | 'normal' | 'auto';
    heterogeneity?: boolean;
    /** true: each facet kind's flip level from the inner self-check (claims.ts, self-check.ts). */
    selfCheck?: boolean;
    /** true: the adaptive posterior alone may admit a claim (claims.ts `adaptive`, admit.ts). */
    adaptive?: boolean;
    /** true: a prior variance per facet kind in the score-point shrinkage (claims.ts `kindPrior`). */
    kindPrior?: boolean;
    /** true: the adaptive-shrinkage check on light-tailed score points too (claims.ts `ashCheck`). */
    ashCheck?: boolean;
  } = {},
): void {
  const train = new Set(trainIds);
  const test = new Set(set.data.map((p) => p.taskId).filter((id) => !train.has(id)));
  const trainSet: TrainingSet = {
    scale: set.scale,
    examples: trainingExamples(sub(set.data, train), set.vectors),
  };
  const claimRules = {
    ...(opts.maxLfsr !== undefined ? { maxLfsr: opts.maxLfsr } : {}),
    ...(opts.maxFlip !== undefined ? { maxFlip: opts.maxFlip } : {}),
    ...(opts.meanFlip !== undefined ? { meanFlip: opts.meanFlip } : {}),
    ...(opts.contrastScale ? { contrastScale: opts.contrastScale } : {}),
    ...(opts.heterogeneity ? { heterogeneity: true } : {}),
    ...(opts.selfCheck ? { selfCheck: true } : {}),
    ...(opts.adaptive ? { adaptive: true } : {}),
    ...(opts.kindPrior ? { kindPrior: true } : {}),
    ...(opts.ashCheck === true ? { ashCheck: true } : {}),
  };
  const predictor = new CapabilityMemoryPredictor({ ...(opts.kinds ? { kinds: opts.kinds } : {}), claims: claimRules });
  predictor.fit(trainSet);
  // Every rater (issue #34): where the data has several, the unseen check reads their mean.
  const unseenRows = sub(set.data, test).map((p) => {
    const valid = (p.ratings ?? []).filter((r) => r >= set.scale.min && r <= set.scale.max);
    return valid.length > 1 ? { ...p, score: valid.reduce((a, b) => a + b, 0) / valid.length } : p;
  });
  const unseen = scoreTableFromSet({ scale: set.scale, examples: unseenRows });
  const tasks = new Map(unseenRows.map((p) => [p.taskId, p]));
  const claims = predictor.entries.filter((e) => e.status === 'claim');
  // CLAIMS_DEBUG=admission prints, with --self-check, each facet kind's inner check and level (self-check.ts).
  if (process.env.CLAIMS_DEBUG === 'admission' && predictor.admission) console.log(`admission: ${JSON.stringify(predictor.admission.kinds)}`);
  // CLAIMS_DEBUG=hetero prints each facet's split-half inflation κ (hetero.ts).
  if (process.env.CLAIMS_DEBUG === 'hetero')
    console.log(`inflation: ${predictor.facets.map((d, f) => `${d.facet.name} ${(predictor.inflation[f] ?? 1).toFixed(2)}`).join('; ')}`);
  const byName = new Map(claims.map((e) => [e.facet.name, e]));
  const membersOf = (name: string) => {
    const e = byName.get(name)!;
    return unseen.taskIds.filter((id) => {
      const t = tasks.get(id)!;
      const v = set.vectors.get(id);
      return applies(
        { facet: e.facet, ...(e.centroid ? { centroid: e.centroid } : {}) },
        { prompt: t.prompt, categories: t.categories, ...(v ? { vector: v } : {}) },
      );
    });
  };
  const report = verifyEntries(claims, unseen, (f) => membersOf(f.name), { on: 'test-split', at: 0, minN: MIN_VERIFY_N });
  row.builds++;
  row.claims += claims.length;
  row.bound += claims.filter((e) => hugsBound(e.effect, set.scale)).length;
  if (admitsOnNormalScores(predictor.contrastScale)) row.normalScores++;
  row.tentative += predictor.entries.length - claims.length;
  for (const e of claims) {
    const v = report.verdicts.get(e.id)!;
    if (v.verdict === 'untested' || v.delta === null) continue;
    row.tested++;
    const agrees = Math.sign(v.delta) === Math.sign(e.claim.delta);
    if (agrees) row.agree++;
    // CLAIMS_DEBUG=1 prints the wrong-sign claims, CLAIMS_DEBUG=all every tested claim.
    if (process.env.CLAIMS_DEBUG && (!agrees || process.env.CLAIMS_DEBUG === 'all'))
      console.log(
        `${agrees ? 'right' : 'wrong'}: ${e.toolId} | ${e.facet.name} | claimed ${e.claim.delta.toFixed(3)} ${intervalOf(e.claim.ci95)} raw ${e.effect.raw?.delta.toFixed(3)} ${intervalOf(e.effect.raw?.ci95)} lfsr ${e.effect.lfsr?.toFixed(3)} n ${e.effect.n} | unseen ${v.delta.toFixed(3)} ${intervalOf(v.ci95)} n ${v.n} ${v.verdict}`,
      );
    if (v.verdict === 'holds') row.holds++;
    if (v.verdict === 'contradicted') row.contradicted++;
    row.along += Math.sign(e.claim.delta) * v.delta;
    row.size += Math.abs(e.claim.delta);
  }
  // Which unseen tasks a facet's rule applies to (picks and leaderboards are checked on them).
  const memberOf = (d: DiscoveredFacet) =>
    Uint8Array.from(unseen.taskIds, (id) => {
      const t = tasks.get(id)!;
      const vec = set.vectors.get(id);
      return applies(d, { prompt: t.prompt, categories: t.categories, ...(vec ? { vector: vec } : {}) }) ? 1 : 0;
    });
  // Pick claims: does the pick beat the overall best on the facet's unseen tasks?
  const vByTool = new Map(unseen.toolIds.map((id, j) => [id, oriented(unseen)[j]!]));
  for (const k of predictor.picks) {
    const d = predictor.facets[k.facet]!;
    const v = verifyPick(k, vByTool, memberOf(d), { on: 'test-split', at: 0 });
    row.picks++;
    if (v.verdict === 'untested' || v.delta === null) continue;
    row.pickTested++;
    row.pickProbability += k.probability;
    if (v.delta > 0) row.pickAgree++;
    if (v.verdict === 'holds') row.pickHolds++;
    if (v.verdict === 'contradicted') row.pickContradicted++;
    if (process.env.CLAIMS_DEBUG)
      console.log(
        `pick: ${k.toolId} over ${k.over} on ${d.facet.name}: p ${k.probability.toFixed(3)} lead ${k.lead.toFixed(3)} n ${k.n} | unseen ${v.delta.toFixed(3)} ${intervalOf(v.ci95)} n ${v.n} ${v.verdict}`,
      );
  }
  if (process.env.PICKS_DUMP) dumpPickInput(process.env.PICKS_DUMP, row.label, predictor, unseen, memberOf);
  checkBoards(predictor, unseen, memberOf, row);
  const tools = new Set(trainSet.examples.map((e) => e.toolId));
  row.tools += tools.size;
  row.profiled += new Set(predictor.profiles.map((p) => p.toolId)).size;
  row.withFacetEntry += new Set(predictor.entries.map((e) => e.toolId)).size;
}

/**
 * Each facet's leaderboard checked on unseen tasks: its likely best tool (the highest chance of being
 * best) against the tool with the highest mean on the facet's unseen tasks (oriented; at least
 * MIN_VERIFY_N of them). A calibrated board's stated chances add up to about as many hits.
 */
function checkBoards(predictor: CapabilityMemoryPredictor, unseen: ScoreTable, memberOf: (d: DiscoveredFacet) => Uint8Array, row: ClaimsRow): void {
  const input = predictor.boardInput;
  if (!input) return;
  const v = oriented(unseen);
  const unseenIndex = new Map(unseen.toolIds.map((id, j) => [id, j]));
  predictor.leaderboards.forEach((board, f) => {
    const likely = board.reduce<LeaderRow | null>((a, r) => (!a || r.pBest > a.pBest ? r : a), null);
    if (!likely) return;
    const member = memberOf(predictor.facets[f]!);
    // Each tool's moments on the facet's unseen tasks (NaN skipped), computed once.
    const unseenOn = v.map((col) => splitMoments(col, member).inside);
    const count = unseenOn.map((m) => m.n);
    const scored = v.map((_, j) => j).filter((j) => count[j]! > 0);
    if (Math.max(0, ...count) < MIN_VERIFY_N || !scored.length) return;
    const best = scored.reduce((a, j) => (unseenOn[j]!.mean > unseenOn[a]!.mean ? j : a));
    row.boards++;
    row.boardStated += likely.pBest;
    if (unseen.toolIds[best] === likely.toolId) row.boardBest++;
    // The chance the board's posterior gives of the likely tool being best on a sample of the unseen
    // size: each level's variance plus the paired spread over that many tasks.
    const { present, raw, levels } = boardLevels(input.v, input.scores, input.x[f]!, input.prior);
    const toolIds = predictor.model!.tools;
    const widened = present.map((j, i) => {
      const l = levels[i]!;
      const r = raw[i]!;
      const m = count[unseenIndex.get(toolIds[j]!) ?? -1] ?? 0;
      const spread = Number.isFinite(r.se) && m > 0 ? (r.se * r.se * r.n) / m : 0;
      return { mean: l.mean, sd: Math.sqrt((Number.isFinite(l.sd) ? l.sd * l.sd : 0) + spread) };
    });
    const at = present.findIndex((j) => toolIds[j] === likely.toolId);
    if (at >= 0) row.boardExpected += rankPosterior(widened).pBest[at]!;
  });
}

/** Both means within 15% of the scale's width of the same bound: the claim restates a floor or a ceiling. */
export function hugsBound(effect: { mean?: number; othersMean?: number }, scale: ScoreScale): boolean {
  if (effect.mean === undefined || effect.othersMean === undefined) return false;
  const room = 0.15 * (scale.max - scale.min);
  const low = effect.mean - scale.min <= room && effect.othersMean - scale.min <= room;
  const high = scale.max - effect.mean <= room && scale.max - effect.othersMean <= room;
  return low || high;
}

const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(3) : '—');

export function claimsTable(rows: readonly ClaimsRow[]): string {
  return table(
    [
      'set',
      'builds',
      'claims',
      'tentative',
      'tested',
      'direction',
      'confidently wrong',
      'confirmed',
      'calibration',
      'at a bound',
      'profiled',
      'tools with a facet entry',
      'picks (tested)',
      'pick direction',
    ],
    rows.map((r) => [
      r.label,
      String(r.builds),
      String(r.claims),
      String(r.tentative),
      String(r.tested),
      ratio(r.agree, r.tested),
      ratio(r.contradicted, r.tested),
      String(r.holds),
      ratio(r.along, r.size),
      ratio(r.bound, r.claims),
      `${r.profiled}/${r.tools}`,
      `${r.withFacetEntry}/${r.tools}`,
      `${r.picks} (${r.pickTested})`,
      ratio(r.pickAgree, r.pickTested),
    ]),
  );
}

export function seedRange(arg: string | undefined, fallback: number[]): number[] {
  if (!arg) return fallback;
  const m = /^(\d+)-(\d+)$/.exec(arg);
  if (!m) return arg.split(',').map(Number);
  return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
}

// The smoke reads the bundled copies (GenAI-Bench's is the same file; AlpacaEval's has 100 of the 805 instructions).
export const GENAI = SMOKE
  ? { data: 'public/demo/genai_image.json', skills: 'public/demo/genai_skills.json' }
  : { data: sharedData('genai_bench/genai_image.json'), skills: sharedData('genai_bench/genai_skills.json') };
export const ALPACA = SMOKE ? 'public/demo/alpaca_eval_100.csv' : sharedData('alpaca_eval_2/experiences.csv');
export const WMT = sharedData('wmt_mqm/experiences.csv');
/** Training tasks of a GenAI-Bench build (the smoke keeps 160 tasks), and the learning curve's sizes. */
const GENAI_TRAIN = SMOKE ? 60 : Number(argValue('--train', '200'));
const CURVE = SMOKE ? [50] : [50, 100, 200, 400, 800];
export const MMLU = sharedData('mmlu_pro/experiences.csv');
const MMLU_ITEMS = sharedData('mmlu_pro/items.csv');

/**
 * A stand-in for pass/fail sets with difficulty categories (floors and ceilings): MMLU-Pro with each
 * question tagged by where it came from (original MMLU, STEM websites, TheoremQA, SciBench; the last
 * two are hard for every model) instead of its subject.
 */
export function mmluBySource(set: Loaded): Loaded {
  const src = new Map<string, string>();
  for (const line of readFileSync(MMLU_ITEMS, 'utf8').split('\n').slice(1)) {
    const [id, , , source] = line.split(',');
    if (id && source) src.set(id, source.replace(/-.*$/, ''));
  }
  return { ...set, data: set.data.map((p) => ({ ...p, categories: [src.get(p.taskId) ?? 'unknown'] })) };
}
export const WMT_SCALE: ScoreScale = { min: -25, max: 0, direction: 'higher-better', integer: false };

/**
 * The goals of issue #34 (issue #25's, raised): GenAI-Bench's 10 builds, the other sets half / half;
 * on pass/fail data at most 5% of claims restate a floor or a ceiling; pick claims, pooled over
 * every set, point the right way on unseen tasks ≥ 90% of the time.
 */
export const CLAIM_GOALS = {
  genai: { direction: 0.95, wrong: 0.02, calibration: 0.8, confirmed: 60 },
  other: { direction: 0.95, wrong: 0.03, calibration: 0.6 },
  passFail: { direction: 0.95, wrong: 0.03, calibration: 0.6, bound: 0.05 },
  pickDirection: 0.9,
};

/**
 * "95% interval a–b of n; " for a share of k in n (Wilson), so a reader can tell a miss from the
 * noise of a few claims: 1 of 2 picks spans 0.09–0.91. Empty for n = 0. It counts the claims as
 * independent trials; builds of one set share tasks and overlapping facets share luck, so the real
 * interval is wider.
 */
export function shareInterval(k: number, n: number): string {
  if (n <= 0) return '';
  const [lo, hi] = wilson(k, n);
  return `95% interval ${lo.toFixed(2)}–${hi.toFixed(2)} of ${n}; `;
}

export function goalLine(r: ClaimsRow, g: { direction: number; wrong: number; calibration: number; confirmed?: number; bound?: number }): string {
  const dir = r.tested ? r.agree / r.tested : NaN;
  const wrong = r.tested ? r.contradicted / r.tested : NaN;
  const cal = r.size ? r.along / r.size : NaN;
  const parts = [
    `direction ${dir.toFixed(3)} (${shareInterval(r.agree, r.tested)}≥ ${g.direction}: ${dir >= g.direction ? 'met' : 'missed'})`,
    `confidently wrong ${wrong.toFixed(3)} (≤ ${g.wrong}: ${wrong <= g.wrong ? 'met' : 'missed'})`,
    `calibration ${cal.toFixed(3)} (≥ ${g.calibration}: ${cal >= g.calibration ? 'met' : 'missed'})`,
    `profiled ${r.profiled}/${r.tools} (${r.profiled === r.tools ? 'met' : 'missed'})`,
  ];
  if (g.confirmed !== undefined) parts.push(`confirmed ${r.holds} (≥ ${g.confirmed}: ${r.holds >= g.confirmed ? 'met' : 'missed'})`);
  const bound = r.claims ? r.bound / r.claims : 0;
  if (g.bound !== undefined) parts.push(`at a bound ${bound.toFixed(3)} of claims (≤ ${g.bound}: ${bound <= g.bound ? 'met' : 'missed'})`);
  // Issue #34: claims and confirmed per build, so more claims from the same evidence shows.
  if (r.builds) parts.push(`per build ${(r.claims / r.builds).toFixed(1)} claims, ${(r.holds / r.builds).toFixed(1)} confirmed`);
  // Heavy tails (contrast-scale.ts): how many builds held their claims to normal scores too.
  if (r.normalScores) parts.push(`claims also held to normal scores (heavy tails) in ${r.normalScores} of ${r.builds} builds`);
  return `${r.label}: ${parts.join('; ')}`;
}

async function main() {
  const argv = process.argv.slice(2);
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = arg('--only');
  const maxLfsrArg = arg('--max-lfsr');
  const maxLfsr = maxLfsrArg ? Number(maxLfsrArg) : undefined;
  const scaleArg = arg('--scale') as 'score' | 'logit' | 'normal' | 'auto' | undefined;
  const maxFlipArg = arg('--max-flip');
  const meanFlipArg = arg('--mean-flip');
  const tuning = {
    ...(maxLfsr !== undefined ? { maxLfsr } : {}),
    ...(maxFlipArg ? { maxFlip: Number(maxFlipArg) } : {}),
    ...(meanFlipArg ? { meanFlip: Number(meanFlipArg) } : {}),
    ...(scaleArg ? { contrastScale: scaleArg } : {}),
    ...(argv.includes('--hetero') ? { heterogeneity: true } : {}),
    ...(argv.includes('--self-check') ? { selfCheck: true } : {}),
    ...(argv.includes('--adaptive') ? { adaptive: true } : {}),
    ...(argv.includes('--kind-prior') ? { kindPrior: true } : {}),
    ...(argv.includes('--ash-check') ? { ashCheck: true } : {}),
  };
  const rows: ClaimsRow[] = [];
  const t0 = Date.now();
  if (!only || only === 'genai' || only === 'curve') {
    const genai = await loadSet(GENAI.data, { skills: GENAI.skills });
    const ids = [...new Set(genai.data.map((p) => p.taskId))];
    if (!only || only === 'genai') {
      const seeds = seedRange(arg('--seeds'), SMOKE ? [1] : [1, 2, 3, 4, 5]);
      const tags = emptyRow(`GenAI-Bench ${GENAI_TRAIN}, tags, seeds ${seedSpan(seeds)}`);
      const noTags = emptyRow(`GenAI-Bench ${GENAI_TRAIN}, no tags, seeds ${seedSpan(seeds)}`);
      for (const seed of seeds) {
        const split = splitByTask(ids, { train: GENAI_TRAIN, test: ids.length - GENAI_TRAIN }, seed);
        checkBuild(genai, split.train, tags, tuning);
        checkBuild(genai, split.train, noTags, { kinds: ['cue', 'theme'], ...tuning });
      }
      const pooled = emptyRow(`GenAI-Bench ${GENAI_TRAIN}, pooled (${2 * seeds.length} builds)`);
      for (const r of [tags, noTags]) for (const k of Object.keys(r) as (keyof ClaimsRow)[]) if (k !== 'label') (pooled[k] as number) += r[k] as number;
      rows.push(tags, noTags, pooled);
      console.log(claimsTable([tags, noTags, pooled]));
      console.log(goalLine(pooled, CLAIM_GOALS.genai));
    }
    if (!only || only === 'curve') {
      const curve: ClaimsRow[] = [];
      const seeds = SMOKE ? [1] : [1, 2, 3, 4, 5];
      for (const train of CURVE) {
        const r = emptyRow(`GenAI-Bench ${train} training tasks (tags, seeds ${seedSpan(seeds)})`);
        for (const seed of seeds) checkBuild(genai, splitByTask(ids, { train, test: ids.length - train }, seed).train, r);
        curve.push(r);
      }
      console.log('\nLearning curve: claims grow with data while precision holds');
      console.log(claimsTable(curve));
      rows.push(...curve);
    }
  }
  const halves = async (
    label: string,
    file: string,
    scale?: ScoreScale,
    change?: (set: Loaded) => Loaded,
    goals: Parameters<typeof goalLine>[1] = CLAIM_GOALS.other,
  ) => {
    const loaded = await loadSet(file, scale ? { scale } : {});
    const set = change ? change(loaded) : loaded;
    const ids = [...new Set(set.data.map((p) => p.taskId))];
    const seeds = seedRange(arg('--seeds'), SMOKE ? [1] : [1, 2, 3]);
    const r = emptyRow(`${label}, half / half, seeds ${seedSpan(seeds)}`);
    const train = Math.floor(ids.length / 2);
    for (const seed of seeds) checkBuild(set, splitByTask(ids, { train, test: ids.length - train }, seed).train, r, tuning);
    console.log(claimsTable([r]));
    console.log(goalLine(r, goals));
    // The memory predictor is never worse than tool-mean (RMSE) on the same splits.
    if (argv.includes('--no-rmse')) return void rows.push(r);
    const ev = await evaluate({
      data: set.data,
      scale: set.scale,
      sizes: { train, test: ids.length - train },
      seeds,
      methods: [
        { id: 'tool-mean', create: () => createPredictor('tool-mean') },
        { id: 'memory', create: () => new CapabilityMemoryPredictor() },
      ],
      vectors: set.vectors,
    });
    const rmse = (m: string) => ev.seeds.reduce((a, s) => a + s.methods[m]!.mean.rmse, 0) / ev.seeds.length;
    console.log(
      `${label}: memory RMSE ${rmse('memory').toFixed(4)} vs tool-mean ${rmse('tool-mean').toFixed(4)} (${rmse('memory') <= rmse('tool-mean') ? 'not worse: met' : 'worse: missed'})`,
    );
    rows.push(r);
  };
  if (only === 'wmt-sub') {
    // A stand-in for multi-tool sets we do not have: 280 segments × 12 of the 14 systems, per seed.
    const set = await loadSet(WMT, { scale: WMT_SCALE });
    const ids = [...new Set(set.data.map((p) => p.taskId))].sort();
    const tools = [...new Set(set.data.map((p) => p.toolId))].sort();
    const seeds = seedRange(arg('--seeds'), [1, 2, 3]);
    const r = emptyRow(`WMT MQM subsets (280 segments × 12 systems), seeds ${seedSpan(seeds)}`);
    for (const seed of seeds) {
      const pick = splitByTask(ids, { train: 280, test: 0 }, seed + 1000).train;
      const keepTools = new Set(splitByTask(tools, { train: 12, test: 0 }, seed + 2000).train);
      const keep = new Set(pick);
      const subset: Loaded = { ...set, data: set.data.filter((p) => keep.has(p.taskId) && keepTools.has(p.toolId)) };
      checkBuild(subset, splitByTask(pick, { train: 140, test: 140 }, seed).train, r, maxLfsr !== undefined ? { maxLfsr } : {});
    }
    console.log(claimsTable([r]));
    console.log(goalLine(r, CLAIM_GOALS.other));
  }
  if (!only || only === 'alpaca') await halves('AlpacaEval (categories)', ALPACA);
  if (SMOKE && !existsSync(WMT)) console.log(`WMT MQM: skipped (${WMT} not found)`);
  else if (!only || only === 'wmt') await halves('WMT MQM', WMT, WMT_SCALE);
  // MMLU-Pro (pass/fail, issue #34): the smoke runs it on its first 160 questions when the data folder is there.
  if (SMOKE && !existsSync(MMLU)) console.log(`MMLU-Pro: skipped (${MMLU} not found)`);
  else if (!only || only === 'mmlu') await halves('MMLU-Pro (pass/fail)', MMLU, undefined, undefined, CLAIM_GOALS.passFail);
  if (only === 'mmlu-src') await halves('MMLU-Pro by source (pass/fail)', MMLU, undefined, mmluBySource, CLAIM_GOALS.passFail);
  // Pick claims pooled over every set (the curve's builds repeat GenAI-Bench's: left out).
  const pickRows = rows.filter((r) => !/training tasks/.test(r.label) && !/pooled/.test(r.label));
  const pt = pickRows.reduce((a, r) => a + r.pickTested, 0);
  const pa = pickRows.reduce((a, r) => a + r.pickAgree, 0);
  const pdir = pt ? pa / pt : NaN;
  console.log(
    `Pick claims, pooled over the sets above: ${pickRows.reduce((a, r) => a + r.picks, 0)} made, ${pt} tested, direction ${pt ? pdir.toFixed(3) : '—'} ` +
      `(${shareInterval(pa, pt)}≥ ${CLAIM_GOALS.pickDirection}: ${pt ? (pdir >= CLAIM_GOALS.pickDirection ? 'met' : 'missed') : 'untested'})`,
  );
  console.log(`claims bench: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
export { main as claimsBench };
