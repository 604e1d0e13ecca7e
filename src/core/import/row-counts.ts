/**
 * How a whole file would import, without storing anything: rows with a score (experiences), rows
 * without one (outputs awaiting labels, issue #26) and rejected rows. The import dialog says "12
 * outputs to label" from this before the user imports. Like the near-miss scan it is the import
 * itself with a sink that keeps nothing, so the counts are exactly what the import will report.
 */
import { runImport } from './pipeline';
import type { ImportOptions } from './types';
import type { ScoreScale } from '../types';

export interface RowCounts {
  rowsRead: number;
  scored: number;
  unscored: number;
  rejected: number;
  /** The scale the import would use, and where it comes from (the dialog fills Min and Max with it before the import). */
  scale: ScoreScale;
  scaleNote?: string | undefined;
  scaleInferred: boolean;
  /** The scores cannot tell the scale (no score, or all equal): the dialog asks for it. */
  scaleUndecided: boolean;
}

export type RowCountOptions = Omit<ImportOptions, 'importId' | 'now' | 'onProgress' | 'batchSize'>;

export async function countRows(input: AsyncIterable<string | Uint8Array>, opts: RowCountOptions): Promise<RowCounts> {
  const sink = { writeBatch: async (rows: unknown[]) => ({ added: rows.length, updated: 0, unchanged: 0 }) };
  const s = await runImport(input, { ...opts, importId: 'row-count', now: 0 }, sink);
  return {
    rowsRead: s.rowsRead,
    scored: s.accepted - s.unscored,
    unscored: s.unscored,
    rejected: s.rejected,
    scale: s.scale,
    scaleNote: s.scaleNote,
    scaleInferred: s.scaleInferred,
    scaleUndecided: s.scaleUndecided === true,
  };
}
