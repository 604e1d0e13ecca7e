/**
 * The stored dataset counts (schema v7): an append-only log of differences per dataset, folded on
 * read and compacted now and then (the middleware in dataset-counts.ts writes it).
 *
 * Until v6 every (tool, score), rater and task had its own count row, read and rewritten by every
 * write: a 10,000-row import batch added about 2,000 task rows and waited on a read-modify-write
 * round trip for the rest, about a seventh of a fresh import's time (docs/reliability.md, "Fifth
 * pass"). Now a write appends one `summary` row (its (tool, score) and rater differences) and one
 * `tasks` row (its per-task differences) per dataset it touches, without reading anything; a
 * reader folds a dataset's rows. Once a dataset has {@link COMPACT_AT} rows of a kind, the write
 * that reached it folds them into one (a snapshot), so a read folds at most that many.
 */
import Dexie from 'dexie';
import type { DatasetCounts } from '../core/stats/dataset-stats';
import type { Experience } from '../core/types';

export const COUNT_LOG_TABLE = 'countLog';
/** Rows of one (dataset, kind) that make the next write fold them into one. */
export const COMPACT_AT = 32;

/** (tool, score) and rater differences, as parallel arrays (cheap to store). A score NaN is 'NaN'. */
export interface SummaryLogRow {
  seq?: number;
  datasetId: string;
  kind: 'summary';
  tools: string[];
  scores: (number | string)[];
  n: number[];
  raters: string[];
  raterN: number[];
}

/** Per-task differences (how many experiences each task has: a task counts while it has one). */
export interface TasksLogRow {
  seq?: number;
  datasetId: string;
  kind: 'tasks';
  tasks: string[];
  n: number[];
}

export type CountLogRow = SummaryLogRow | TasksLogRow;
export type CountKind = CountLogRow['kind'];

const scoreKey = (s: number): number | string => (Number.isNaN(s) ? 'NaN' : s);
const scoreOf = (k: number | string): number => (typeof k === 'number' ? k : NaN);
const add = <K>(m: Map<K, number>, k: K, d: number) => m.set(k, (m.get(k) ?? 0) + d);

/** One dataset's counts or differences being summed. Maps: every key comes from data. */
export class CountSum {
  /** tool → score key → n */
  readonly scores = new Map<string, Map<number | string, number>>();
  readonly raters = new Map<string, number>();
  readonly tasks = new Map<string, number>();

  private byScore(tool: string): Map<number | string, number> {
    let byScore = this.scores.get(tool);
    if (!byScore) this.scores.set(tool, (byScore = new Map()));
    return byScore;
  }

  experience(e: Experience, d: number): void {
    add(this.byScore(e.toolId), scoreKey(e.score), d);
    add(this.raters, e.rater, d);
    add(this.tasks, e.taskId, d);
  }

  row(r: CountLogRow): void {
    if (r.kind === 'tasks') {
      r.tasks.forEach((t, i) => add(this.tasks, t, r.n[i]!));
      return;
    }
    r.tools.forEach((t, i) => add(this.byScore(t), r.scores[i]!, r.n[i]!));
    r.raters.forEach((x, i) => add(this.raters, x, r.raterN[i]!));
  }

  /** The log rows that store this sum (entries that sum to 0 left out; a kind with none, no row). */
  rows(datasetId: string, kinds: readonly CountKind[] = ['summary', 'tasks']): CountLogRow[] {
    const out: CountLogRow[] = [];
    if (kinds.includes('summary')) {
      const s: SummaryLogRow = { datasetId, kind: 'summary', tools: [], scores: [], n: [], raters: [], raterN: [] };
      for (const [tool, byScore] of this.scores)
        for (const [score, n] of byScore) {
          if (n === 0) continue;
          s.tools.push(tool);
          s.scores.push(score);
          s.n.push(n);
        }
      for (const [rater, n] of this.raters) {
        if (n === 0) continue;
        s.raters.push(rater);
        s.raterN.push(n);
      }
      if (s.n.length || s.raterN.length) out.push(s);
    }
    if (kinds.includes('tasks')) {
      const t: TasksLogRow = { datasetId, kind: 'tasks', tasks: [], n: [] };
      for (const [task, n] of this.tasks) {
        if (n === 0) continue;
        t.tasks.push(task);
        t.n.push(n);
      }
      if (t.n.length) out.push(t);
    }
    return out;
  }

  /** As the statistics read them: positive counts, tools and scores in key order (as IndexedDB sorted the v6 rows). */
  counts(): DatasetCounts {
    const order = (a: number | string, b: number | string) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1);
    const scores: DatasetCounts['scores'] = [];
    for (const tool of [...this.scores.keys()].sort(order)) {
      const byScore = this.scores.get(tool)!;
      for (const score of [...byScore.keys()].sort(order)) {
        const n = byScore.get(score)!;
        if (n > 0) scores.push({ toolId: tool, score: scoreOf(score), n });
      }
    }
    const raters = [...this.raters]
      .filter(([, n]) => n > 0)
      .sort(([a], [b]) => order(a, b))
      .map(([rater, n]) => ({ rater, n }));
    let tasks = 0;
    for (const n of this.tasks.values()) if (n > 0) tasks++;
    return { scores, raters, tasks };
  }
}

/** Every log row of a dataset, whatever its kind. */
const ofDataset = (db: Dexie, datasetId: string) =>
  db.table<CountLogRow, number>(COUNT_LOG_TABLE).where('[datasetId+kind]').between([datasetId, Dexie.minKey], [datasetId, Dexie.maxKey]);

/**
 * A dataset's log rows of the given kinds (all by default), read in the caller's transaction if any.
 * The reads below chain with `.then` instead of `await`: Dexie keeps a transaction's zone across
 * its own promises, and a caller's transaction (experience-repo `byTask`, inside a liveQuery) would
 * otherwise commit before the read that follows (PrematureCommitError).
 */
function logRows(db: Dexie, datasetId: string, kind?: CountKind): Promise<CountLogRow[]> {
  return (kind ? db.table<CountLogRow, number>(COUNT_LOG_TABLE).where('[datasetId+kind]').equals([datasetId, kind]) : ofDataset(db, datasetId)).toArray();
}

/** The sum of log rows (a dataset's counts when they are all of its rows). */
export const fold = (rows: readonly CountLogRow[]): CountSum => {
  const sum = new CountSum();
  for (const row of rows) sum.row(row);
  return sum;
};

/** The stored counts of one dataset (one short read: at most {@link COMPACT_AT} rows of each kind). */
export function readDatasetCounts(db: Dexie, datasetId: string): Promise<DatasetCounts> {
  return logRows(db, datasetId).then((rows) => fold(rows).counts());
}

/** The (tool, score) and rater counts only (no per-task rows read): totals and the dataset's tools. */
export function readDatasetSummary(db: Dexie, datasetId: string): Promise<Omit<DatasetCounts, 'tasks'>> {
  return logRows(db, datasetId, 'summary').then((rows) => {
    const { scores, raters } = fold(rows).counts();
    return { scores, raters };
  });
}

/** Drops a dataset's log rows (the dataset is deleted: they sum to nothing). */
export async function forgetDatasetCounts(db: Dexie, datasetId: string): Promise<void> {
  await ofDataset(db, datasetId).delete();
}
