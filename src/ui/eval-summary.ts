/**
 * What the Evaluate page says about a stored EvalResult, derived without the DOM: the leaderboard
 * (each number with its uncertainty — the run's paired-bootstrap interval when it has one, else
 * ± sd over seeds), the best value per column, the one-line verdict, and the test points behind
 * a number (the drill-down). Tool ids are data: read with `own`, collected in Maps.
 */
import { own } from '../core/data-keys';
import { formatNumber, formatSigned } from './capability-format';
import { costText, matchDifferenceText, planeMatch, pointName } from './cost-plane-chart';
import type { EvalResult, IntervalMetric, Verdict } from '../app/evaluate/api';

export type Column = IntervalMetric;
export const COLUMNS: readonly Column[] = ['mae', 'rmse', 'pearson', 'pairAcc', 'gapCaptured'];
/** Errors: lower is better; the other columns: higher is better. */
export const LOWER_IS_BETTER: ReadonlySet<Column> = new Set<Column>(['mae', 'rmse']);

/** A metric with three decimals ("—" where it is undefined, e.g. the Pearson r of a constant). */
export function fixed(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : formatNumber(x, digits);
}

/** A signed difference: "+0.010", "−0.115" (a true minus sign), "0.000". */
export function signed(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : formatSigned(x, digits);
}

/** Counts (tasks, pairs, n) are whole things: a mean over seeds is rounded, never "394.666667". */
export function count(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : Math.round(x).toLocaleString('en-US');
}

/** "[0.590, 0.634]", or '' when either bound is undefined. */
export function bounds(lo: number | null | undefined, hi: number | null | undefined, digits = 3): string {
  return fixed(lo, digits) === '—' || fixed(hi, digits) === '—' ? '' : `[${fixed(lo, digits)}, ${fixed(hi, digits)}]`;
}

/** A number with its uncertainty as shown in one cell: the estimate and, on a second line, its spread. */
export interface Cell {
  value: number | null;
  text: string;
  /** "[lo, hi]" (95% interval), "± sd" (over seeds) or '' (one seed, or nothing to say). */
  spread: string;
  best: boolean;
}

export interface DiffCell extends Omit<Cell, 'best'> {
  /** From the bootstrap interval of the difference; absent for runs without intervals. */
  verdict?: Verdict;
}

export interface LeaderRow {
  method: string;
  cells: Record<Column, Cell>;
  /** MAE minus the baseline's MAE; null on the baseline's own row. */
  diff: DiffCell | null;
}

export interface Leaderboard {
  rows: LeaderRow[];
  /** The method the differences are taken against (tool-mean when it ran). */
  baseline: string;
  /** Whether the spreads are bootstrap intervals (else ± sd over seeds). */
  intervals: boolean;
  seeds: number;
}

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** Mean pair accuracy of a method over its tool pairs (pairs with no unequal task are left out). */
function meanPairAcc(r: EvalResult, m: string): number | null {
  const accs = (r.report.pairs[m] ?? []).map((p) => p.acc).filter(finite);
  return accs.length ? accs.reduce((a, b) => a + b, 0) / accs.length : null;
}

export function baselineOf(r: EvalResult): string {
  const methods = Object.keys(r.spread);
  return r.intervals?.baseline ?? (methods.includes('tool-mean') ? 'tool-mean' : (methods[0] ?? ''));
}

function cellOf(r: EvalResult, m: string, c: Column, seeds: number): Omit<Cell, 'best'> {
  const iv = r.intervals?.methods[m]?.metrics[c];
  if (iv) return { value: finite(iv.mean) ? iv.mean : null, text: fixed(iv.mean), spread: bounds(iv.lo, iv.hi) };
  const s = r.spread[m];
  if (s && (c === 'mae' || c === 'rmse' || c === 'pearson')) {
    const sd = s[`${c}Sd`];
    const value = finite(s[c]) ? s[c] : null;
    return { value, text: fixed(value), spread: value !== null && seeds > 1 && finite(sd) ? `± ${fixed(sd)}` : '' };
  }
  const value = c === 'pairAcc' ? meanPairAcc(r, m) : (r.report.baselines.oracleGapCaptured[m] ?? null);
  return { value, text: fixed(value), spread: '' };
}

function diffOf(r: EvalResult, m: string, base: string): DiffCell | null {
  if (m === base) return null;
  const vs = r.intervals?.methods[m]?.vsBaseline?.mae;
  if (vs) return { value: vs.diff.mean, text: signed(vs.diff.mean), spread: bounds(vs.diff.lo, vs.diff.hi), verdict: vs.verdict };
  const a = r.spread[m]?.mae;
  const b = r.spread[base]?.mae;
  const value = finite(a) && finite(b) ? a - b : null;
  return { value, text: signed(value), spread: '' };
}

/** The leaderboard, sorted by MAE (undefined last), best per column marked (ties at the shown precision all marked). */
export function leaderboard(r: EvalResult, seeds: number): Leaderboard {
  const baseline = baselineOf(r);
  const rows: LeaderRow[] = Object.keys(r.spread).map((m) => {
    const cells = Object.fromEntries(COLUMNS.map((c) => [c, { ...cellOf(r, m, c, seeds), best: false }])) as Record<Column, Cell>;
    return { method: m, cells, diff: diffOf(r, m, baseline) };
  });
  for (const c of COLUMNS) {
    const values = rows.map((row) => row.cells[c].value).filter(finite);
    if (!values.length) continue;
    const best = fixed(LOWER_IS_BETTER.has(c) ? Math.min(...values) : Math.max(...values));
    for (const row of rows) row.cells[c].best = row.cells[c].value !== null && fixed(row.cells[c].value) === best;
  }
  const key = (row: LeaderRow) => row.cells.mae.value ?? Infinity;
  rows.sort((a, b) => key(a) - key(b));
  return { rows, baseline, intervals: !!r.intervals, seeds };
}

/** The tool that always-picking-the-stronger chooses: the best training mean (tool-mean's first-seed prediction). */
export function strongestTool(r: EvalResult): string | null {
  const means = new Map<string, number>();
  for (const p of r.points['tool-mean'] ?? []) means.set(p.toolId, p.predicted);
  let best: string | null = null;
  for (const [tool, mean] of means) if (best === null || mean > means.get(best)!) best = tool;
  return best;
}

const VERDICT_WORDS: Record<Verdict, string> = { better: 'clearly better', same: 'not a clear difference', worse: 'clearly worse' };
export const verdictWord = (v: Verdict): string => VERDICT_WORDS[v];

/**
 * One plain sentence: which method predicts best and by how much against the baseline (with the
 * bootstrap's verdict when the run has intervals), then whether any method picks tools better
 * than always choosing the tool with the best training mean.
 */
export function verdictLine(r: EvalResult, board: Leaderboard): string {
  const top = board.rows[0];
  if (!top || top.cells.mae.value === null) return 'No method produced a prediction that could be scored.';
  const base = board.baseline;
  const baseName = base === 'tool-mean' ? 'the tool mean' : base;
  let first: string;
  if (top.method === base || !top.diff || top.diff.value === null) {
    first = `${top.method} predicts best (MAE ${top.cells.mae.text}); no method beats ${baseName}`;
  } else {
    const by = fixed(Math.abs(top.diff.value));
    const how = top.diff.verdict ? VERDICT_WORDS[top.diff.verdict] : `means over ${board.seeds} seed${board.seeds === 1 ? '' : 's'}, no intervals in this run`;
    first = `${top.method} predicts best (MAE ${top.cells.mae.text}, ${by} ${top.diff.value <= 0 ? 'better' : 'worse'} than ${baseName}, ${how})`;
  }
  const strongest = strongestTool(r);
  const always = strongest ? `always choosing ${strongest}` : 'always choosing the tool with the best training mean';
  let picker: string | null = null;
  for (const [m, v] of Object.entries(r.selection)) if (finite(v) && (picker === null || v > r.selection[picker]!)) picker = m;
  let second: string;
  if (picker === null || !(r.selection[picker]! > r.alwaysStrongerSelection + 1e-9)) {
    second = costCountedClause(r, always) ?? `no method picks tools better than ${always}`;
  } else {
    const score = `mean true score ${fixed(r.selection[picker], 2)} vs ${fixed(r.alwaysStrongerSelection, 2)}`;
    // tool-mean picks exactly what always-stronger picks, so the gap verdict against it answers "clearly?".
    const v = base === 'tool-mean' ? r.intervals?.methods[picker]?.vsBaseline?.gapCaptured?.verdict : undefined;
    second =
      v === 'same'
        ? `${picker} picks tools slightly better than ${always} (${score}), not clearly`
        : `${picker} picks tools ${v === 'better' ? 'clearly ' : ''}better than ${always} (${score})`;
  }
  return `${first}; ${second}.`;
}

/**
 * When no method picks better by predicted score alone, the cost–quality plane may still hold a
 * selector that reaches the best single tool's score for no more money: the verdict then says
 * both, in the plane's own words, so the headline and the plane's sentence never disagree
 * (issue #38: "no method picks tools better than always choosing DALLE_3" above "for no more, the
 * best selector is memory at λ 4.08 …: 0.036 higher"). Null when the plane has no such point.
 */
function costCountedClause(r: EvalResult, always: string): string | null {
  const m = r.costPlane ? planeMatch(r.costPlane, r.points) : null;
  if (!m || !r.costPlane) return null;
  const s = r.costPlane.direction === 'lower-better' ? -1 : 1;
  const gain = m.diff ? m.diff.mean : s * (m.within.quality - m.best.quality);
  const cheaper = m.within.cost < m.best.cost - 1e-12;
  // Only a point that reaches the best tool's score for less, or beats it for no more, is news.
  if ((gain < 0 && m.verdict !== 'same') || (!cheaper && gain <= 0)) return null;
  const cost = (x: number) => costText(r.costPlane!, x);
  const money = cheaper ? ` for less (${cost(m.within.cost)} vs ${cost(m.best.cost)} per task)` : ' for the same cost';
  const tool = `always choosing ${m.best.label}`;
  if (m.verdict === 'better') {
    return (
      `by predicted score alone no method picks tools better than ${always}, but with costs counted, ${pointName(m.within)} picks tools ` +
      `clearly better than ${tool}${money}: ${matchDifferenceText(r.costPlane, m)}`
    );
  }
  return (
    `no method picks tools clearly better than ${always}; counting cost, ${pointName(m.within)} ` +
    `matches ${tool}${money}: ${matchDifferenceText(r.costPlane, m)}`
  );
}

/** One test point behind a number: a (task, tool) of the run's first seed. */
export interface DrillRow {
  taskId: string | undefined;
  toolId: string;
  predicted: number;
  actual: number;
  /** predicted − true. */
  error: number;
}

/** The first seed's points of a method, optionally only some tools or one task. */
export function drillRows(r: EvalResult, method: string, only: { tools?: readonly string[]; taskId?: string } = {}): DrillRow[] {
  const tools = only.tools ? new Set(only.tools) : null;
  return (r.points[method] ?? [])
    .filter((p) => (!tools || tools.has(p.toolId)) && (only.taskId === undefined || p.taskId === only.taskId))
    .map((p) => ({ taskId: p.taskId, toolId: p.toolId, predicted: p.predicted, actual: p.actual, error: p.predicted - p.actual }));
}

/** Whether the run's points carry task ids (runs made before they were kept do not). */
export function hasTaskIds(r: EvalResult): boolean {
  const first = Object.values(r.points).find((ps) => ps.length > 0)?.[0];
  return !!first && typeof first.taskId === 'string';
}

export type SortKey = 'error' | 'actual' | 'predicted';

/** Sorted copy; 'error' sorts by the size of the error. Ties keep their order (stable sort). */
export function sortRows(rows: readonly DrillRow[], key: SortKey, descending: boolean): DrillRow[] {
  const v = (row: DrillRow) => (key === 'error' ? Math.abs(row.error) : row[key]);
  return [...rows].sort((a, b) => (descending ? v(b) - v(a) : v(a) - v(b)));
}

/** MAE of the listed rows (the drill-down's own summary). */
export function rowsMae(rows: readonly DrillRow[]): number | null {
  return rows.length ? rows.reduce((a, row) => a + Math.abs(row.error), 0) / rows.length : null;
}

/** A per-tool estimate for the charts: the bootstrap interval when present, else mean ± sd over seeds. */
export function toolEstimate(
  r: EvalResult,
  m: string,
  tool: string | null,
  metric: 'mae' | 'rmse' | 'pearson',
): { value: number | null; lo: number | null; hi: number | null } {
  const iv = tool === null ? r.intervals?.methods[m]?.metrics[metric] : own(r.intervals?.methods[m]?.tools, tool)?.[metric];
  if (iv) return { value: finite(iv.mean) ? iv.mean : null, lo: iv.lo, hi: iv.hi };
  const [mean, sd] = tool === null ? [r.spread[m]?.[metric], r.spread[m]?.[`${metric}Sd`]] : (own(r.toolSpread[m], tool)?.[metric] ?? [NaN, NaN]);
  if (!finite(mean)) return { value: null, lo: null, hi: null };
  return finite(sd) ? { value: mean, lo: mean - sd, hi: mean + sd } : { value: mean, lo: null, hi: null };
}

/** Plain-language definitions of every number on the page (shown by toggletips and a definitions list). */
export const DEFINITIONS: readonly { key: Column | 'diff' | 'interval'; term: string; text: string }[] = [
  {
    key: 'mae',
    term: 'MAE',
    text: 'Mean absolute error: on average, how far a predicted score is from the true one, in the dataset’s score points. Lower is better.',
  },
  { key: 'rmse', term: 'RMSE', text: 'Root mean squared error: like MAE, but large misses count more. Lower is better.' },
  {
    key: 'pearson',
    term: 'Pearson',
    text:
      'Correlation between predicted and true scores within each tool (−1 to 1), averaged over tools. Higher is better; undefined (—) for a ' +
      'method that predicts one number per tool.',
  },
  {
    key: 'pairAcc',
    term: 'Pair accuracy',
    text:
      'For every two tools and every test task where their true scores differ: how often the method ranks them the right way round, averaged ' +
      'over tool pairs. A predicted tie counts as wrong; guessing gets 0.5.',
  },
  {
    key: 'gapCaptured',
    term: 'Gap captured',
    text:
      'Choosing one tool per task by the highest prediction: how much of the way from a random pick (0) to the best tool in hindsight (1) the ' +
      'choice gets, in mean true score.',
  },
  {
    key: 'diff',
    term: 'vs baseline',
    text:
      'The method’s MAE minus the baseline’s (negative is better). “clearly better/worse” when the 95% interval of the difference, resampling ' +
      'the same test tasks for both, leaves out 0; “not a clear difference” otherwise.',
  },
  {
    key: 'interval',
    term: '[lo, hi] and ±',
    text:
      'Brackets: a 95% interval from resampling the test tasks (paired bootstrap). ± : the standard deviation over seeds (different train/test ' +
      'splits), shown for runs without intervals.',
  },
];

/** The leaderboard as CSV rows: the exact values (not rounded), the sd over seeds, and the intervals when the run has them. */
export function summaryCsvRows(r: EvalResult, seeds: number): (string | number | null)[][] {
  const board = leaderboard(r, seeds);
  const iv = r.intervals;
  const head = ['method', 'mae', 'mae_sd', 'rmse', 'rmse_sd', 'pearson', 'pearson_sd', 'pair_acc', 'oracle_gap_captured', `mae_minus_${board.baseline}`];
  if (iv) head.push(...COLUMNS.flatMap((c) => [`${c}_lo`, `${c}_hi`]), 'mae_diff_lo', 'mae_diff_hi', 'mae_verdict');
  return [
    head,
    ...board.rows.map((row) => {
      const s = r.spread[row.method];
      const out: (string | number | null)[] = [
        row.method,
        s?.mae ?? null,
        s?.maeSd ?? null,
        s?.rmse ?? null,
        s?.rmseSd ?? null,
        s?.pearson ?? null,
        s?.pearsonSd ?? null,
        row.cells.pairAcc.value,
        row.cells.gapCaptured.value,
        row.diff?.value ?? null,
      ];
      if (iv) {
        const m = iv.methods[row.method];
        const vs = m?.vsBaseline?.mae;
        out.push(
          ...COLUMNS.flatMap((c) => [m?.metrics[c]?.lo ?? null, m?.metrics[c]?.hi ?? null]),
          vs?.diff.lo ?? null,
          vs?.diff.hi ?? null,
          vs?.verdict ?? null,
        );
      }
      return out;
    }),
  ];
}
