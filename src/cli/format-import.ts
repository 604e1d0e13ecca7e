/** Human-readable import report for the terminal (the --json output is the summary itself). */
import { describeRowError, formatScale } from '../core/import';
import type { ImportSummary } from '../core/import/types';
import { clipInput } from '../core/text/quote';

export const ERRORS_SHOWN = 10;
/** Characters of a tool or column name shown in the report. */
const NAME_MAX = 60;

export function formatSummary(summary: ImportSummary, opts: { dryRun: boolean }): string {
  const s = summary;
  const direction = s.scale.direction === 'higher-better' ? 'higher is better' : 'lower is better';
  const source = s.scaleNote ? ` (${s.scaleNote})` : s.scaleInferred ? ' (inferred from the scores)' : '';
  const scale = `${formatScale(s.scale)}${s.scale.integer ? ', whole numbers' : ''}, ${direction}${source}`;
  const lines = [
    `${opts.dryRun ? 'Dry run of' : 'Imported (in memory)'} ${s.fileName}`,
    `  format ${s.format}, preset ${s.preset} ` +
      `(confidence ${s.confidence.toFixed(2)}${s.preset !== s.detectedPreset ? `; detected ${s.detectedPreset}` : ''}), ` +
      `dataset ${s.datasetId}`,
    `  scale ${scale}`,
  ];
  if (s.judge) lines.push(`  ${s.preset === 'helm' ? 'metric' : 'judge'} ${clipInput(s.judge, NAME_MAX)}`);
  for (const note of s.notes ?? []) lines.push(`  ${clipInput(note, 400)}`);
  // Column and tool names come from the file: each is shown clipped (a 20 MB header is one "column").
  if (s.mapping)
    lines.push(
      `  mapping ${Object.entries(s.mapping)
        .map(([f, c]) => `${f}=${clipInput(c, NAME_MAX)}`)
        .join(', ')}`,
    );

  const tools = Object.entries(s.tools)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, t]) => [clipInput(name, NAME_MAX), t] as const);
  const width = Math.max(4, 'total'.length, ...tools.map(([t]) => t.length));
  const row = (name: string, a: number | string, r: number | string) => `  ${name.padEnd(width)}  ${String(a).padStart(8)}  ${String(r).padStart(8)}`;
  lines.push('', row('tool', 'accepted', 'rejected'));
  for (const [tool, t] of tools) lines.push(row(tool, t.accepted, t.rejected));
  lines.push(row('total', s.accepted, s.rejected));
  lines.push(`  ${s.rowsRead} rows read; ${s.added} new, ${s.updated} changed, ${s.unchanged} unchanged`);
  if (s.unscored > 0) lines.push(`  ${s.unscored} of the accepted rows have no score: outputs to label (scores given later complete them)`);

  if (s.errors.length > 0) {
    const shown = s.errors.slice(0, ERRORS_SHOWN);
    lines.push(
      '',
      shown.length < s.errors.length ? `First ${shown.length} of ${s.errors.length} errors:` : `${s.errors.length} error${s.errors.length > 1 ? 's' : ''}:`,
    );
    for (const e of shown) lines.push(`  ${describeRowError(e)}`);
  }
  lines.push('', opts.dryRun ? 'Dry run: nothing was stored.' : 'Checked in memory only: the CLI does not store experiences yet.');
  return lines.join('\n');
}
