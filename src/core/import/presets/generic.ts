/**
 * Any CSV/JSON/JSONL with a column mapping. Only prompt and tool are required (rows without a score
 * are outputs awaiting labels); id defaults to
 * the row number (or the JSON member key), rater to `default`; category may be a `;`-list. There is
 * no fixed scale: unless the caller gives one, the import infers it from the scores it saw.
 */
import { ValidationError } from '../../errors';
import { DELIMITER_CANDIDATES } from '../csv-chunk-parser';
import { CANONICAL_FIELDS, REQUIRED_FIELDS, suggestMapping } from '../mapping';
import type { CanonicalField, DetectSample, FieldMapping, Preset, PresetContext } from '../types';
import { quote } from '../../text/quote';
import { clipList } from '../bounded';
import { cell, optional, scoreCell, splitList, textDefaults } from './shared';
import { PathSyntaxError, checkPath } from '../record-path';
import { promptTaskId } from '../prompt-task';

const DEFAULT_RATER = 'default';

function showDelimiter(d: string | undefined): string {
  return d === '\t' ? 'tab' : `'${d ?? ','}'`;
}

/** When the whole header landed in one column, say which delimiter the file seems to use. */
function delimiterHint(ctx: PresetContext): string {
  if (ctx.format !== 'csv' || ctx.headers.length !== 1) return '';
  const only = ctx.headers[0] ?? '';
  const other = DELIMITER_CANDIDATES.find((d) => d !== ctx.delimiter && only.includes(d));
  if (!other) return '';
  return (
    ` The header was read as a single column, ${quote(only)}: the file looks ${showDelimiter(other)}-separated but was read ` +
    `as ${showDelimiter(ctx.delimiter)}-separated. Let the delimiter be detected, or set it to ${showDelimiter(other)} (CLI: ` +
    `--delimiter).`
  );
}

/** Explicit mapping first; suggestions fill the gaps with columns the user did not already use. */
export function resolveMapping(headers: string[], explicit: FieldMapping | undefined): FieldMapping {
  const mapping: FieldMapping = { ...(explicit ?? {}) };
  const used = new Set(Object.values(mapping));
  const suggested = suggestMapping(headers);
  for (const field of CANONICAL_FIELDS) {
    const column = suggested[field];
    if (mapping[field] === undefined && column !== undefined && !used.has(column)) {
      mapping[field] = column;
      used.add(column);
    }
  }
  return mapping;
}

/** A mapped column whose header name was repeated in the file: the field is ambiguous. */
function checkAmbiguous(ctx: PresetContext, mapping: FieldMapping): void {
  for (const dup of ctx.headerIssues?.duplicates ?? []) {
    const field = (Object.keys(mapping) as CanonicalField[]).find((f) => mapping[f] === dup.name && ctx.mapping?.[f] === undefined);
    if (!field) continue;
    const others =
      dup.names
        .slice(1, 6)
        .map((n) => quote(n))
        .join(', ') + (dup.names.length > 6 ? `, … (${dup.names.length - 6} more)` : '');
    throw new ValidationError(
      `Column ${quote(dup.name)} appears ${dup.columns.length} times in the header ` +
        `(columns ${clipList(dup.columns.map(String), 100, 'columns').replace(/, (?=[^,]*$)/, ' and ')}), so it is unclear which one holds ` +
        `the ${field}. Rename the duplicates in the file, or map ${field} explicitly: ${quote(dup.name)} is ` +
        `column ${dup.columns[0]}, ${others} ${dup.columns.length > 2 ? 'are the later ones' : `is column ${dup.columns[1]}`} (CLI: ` +
        `--map ${field}=${quote(dup.name).slice(1, -1)}).`,
    );
  }
}

/** Hint for a missing field when some header cells had no name: the field may be in one of them. */
function blankHint(ctx: PresetContext): string {
  const blanks = ctx.headerIssues?.blanks ?? [];
  if (!blanks.length) return '';
  const list = clipList(
    blanks.map((b) => `column ${b.column} (shown as '${b.name}')`),
    300,
    'unnamed columns',
  );
  return ` The header has no name for ${list}; name ${blanks.length > 1 ? 'them' : 'it'} in the file, or map the field to ${quote(blanks[0]!.name)}.`;
}

function checkMapping(ctx: PresetContext, mapping: FieldMapping, given: readonly CanonicalField[] = []): void {
  checkAmbiguous(ctx, mapping);
  const hint = delimiterHint(ctx) + blankHint(ctx);
  // JSON records may omit keys the first record lacks; only a CSV header is the complete column list.
  if (ctx.format === 'csv') {
    const headerSet = new Set(ctx.headers);
    for (const [field, column] of Object.entries(mapping)) {
      if (column !== undefined && !headerSet.has(column)) {
        throw new ValidationError(
          `Mapping ${field}=${quote(column).slice(1, -1)}: the file has no column ${quote(column)}. Columns: ${clipList(ctx.headers)}.${hint}`,
        );
      }
    }
  }
  // JSON, JSONL and Parquet records nest: a mapping names a key of the first record or a path into
  // the record (record-path.ts), and a path that cannot parse is refused now, not on every row.
  if (ctx.format !== 'csv') {
    const keys = new Set(ctx.headers);
    for (const [field, path] of Object.entries(mapping)) {
      if (path === undefined || keys.has(path)) continue;
      try {
        checkPath(path);
      } catch (err) {
        if (!(err instanceof PathSyntaxError)) throw err;
        throw new ValidationError(`Mapping ${field}: ${err.message} A key that holds '.', '[' or ']' is written ["like.this"].`);
      }
    }
  }
  const missing = REQUIRED_FIELDS.filter((f) => !mapping[f] && !given.includes(f));
  if (missing.length > 0) {
    const list = missing.map((f) => `'${f}'`).join(', ');
    throw new ValidationError(
      `No column for the required field${missing.length > 1 ? 's' : ''} ${list}: none of the columns (${clipList(ctx.headers)}) looks ` +
        `like ${missing.length > 1 ? 'them' : 'it'}. Map ${missing.length > 1 ? 'them' : 'it'} explicitly (CLI: ` +
        `--map ${missing[0]}=COLUMN).${hint}`,
    );
  }
}

function detect(sample: DetectSample): number {
  const mapping = suggestMapping(sample.headers);
  // As sure as before #26 only with a score column; without one the file is still generic (outputs to label).
  return REQUIRED_FIELDS.every((f) => mapping[f]) && mapping.score ? 0.3 : 0.1;
}

function baseName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/\.[^.]+$/, '') || 'Imported data';
}

export const generic: Preset = {
  id: 'generic',
  label: 'Generic (map your columns)',
  defaults: textDefaults('Imported data', null),
  detect,
  async prepare(ctx) {
    const mapping = resolveMapping(ctx.headers, ctx.mapping);
    // A file without a model column: every row is the tool the caller names (CLI --tool; dialog: Tool for every row).
    const everyRow = mapping.tool ? undefined : ctx.defaultTool?.trim() || undefined;
    checkMapping(ctx, mapping, everyRow ? ['tool'] : []);
    const columns = mapping as Record<CanonicalField, string | undefined>;
    const scoreSource = ctx.scoreSource ?? 'human';
    const notes: string[] = [];
    if (everyRow) notes.push(`No tool column: every row is credited to ${quote(everyRow)}.`);
    if (!columns.id)
      notes.push('No id column: rows with the same prompt (ignoring case and spacing) are one task, so the tools that answered it can be compared.');
    return {
      mapping,
      notes,
      name: baseName(ctx.fileName),
      map(record) {
        const d = record.data;
        const prompt = cell(d, columns.prompt);
        const row = {
          taskId: cell(d, columns.id).trim() || record.key || (columns.id ? String(record.row) : promptTaskId(prompt) || String(record.row)),
          prompt,
          tool: everyRow ?? cell(d, columns.tool),
          // No score column: every row is an output awaiting labels (validate.ts).
          score: columns.score === undefined ? undefined : scoreCell(d, columns.score),
          rater: cell(d, columns.rater).trim() || DEFAULT_RATER,
          response: optional(d, columns.response),
          feedback: optional(d, columns.feedback),
          rubric: optional(d, columns.rubric),
          categories: splitList(cell(d, columns.category)),
          image: optional(d, columns.image),
          scoreSource,
          source: { row: record.row, columns: everyRow ? { ...mapping, tool: '(--tool)' } : mapping, raw: d },
        };
        return { rows: [row], errors: [] };
      },
    };
  },
};
