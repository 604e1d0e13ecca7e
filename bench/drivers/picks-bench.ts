/**
 * Pick claims on unseen tasks, over enough builds to tell (issue #34's goal "pick claims: direction
 * ≥ 0.9 on unseen tasks, pooled"); part of `npm run bench:quality` (section 5b), also runnable alone:
 *   npx tsx bench/drivers/picks-bench.ts [--seeds A-B] [--genai-seeds A-B]
 * A pick is rare (a facet where another tool surely beats the overall best), so one set's handful of
 * builds makes one or two: this bench builds GenAI-Bench with and without tags on seeds 1–20 (200
 * training tasks) and at 400 and 800 training tasks (seeds 1–5), and WMT MQM, MMLU-Pro and AlpacaEval
 * half / half on seeds 1–10, and prints per set: builds, picks, tested, ahead (the pick's mean lead
 * over the overall best on the facet's unseen tasks is > 0), contradicted (its 95% interval lies below
 * 0), direction = ahead / tested, and the mean stated probability; then all sets pooled.
 * Tuning seeds: 101–112 (`--seeds 101-112`; the GenAI-Bench rows take `--genai-seeds`, default the same).
 * `--smoke`: one seed of each set on the smoke's tasks. Prints, never asserts.
 */
import { splitByTask, table } from '../../src/core/eval';
import { seedSpan, SMOKE } from './bench-env';
import { ALPACA, checkBuild, shareInterval, emptyRow, GENAI, loadSet, MMLU, seedRange, WMT, WMT_SCALE, type ClaimsRow, type Loaded } from './claims-bench';
import { existsSync } from 'node:fs';

export const PICK_GOAL = 0.9;

const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(3) : '—');

export function picksTable(rows: readonly ClaimsRow[]): string {
  return table(
    ['set', 'builds', 'picks', 'tested', 'ahead', 'contradicted', 'direction', 'mean stated probability'],
    rows.map((r) => [
      r.label,
      String(r.builds),
      String(r.picks),
      String(r.pickTested),
      String(r.pickAgree),
      String(r.pickContradicted),
      ratio(r.pickAgree, r.pickTested),
      r.pickTested ? (r.pickProbability / r.pickTested).toFixed(3) : '—',
    ]),
  );
}

/** The rows' pick figures added up, with the goal's verdict. */
export function pooledPicks(rows: readonly ClaimsRow[], label: string): { row: ClaimsRow; line: string } {
  const row = emptyRow(label);
  for (const r of rows)
    for (const k of ['builds', 'picks', 'pickTested', 'pickAgree', 'pickContradicted', 'pickHolds', 'pickProbability'] as const) row[k] += r[k];
  const dir = row.pickTested ? row.pickAgree / row.pickTested : NaN;
  const verdict = row.pickTested ? (dir >= PICK_GOAL ? 'met' : 'missed') : 'untested';
  const line =
    `Pick claims over more builds, pooled: ${row.builds} builds, ${row.picks} picks, ${row.pickTested} tested, ${row.pickAgree} ahead, ` +
    `${row.pickContradicted} contradicted, direction ${row.pickTested ? dir.toFixed(3) : '—'} (${shareInterval(row.pickAgree, row.pickTested)}≥ ${PICK_GOAL}: ${verdict})`;
  return { row, line };
}

/**
 * The leaderboards' chance of being best, checked on the same builds' unseen tasks: per set, the
 * facets checked, the mean chance stated for each facet's likely best tool, and the share of facets
 * where that tool has the highest mean on the unseen tasks. The unseen best is itself a sample, so a
 * close race can be lost there by chance: the middle column is the board's chance with that sample's
 * noise added (each level's variance plus its paired spread over the unseen tasks), the figure the
 * last column should match when the board is calibrated.
 */
export function boardsTable(rows: readonly ClaimsRow[]): string {
  return table(
    ['set', 'builds', 'facets checked', 'stated chance best (likely best tool)', 'the same on a sample the unseen size', 'best on unseen tasks'],
    rows.map((r) => [
      r.label,
      String(r.builds),
      String(r.boards),
      ratio(r.boardStated, r.boards),
      ratio(r.boardExpected, r.boards),
      ratio(r.boardBest, r.boards),
    ]),
  );
}

export function pooledBoardsLine(rows: readonly ClaimsRow[]): string {
  const n = rows.reduce((a, r) => a + r.boards, 0);
  const sum = (k: 'boardStated' | 'boardExpected' | 'boardBest') => rows.reduce((a, r) => a + r[k], 0) / Math.max(1, n);
  if (!n) return 'Leaderboards on unseen tasks, pooled: no facet with enough unseen tasks';
  return (
    `Leaderboards on unseen tasks, pooled: ${n} facets, the likely best tool's stated chance of being best ${sum('boardStated').toFixed(3)} ` +
    `(${sum('boardExpected').toFixed(3)} on a sample the unseen size), best on unseen tasks ${sum('boardBest').toFixed(3)}`
  );
}

function genaiRows(genai: Loaded, seeds: readonly number[], train: number): ClaimsRow[] {
  const ids = [...new Set(genai.data.map((p) => p.taskId))];
  const tags = emptyRow(`GenAI-Bench ${train}, tags, seeds ${seedSpan(seeds)}`);
  const noTags = emptyRow(`GenAI-Bench ${train}, no tags, seeds ${seedSpan(seeds)}`);
  for (const seed of seeds) {
    const split = splitByTask(ids, { train, test: ids.length - train }, seed);
    checkBuild(genai, split.train, tags);
    checkBuild(genai, split.train, noTags, { kinds: ['cue', 'theme'] });
  }
  return [tags, noTags];
}

function halves(set: Loaded, label: string, seeds: readonly number[]): ClaimsRow {
  const ids = [...new Set(set.data.map((p) => p.taskId))];
  const r = emptyRow(`${label}, half / half, seeds ${seedSpan(seeds)}`);
  const train = Math.floor(ids.length / 2);
  for (const seed of seeds) checkBuild(set, splitByTask(ids, { train, test: ids.length - train }, seed).train, r);
  return r;
}

async function main(): Promise<ClaimsRow[]> {
  const argv = process.argv.slice(2);
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const t0 = Date.now();
  const seeds = seedRange(arg('--seeds'), SMOKE ? [1] : Array.from({ length: 10 }, (_, i) => i + 1));
  const genaiSeeds = seedRange(arg('--genai-seeds') ?? arg('--seeds'), SMOKE ? [1] : Array.from({ length: 20 }, (_, i) => i + 1));
  const bigSeeds = SMOKE ? [] : genaiSeeds.slice(0, 5);
  const rows: ClaimsRow[] = [];
  const genai = await loadSet(GENAI.data, { skills: GENAI.skills });
  rows.push(...genaiRows(genai, genaiSeeds, SMOKE ? 60 : 200));
  for (const train of [400, 800]) if (bigSeeds.length) rows.push(...genaiRows(genai, bigSeeds, train));
  console.log(picksTable(rows));
  const others: [string, string, Parameters<typeof loadSet>[1]][] = [
    ['WMT MQM', WMT, { scale: WMT_SCALE }],
    ['MMLU-Pro (pass/fail)', MMLU, {}],
    ['AlpacaEval (categories)', ALPACA, {}],
  ];
  for (const [label, file, opts] of others) {
    if (!existsSync(file)) {
      console.log(`${label}: skipped (${file} not found)`);
      continue;
    }
    const r = halves(await loadSet(file, opts), label, seeds);
    console.log(picksTable([r]));
    rows.push(r);
  }
  const pooled = pooledPicks(rows, 'pooled');
  console.log(picksTable([...rows, pooled.row]));
  console.log(pooled.line);
  console.log("\nLeaderboards on unseen tasks (each facet's likely best tool: is it the best there?)");
  console.log(boardsTable(rows));
  console.log(pooledBoardsLine(rows));
  console.log(`picks bench: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
export { main as picksBench };
