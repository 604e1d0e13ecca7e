/**
 * The capability memory's part of `npm run bench:quality` (issue #15): claims checked on the test
 * split (memory precision), the DALLE_3 negation / part-relation check, and the engine time of a
 * no-LLM build on the demo data. Imported by quality-bench.ts; prints, never asserts.
 */
import { applies } from '../../src/core/capability/facets';
import type { ScoreTable } from '../../src/core/capability/effects';
import type { CapabilityEntry } from '../../src/core/capability/entries';
import { CapabilityMemoryPredictor } from '../../src/core/capability/predictor';
import { forgetCueMatches } from '../../src/core/capability/cues';
import { MIN_VERIFY_N, verifyEntries } from '../../src/core/capability/verify';
import { table, type EvalReport, type ScoredPair } from '../../src/core/eval';
import { induceClusterMemory } from '../../src/core/predict';
import type { TrainingExample } from '../../src/core/predict/types';
import type { ScoreScale } from '../../src/core/types';

/** A method factory that keeps every predictor it made (one per seed, in seed order). */
export function keeping(make: () => CapabilityMemoryPredictor): { create: () => CapabilityMemoryPredictor; made: CapabilityMemoryPredictor[] } {
  const made: CapabilityMemoryPredictor[] = [];
  return {
    made,
    create: () => {
      const p = make();
      made.push(p);
      return p;
    },
  };
}

function testTable(
  data: readonly ScoredPair[],
  scale: ScoreScale,
  test: readonly string[],
): { table: ScoreTable; tasks: Map<string, { prompt: string; categories: string[] }> } {
  const set = new Set(test);
  const rows = data.filter((p) => set.has(p.taskId));
  const taskIds = [...new Set(rows.map((p) => p.taskId))].sort();
  const toolIds = [...new Set(rows.map((p) => p.toolId))].sort();
  const ti = new Map(taskIds.map((id, t) => [id, t]));
  const ji = new Map(toolIds.map((id, j) => [id, j]));
  const scores = toolIds.map(() => new Float64Array(taskIds.length).fill(NaN));
  const tasks = new Map<string, { prompt: string; categories: string[] }>();
  for (const p of rows) {
    scores[ji.get(p.toolId)!]![ti.get(p.taskId)!] = p.score;
    tasks.set(p.taskId, { prompt: p.prompt, categories: p.categories });
  }
  return { table: { taskIds, toolIds, scores, scale }, tasks };
}

export interface PrecisionRow {
  seed: number;
  entries: number;
  holds: number;
  inconclusive: number;
  contradicted: number;
  untested: number;
  precision: number | null;
}

/** Verdicts of each seed's memory on its own test split (entries with n ≥ MIN_VERIFY_N there). */
export function precisionOnTest(
  report: EvalReport,
  made: readonly CapabilityMemoryPredictor[],
  data: readonly ScoredPair[],
  scale: ScoreScale,
  vectors?: ReadonlyMap<string, Float32Array>,
): PrecisionRow[] {
  return report.seeds.map((s, i) => {
    const p = made[i]!;
    const { table: t, tasks } = testTable(data, scale, s.split.test);
    const membersOf = (entry: CapabilityEntry) =>
      t.taskIds.filter((id) => {
        const task = tasks.get(id)!;
        const v = vectors?.get(id);
        return applies(
          { facet: entry.facet, ...(entry.centroid ? { centroid: entry.centroid } : {}) },
          { prompt: task.prompt, categories: task.categories, ...(v ? { vector: v } : {}) },
        );
      });
    const claims = p.entries.filter((e) => e.status === 'claim');
    const byName = new Map(claims.map((e) => [e.facet.name, e]));
    const r = verifyEntries(claims, t, (f) => membersOf(byName.get(f.name)!), { on: 'test-split', at: 0 });
    return { seed: s.seed, entries: claims.length, ...r.counts, precision: r.precision };
  });
}

export function precisionTable(label: string, rows: readonly PrecisionRow[]): string {
  const sum = (k: keyof PrecisionRow) => rows.reduce((a, r) => a + ((r[k] as number) ?? 0), 0);
  const tested = sum('holds') + sum('inconclusive') + sum('contradicted');
  return (
    `${label}: claims checked on the test split (n ≥ ${MIN_VERIFY_N} there; precision = share whose unseen sign agrees)\n` +
    table(
      ['seed', 'claims', 'holds', 'inconclusive', 'contradicted', 'untested', 'precision'],
      [
        ...rows.map((r) => [
          String(r.seed),
          String(r.entries),
          String(r.holds),
          String(r.inconclusive),
          String(r.contradicted),
          String(r.untested),
          r.precision === null ? '—' : r.precision.toFixed(3),
        ]),
        [
          'all seeds',
          String(sum('entries')),
          String(sum('holds')),
          String(sum('inconclusive')),
          String(sum('contradicted')),
          String(sum('untested')),
          tested > 0 ? pooledDirection(rows) : '—',
        ],
      ],
    )
  );
}

/** Pooled direction: Σ agreeing / Σ tested over the seeds (each seed's precision times its tested). */
function pooledDirection(rows: readonly PrecisionRow[]): string {
  let agree = 0;
  let tested = 0;
  for (const r of rows) {
    const n = r.holds + r.inconclusive + r.contradicted;
    if (r.precision !== null) agree += r.precision * n;
    tested += n;
  }
  return (agree / tested).toFixed(3);
}

/** DALLE_3 on negation (a weakness?) and part relations (a relative strength?) in each seed's memory. */
export function dalleCheck(made: readonly CapabilityMemoryPredictor[], seeds: readonly number[]): { text: string; negation: number; part: number } {
  const pick = (p: CapabilityMemoryPredictor, test: (e: CapabilityEntry) => boolean) => p.entries.filter((e) => e.toolId === 'DALLE_3' && test(e));
  const isNegation = (e: CapabilityEntry) =>
    (e.facet.rule.type === 'category' && e.facet.rule.value === 'negation') || (e.facet.rule.type === 'cue' && e.facet.rule.cue === 'negation');
  const isPart = (e: CapabilityEntry) => e.facet.rule.type === 'category' && e.facet.rule.value === 'part relation';
  const fmt = (e: CapabilityEntry) =>
    `${e.level} (${e.kind}; vs others ${e.claim.delta.toFixed(2)} [${e.claim.ci95.map((x) => x.toFixed(2)).join(', ')}], own ${e.effect.deltaOwn.toFixed(2)})`;
  let negation = 0;
  let part = 0;
  const rows = made.map((p, i) => {
    const neg = pick(p, isNegation).filter((e) => e.value < 0);
    const prt = pick(p, isPart).filter((e) => e.value > 0 && e.claim.delta > 0);
    if (neg.length) negation++;
    if (prt.length) part++;
    return [String(seeds[i]), neg.length ? neg.map(fmt).join('; ') : 'none', prt.length ? prt.map(fmt).join('; ') : 'none'];
  });
  return { text: table(['seed', 'DALLE_3 negation weakness', 'DALLE_3 part relation relative strength'], rows), negation, part };
}

/**
 * Engine time (ms, median of `runs`, the two builds alternating) of today's evidence-cluster memory
 * and of the capability build. Measured as this process's CPU time (user + system), not wall time:
 * the build is single-threaded, and on a shared machine wall time mostly measures the other jobs.
 */
export function engineTimes(sets: readonly { examples: TrainingExample[]; scale: ScoreScale }[], runs = 5): { clusters: number; capability: number } {
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const cpu = (f: () => void) => {
    const t0 = process.cpuUsage();
    f();
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 1000;
  };
  const clusters: number[] = [];
  const capability: number[] = [];
  for (let i = 0; i < runs; i++) {
    clusters.push(cpu(() => sets.forEach((s) => induceClusterMemory(s))));
    // A cold build: the cue match cache (cues.ts) kept from the previous run would flatter it.
    forgetCueMatches();
    capability.push(cpu(() => sets.forEach((s) => new CapabilityMemoryPredictor().fit(s))));
  }
  return { clusters: median(clusters), capability: median(capability) };
}
