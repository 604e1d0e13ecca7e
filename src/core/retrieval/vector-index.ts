/**
 * Exact cosine search over unit vectors packed in one Float32Array per (tool × level) group, so a
 * query for one tool's "weak" entries touches only those rows. Exact, not approximate: memories
 * hold at most tens of thousands of entries per tool, where a flat scan is a few milliseconds and
 * needs no index build.
 *
 * Entries are upserted by id: adding an id again replaces its vector (and group) — how a
 * superseded memory entry is swapped for its successor. Removal moves the group's last row into
 * the hole, so groups stay dense.
 */
import type { Level } from '../types';
import { topKIndices } from './top-k';
import { dotRow, normalisedCopy } from './vector-math';

export interface VectorItem<L extends string = Level> {
  id: string;
  tool: string;
  level: L;
  vector: ArrayLike<number>;
}

export interface VectorHit<L extends string = Level> {
  id: string;
  tool: string;
  level: L;
  /** Cosine similarity in [−1, 1] (0 for a zero vector). */
  score: number;
}

export interface VectorScope<L extends string = Level> {
  /** Restrict to one tool / one level; omitted = all. */
  tool?: string;
  level?: L;
}

export interface VectorSearchOptions<L extends string = Level> extends VectorScope<L> {
  k: number;
}

class Group<L extends string> {
  ids: string[] = [];
  data: Float32Array;
  constructor(
    readonly tool: string,
    readonly level: L,
    private readonly dim: number,
  ) {
    this.data = new Float32Array(dim * 8);
  }
  get size(): number {
    return this.ids.length;
  }
  push(id: string, v: Float32Array): number {
    const row = this.ids.length;
    if ((row + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(v, row * this.dim);
    this.ids.push(id);
    return row;
  }
  /** Removes `row` by moving the last row into it; returns the id that moved (or null). */
  removeRow(row: number): string | null {
    const last = this.ids.length - 1;
    let moved: string | null = null;
    if (row !== last) {
      this.data.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim);
      moved = this.ids[last]!;
      this.ids[row] = moved;
    }
    this.ids.pop();
    return moved;
  }
}

const groupKey = (tool: string, level: string) => `${tool}\u0000${level}`;

export class VectorIndex<L extends string = Level> {
  private readonly groups = new Map<string, Group<L>>();
  private readonly where = new Map<string, { group: Group<L>; row: number }>();

  constructor(readonly dim: number) {
    if (!Number.isInteger(dim) || dim <= 0) throw new RangeError(`dim must be a positive integer, got ${dim}`);
  }

  get size(): number {
    return this.where.size;
  }

  has(id: string): boolean {
    return this.where.has(id);
  }

  /** Adds or replaces (same id) an entry; the vector is copied and normalised. */
  add(item: VectorItem<L>): void {
    const v = normalisedCopy(item.vector, this.dim);
    this.remove(item.id);
    const key = groupKey(item.tool, item.level);
    let group = this.groups.get(key);
    if (!group) {
      group = new Group(item.tool, item.level, this.dim);
      this.groups.set(key, group);
    }
    this.where.set(item.id, { group, row: group.push(item.id, v) });
  }

  addMany(items: Iterable<VectorItem<L>>): void {
    for (const item of items) this.add(item);
  }

  /** Retires `oldId` and adds its successor in one step. */
  supersede(oldId: string, successor: VectorItem<L>): void {
    this.remove(oldId);
    this.add(successor);
  }

  remove(id: string): boolean {
    const at = this.where.get(id);
    if (!at) return false;
    this.where.delete(id);
    const moved = at.group.removeRow(at.row);
    if (moved !== null) this.where.set(moved, { group: at.group, row: at.row });
    if (at.group.size === 0) this.groups.delete(groupKey(at.group.tool, at.group.level));
    return true;
  }

  /** Levels that currently hold entries of `tool`. */
  levelsOf(tool: string): L[] {
    return [...this.groups.values()].filter((g) => g.tool === tool).map((g) => g.level);
  }

  /** Cosine of the query with every entry in scope (unsorted). */
  scoreAll(query: ArrayLike<number>, scope: VectorScope<L> = {}): VectorHit<L>[] {
    const q = normalisedCopy(query, this.dim);
    const out: VectorHit<L>[] = [];
    for (const g of this.inScope(scope)) {
      for (let row = 0; row < g.size; row++) {
        out.push({ id: g.ids[row]!, tool: g.tool, level: g.level, score: dotRow(q, g.data, row, this.dim) });
      }
    }
    return out;
  }

  /** The k most similar entries in scope, best first (ties: smaller id first). */
  search(query: ArrayLike<number>, opts: VectorSearchOptions<L>): VectorHit<L>[] {
    const q = normalisedCopy(query, this.dim);
    const groups = this.inScope(opts);
    if (groups.length === 1) return this.searchGroup(q, groups[0]!, opts.k);
    const total = groups.reduce((n, g) => n + g.size, 0);
    // Flat views over the selected groups, scored once, then partial selection.
    const scores = new Float64Array(total);
    const owner: Group<L>[] = new Array<Group<L>>(total);
    const rowOf = new Int32Array(total);
    let i = 0;
    for (const g of groups) {
      for (let row = 0; row < g.size; row++, i++) {
        scores[i] = dotRow(q, g.data, row, this.dim);
        owner[i] = g;
        rowOf[i] = row;
      }
    }
    const idAt = (j: number) => owner[j]!.ids[rowOf[j]!]!;
    return topKIndices(total, opts.k, (j) => scores[j]!, idAt).map((j) => ({
      id: idAt(j),
      tool: owner[j]!.tool,
      level: owner[j]!.level,
      score: scores[j]!,
    }));
  }

  /**
   * One group (the per-level case): the same scores, without the flat owner/row views — about a
   * third faster on 25k-row groups.
   */
  private searchGroup(q: Float32Array, g: Group<L>, k: number): VectorHit<L>[] {
    const n = g.size;
    const data = g.data;
    const dim = this.dim;
    const ids = g.ids;
    const scores = new Float64Array(n);
    for (let row = 0; row < n; row++) scores[row] = dotRow(q, data, row, dim);
    return topKIndices(
      n,
      k,
      (j) => scores[j]!,
      (j) => ids[j]!,
    ).map((j) => ({ id: ids[j]!, tool: g.tool, level: g.level, score: scores[j]! }));
  }

  private inScope(scope: VectorScope<L>): Group<L>[] {
    if (scope.tool !== undefined && scope.level !== undefined) {
      const g = this.groups.get(groupKey(scope.tool, scope.level));
      return g ? [g] : [];
    }
    return [...this.groups.values()].filter(
      (g) => (scope.tool === undefined || g.tool === scope.tool) && (scope.level === undefined || g.level === scope.level),
    );
  }
}
