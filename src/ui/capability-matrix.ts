/**
 * The capability matrix (issue #15) as numbers: which facet goes in which column, which cell is
 * where on the canvas, which colour a delta gets, and what the tooltip says. Pure (no DOM), so the
 * layout is unit-tested in Node and the component only paints what this module computes.
 *
 * Rows are the snapshot's tools in its order; columns are facets grouped by kind (categories, cues,
 * themes) and, within a kind, by how much the tools differ on it (the spread of the headline delta
 * across tools, widest first): the facets that set tools apart come first in each group. A tool ×
 * facet pair the build did not test has no cell and is drawn blank.
 *
 * Tool ids and facet names come from imported data: they are only ever compared, never used as
 * keys of plain objects; positions are numeric indices into arrays.
 */
import type { CapabilityCell, CapabilitySnapshot, Facet, FacetKind } from '../core/capability/types';
import {
  changeIntervalText,
  changeText,
  effectSummary,
  headline,
  levelText,
  niceDomain,
  snapshotStyle,
  statusOf,
  statusText,
  type NumberStyle,
} from './capability-format';

export const KIND_ORDER: readonly FacetKind[] = ['category', 'cue', 'theme'];
const KIND_LABELS: ReadonlyMap<string, string> = new Map([
  ['category', 'categories'],
  ['cue', 'cues'],
  ['theme', 'themes'],
]);

/** "categories", "cues", "themes"; an unknown kind (from a newer file) as it is. Kinds are data: a Map. */
export function kindLabel(kind: string): string {
  return KIND_LABELS.get(kind) ?? kind;
}

export interface MatrixColumn {
  /** Index into CapabilitySnapshot.facets. */
  facet: number;
  def: Facet;
  /** Training tasks the facet applies to. */
  n: number;
  /** Max − min of the headline delta over the tools tested on it (0 with one tested tool). */
  spread: number;
}

export interface MatrixGroup {
  kind: FacetKind;
  /** First column of the group and how many columns it has. */
  start: number;
  count: number;
}

export interface CapabilityMatrixModel {
  tools: string[];
  columns: MatrixColumn[];
  groups: MatrixGroup[];
  /** grid[row][col]: the tested cell, or null (not tested: blank). */
  grid: (CapabilityCell | null)[][];
  /** Axis half-width holding every |headline| (effect bars of this memory share it). */
  domain: number;
  /**
   * Colour scale limit, symmetric around 0: the 90th percentile of |headline| (rounded up to a
   * nice number), so a few extreme cells do not wash every other cell out to white; cells beyond
   * it take the end colour (the tooltip has the number).
   */
  colorDomain: number;
  /** Cells tested (non-null in grid). */
  tested: number;
  /** The memory's one rounding rule: tooltips print what entries print. */
  style: NumberStyle;
}

/** Orders facets and places every cell; cells of unknown tools or facets are ignored. */
export function buildMatrix(snapshot: CapabilitySnapshot): CapabilityMatrixModel {
  const tools = [...snapshot.tools];
  const rowOf = new Map(tools.map((t, i) => [t, i]));
  const byFacet = new Map<number, CapabilityCell[]>();
  for (const cell of snapshot.cells) {
    if (!rowOf.has(cell.toolId) || !snapshot.facets[cell.facet]) continue;
    const list = byFacet.get(cell.facet);
    if (list) list.push(cell);
    else byFacet.set(cell.facet, [cell]);
  }
  const columns: MatrixColumn[] = snapshot.facets.map((f, i) => {
    const values = (byFacet.get(i) ?? []).map((c) => headline(c.effect));
    return { facet: i, def: f.facet, n: f.n, spread: values.length > 1 ? Math.max(...values) - Math.min(...values) : 0 };
  });
  const kindRank = (k: FacetKind) => {
    const i = KIND_ORDER.indexOf(k);
    return i < 0 ? KIND_ORDER.length : i;
  };
  columns.sort((a, b) => kindRank(a.def.kind) - kindRank(b.def.kind) || b.spread - a.spread || a.def.name.localeCompare(b.def.name) || a.facet - b.facet);
  const groups: MatrixGroup[] = [];
  columns.forEach((c, i) => {
    const last = groups.at(-1);
    if (last && last.kind === c.def.kind) last.count++;
    else groups.push({ kind: c.def.kind, start: i, count: 1 });
  });
  const colOf = new Map(columns.map((c, i) => [c.facet, i]));
  const grid: (CapabilityCell | null)[][] = tools.map(() => columns.map(() => null));
  let tested = 0;
  for (const [facet, cells] of byFacet) {
    const col = colOf.get(facet)!;
    for (const cell of cells) {
      const row = grid[rowOf.get(cell.toolId)!]!;
      if (row[col] === null) tested++;
      row[col] = cell;
    }
  }
  const magnitudes = snapshot.cells
    .map((c) => Math.abs(headline(c.effect)))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const domain = niceDomain(magnitudes);
  const p90 = magnitudes.length ? magnitudes[Math.min(magnitudes.length - 1, Math.floor(0.9 * magnitudes.length))]! : 0;
  return { tools, columns, groups, grid, domain, colorDomain: Math.min(domain, niceDomain([p90])), tested, style: snapshotStyle(snapshot) };
}

/** Tooltip (and screen-reader) lines for a grid position. */
export function cellLines(model: CapabilityMatrixModel, row: number, col: number): string[] {
  const tool = model.tools[row];
  const column = model.columns[col];
  if (tool === undefined || !column) return [];
  const head = `${tool} · ${column.def.name} (${column.def.kind})`;
  const cell = model.grid[row]?.[col] ?? null;
  if (!cell) return [head, `Not tested for this tool (${column.n} training tasks have the facet).`];
  const e = cell.effect;
  const st = model.style;
  // The level against the others first (the number people compare), then the change (issue #34).
  const lines = [head];
  if (e.mean !== undefined && e.othersMean !== undefined)
    lines.push(
      `here ${levelText(e.mean, st)} vs the ` +
        `others' ${levelText(e.othersMean, st)}${e.rank !== undefined && e.of !== undefined ? `, ${e.rank} of ${e.of}` : ''}`,
    );
  lines.push(effectSummary(e, st));
  if (e.deltaVsOthers !== null) lines.push(`vs its own mean ${changeText(e.deltaOwn, st)}${e.ci95Own ? ` (95% CI ${changeIntervalText(e.ci95Own, st)})` : ''}`);
  if (e.mean !== undefined && e.toolMean !== undefined) lines.push(`mean ${levelText(e.mean, st)} on these tasks, ${levelText(e.toolMean, st)} overall`);
  const status = statusText(e);
  if (status) lines.push(`${status.charAt(0).toUpperCase()}${status.slice(1)}.`);
  const kind = statusOf(e);
  lines.push(
    cell.entryId
      ? `An entry was written for it${kind === 'tentative' ? ' (tentative, shown apart)' : kind === 'claim' ? ' (a claim)' : ''}: Enter or click to see it.`
      : 'No entry: no clear effect.',
  );
  return lines;
}

/** A column's header: a theme's name without its "theme: " prefix (the kind band above says it). */
export function columnLabel(def: Facet): string {
  return def.kind === 'theme' && /^theme:\s*/i.test(def.name) ? def.name.replace(/^theme:\s*/i, '') : def.name;
}

/** The longest prefix of `text` (with "…") that `fits`; the whole text when it fits. */
export function truncateToFit(text: string, fits: (s: string) => boolean): string {
  if (fits(text)) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(`${text.slice(0, mid)}…`)) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

/** Same facet: same kind and name (an entry edited by hand keeps its facet under a new id). */
export function sameFacet(a: Facet, b: Facet): boolean {
  return a.kind === b.kind && a.name === b.name;
}

/**
 * A cell's entries among a tool's entry rows: the valid entry written for it and any other valid
 * entry of the tool about the same facet (a hand edit supersedes the written one with a new id).
 * The written entry comes first.
 */
export function cellEntries<E extends { id: string; toolId: string; validTo: number | null; facet?: Facet }>(
  entries: readonly E[],
  cell: CapabilityCell,
  facet: Facet,
): E[] {
  return entries
    .filter((e) => e.toolId === cell.toolId && e.validTo === null && (e.id === cell.entryId || (e.facet !== undefined && sameFacet(e.facet, facet))))
    .sort((a, b) => Number(b.id === cell.entryId) - Number(a.id === cell.entryId) || a.id.localeCompare(b.id));
}

export interface FacetEffectRow {
  facet: Facet;
  effect: CapabilityCell['effect'];
  /** The headline delta (vs other tools, or vs the tool's own mean with one tool). */
  delta: number;
  /** The 95% interval leaves out zero. */
  clear: boolean;
}

/**
 * A tool's strongest and weakest facets in a snapshot (the Tools page's card): positive headline
 * deltas, largest first, and negative ones, most negative first — facets whose interval leaves out
 * zero before the uncertain ones, so a wide, noisy interval does not outrank a clear effect.
 * Only the tool's CLAIMS count (issue #25: the card says what the Memory page says, with the same
 * shrunk numbers); a snapshot built before cells had a status offers every tested cell.
 */
export function toolExtremes(snapshot: CapabilitySnapshot, toolId: string, k = 3): { strongest: FacetEffectRow[]; weakest: FacetEffectRow[] } {
  const rows: FacetEffectRow[] = [];
  for (const cell of snapshot.cells) {
    const f = snapshot.facets[cell.facet];
    if (cell.toolId !== toolId || !f) continue;
    const status = statusOf(cell.effect);
    if (status !== null && (status !== 'claim' || cell.entryId === null)) continue;
    const delta = headline(cell.effect);
    if (!Number.isFinite(delta)) continue;
    rows.push({ facet: f.facet, effect: cell.effect, delta, clear: cell.effect.ci95[0] > 0 || cell.effect.ci95[1] < 0 });
  }
  const order = (a: FacetEffectRow, b: FacetEffectRow) =>
    Number(b.clear) - Number(a.clear) || Math.abs(b.delta) - Math.abs(a.delta) || a.facet.name.localeCompare(b.facet.name);
  return {
    strongest: rows
      .filter((r) => r.delta > 0)
      .sort(order)
      .slice(0, k),
    weakest: rows
      .filter((r) => r.delta < 0)
      .sort(order)
      .slice(0, k),
  };
}

export interface ToolFacets {
  /** Name and id of the memory the facets come from. */
  memory: string;
  /** That memory's rounding rule (the Tools card prints what its entries print). */
  style?: NumberStyle;
  memoryId?: string;
  /** The memory's cells carry a claim status (issue #25): the rows are its claims only. */
  claimsOnly?: boolean;
  strongest: FacetEffectRow[];
  weakest: FacetEffectRow[];
}

/**
 * Tool id → its strongest and weakest facets, from the first memory (in the given order: most
 * recent first) whose capability snapshot has effects for the tool. A Map: tool ids are data.
 */
export function facetsByTool(
  memories: readonly { id?: string; name: string; capability?: CapabilitySnapshot | undefined }[],
  k = 3,
): ReadonlyMap<string, ToolFacets> {
  const out = new Map<string, ToolFacets>();
  for (const m of memories) {
    const snap = m.capability;
    if (!snap) continue;
    for (const t of snap.tools) {
      if (out.has(t)) continue;
      const ends = toolExtremes(snap, t, k);
      if (ends.strongest.length || ends.weakest.length || snap.report.claims !== undefined)
        out.set(t, {
          memory: m.name,
          style: snapshotStyle(snap),
          ...(m.id !== undefined ? { memoryId: m.id } : {}),
          ...(snap.report.claims !== undefined ? { claimsOnly: true } : {}),
          ...ends,
        });
    }
  }
  return out;
}

/** Where a tool × facet is in a matrix (the facet by kind and name), or null when it is not there. */
export function findCell(model: CapabilityMatrixModel, tool: string, facet: Facet): { row: number; col: number } | null {
  const row = model.tools.indexOf(tool);
  const col = model.columns.findIndex((c) => sameFacet(c.def, facet));
  return row < 0 || col < 0 ? null : { row, col };
}
