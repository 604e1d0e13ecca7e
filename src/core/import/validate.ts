/**
 * Canonical row → Experience, or a RowError saying exactly what is wrong and where. Messages are
 * shown to people (and in the rejected-rows download), so they name the field, the column and the
 * offending value.
 */
import { experienceKey } from '../ids';
import type { Experience, LabelItem, RowError, ScoreScale } from '../types';
import { itemId } from '../label/queue';
import type { CanonicalField, CanonicalRow, NearMissTool, ToolChoices } from './types';
import { quote } from '../text/quote';
import { parseDecimal } from './score-number';
import { hasInvalidUtf8 } from './utf8-decode';
import { resolvePath } from './record-path';
import { sameModelAs } from './tool-alias';

/** Longest text field we store; longer values are almost always a broken quote or a binary blob. */
export const MAX_FIELD_CHARS = 1_000_000;
/** Fields that must hold text (a JSON array or object there is an error, never silently stringified). */
const MUST_BE_TEXT: ReadonlySet<CanonicalField> = new Set(['id', 'prompt', 'tool', 'rater', 'response', 'feedback']);

export function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12)));
}

export function formatScale(scale: ScoreScale): string {
  return `${formatNumber(scale.min)}–${formatNumber(scale.max)}`;
}

/** Levenshtein distance, giving up once it exceeds `limit` (tool lists are short, names are short). */
export function editDistance(a: string, b: string, limit = 2): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length] ?? limit + 1;
}

export interface ValidatorOptions {
  fileName: string;
  datasetId: string;
  importId: string;
  now: number;
  /** null: accept any finite number (the scale is inferred afterwards). */
  scale: ScoreScale | null;
  knownTools?: string[];
  /** Near-miss names the user mapped to a known tool or accepted as new. */
  toolChoices?: ToolChoices;
}

/**
 * A row is an experience (it has a score), an output awaiting labels (no score: the column is
 * absent or the cell empty — issue #26), or an error.
 */
export type Checked =
  | { experience: Experience; error?: undefined; unscored?: undefined }
  | { unscored: LabelItem; error?: undefined; experience?: undefined }
  | { error: RowError; experience?: undefined; unscored?: undefined };

const TEXT_FIELDS: { field: CanonicalField; get: (r: CanonicalRow) => string | undefined }[] = [
  { field: 'id', get: (r) => r.taskId },
  { field: 'prompt', get: (r) => r.prompt },
  { field: 'tool', get: (r) => r.tool },
  { field: 'rater', get: (r) => r.rater },
  { field: 'response', get: (r) => r.response },
  { field: 'feedback', get: (r) => r.feedback },
  { field: 'rubric', get: (r) => r.rubric },
  { field: 'category', get: (r) => r.categories.join(';') },
  { field: 'image', get: (r) => r.image },
];

/** The first field of `row` that is not acceptable text (structured, empty, too long, not UTF-8), with why. */
function textProblem(row: CanonicalRow): [CanonicalField, string] | null {
  const columnQ = (field: CanonicalField): string => quote(row.source.columns[field] ?? field);
  // Presets read cells as text and print arrays/objects as JSON (presets/shared.ts); for the text
  // fields that would store `["a"]` as a prompt, so the raw cell is checked here. Rubric (objects
  // rendered by rubric.ts), category (lists) and image are documented to take structured values.
  for (const field of MUST_BE_TEXT) {
    if (row.source.rendered?.includes(field)) continue;
    const column = row.source.columns[field];
    const raw = row.source.raw;
    // A column name or a nested path (`response.output`): the value the field really points at.
    const value = column !== undefined ? resolvePath(raw, column) : undefined;
    if (value !== null && typeof value === 'object') {
      return [field, `${field} must be text: column ${columnQ(field)} holds a JSON ${Array.isArray(value) ? 'array' : 'object'}`];
    }
  }

  for (const field of ['prompt', 'tool'] as const) {
    if ((field === 'prompt' ? row.prompt : row.tool).trim() === '') {
      return [field, `missing ${field}: column ${columnQ(field)} is empty`];
    }
  }
  if (row.taskId.trim() === '') return ['id', `missing id: column ${columnQ('id')} is empty`];

  for (const { field, get } of TEXT_FIELDS) {
    const text = get(row);
    if (text === undefined) continue;
    if (text.length > MAX_FIELD_CHARS) {
      return [field, `${field} is too long: ${text.length.toLocaleString('en-US')} characters (the limit is ${MAX_FIELD_CHARS.toLocaleString('en-US')})`];
    }
    // Bytes that were not UTF-8 arrive escaped (utf8-decode.ts); a literal U+FFFD is valid text.
    if (hasInvalidUtf8(text)) {
      return [
        field,
        `invalid UTF-8: column ${columnQ(field)} contains bytes that are not valid UTF-8 (shown as �); save the file as UTF-8 and import it again`,
      ];
    }
  }
  return null;
}

export class RowValidator {
  /** Experience id → source row of its first occurrence (duplicates within one file). */
  private readonly seen = new Map<string, number>();
  /** Label item id → source row of its first occurrence, for rows without a score. */
  private readonly seenItems = new Map<string, number>();
  /** Lower-cased known tool → its spelling; undefined when the caller gave no list. */
  private readonly known: Map<string, string> | undefined;
  private readonly exact: Set<string>;
  /** Near-miss name → its suggestion and refused rows, in order of first appearance (a Map: names are data). */
  private readonly misses = new Map<string, NearMissTool>();

  constructor(private readonly opts: ValidatorOptions) {
    this.known = opts.knownTools ? new Map(opts.knownTools.map((t) => [t.toLowerCase(), t])) : undefined;
    this.exact = new Set(opts.knownTools ?? []);
  }

  check(row: CanonicalRow): Checked {
    const fail = (field: CanonicalField, reason: string): Checked => ({
      error: { file: this.opts.fileName, row: row.source.row, column: row.source.columns[field] ?? field, reason, raw: row.source.raw },
    });
    const problem = textProblem(row);
    if (problem) return fail(problem[0], problem[1]);

    const scoreResult = this.parseScore(row);
    if (typeof scoreResult === 'string') return fail('score', scoreResult);

    // A mapped name is stored under the known tool; a name accepted as new skips the look-alike check.
    const named = row.tool.trim();
    const tool = this.opts.toolChoices?.map?.get(named) ?? named;
    if (this.known && !this.exact.has(tool) && !this.opts.toolChoices?.newTools?.has(named)) {
      const suggestion = this.closestKnownTool(tool);
      if (suggestion) {
        const miss = this.misses.get(tool) ?? { name: tool, suggestion, rows: 0 };
        miss.rows += 1;
        this.misses.set(tool, miss);
        return fail('tool', `unknown tool ${quote(tool)}: did you mean ${quote(suggestion).slice(1, -1)}?`);
      }
    }

    const taskId = row.taskId.trim();
    if (scoreResult === null) return this.unscored(row, taskId, tool);
    const rater = row.rater.trim() || 'default';
    const id = experienceKey(this.opts.datasetId, taskId, tool, rater);
    const first = this.seen.get(id);
    if (first !== undefined) {
      return fail('id', `duplicate of row ${first}: same task ${quote(taskId)}, tool ${quote(tool)} and rater ${quote(rater)}`);
    }
    this.seen.set(id, row.source.row);

    return { experience: this.experienceOf(row, { id, taskId, tool, rater, score: scoreResult }) };
  }

  /** The stored row: optional fields left out rather than set to undefined, so stored rows compare cleanly. */
  private experienceOf(
    row: CanonicalRow,
    { id, taskId, tool, rater, score }: { id: string; taskId: string; tool: string; rater: string; score: number },
  ): Experience {
    const experience: Experience = {
      id,
      datasetId: this.opts.datasetId,
      taskId,
      prompt: row.prompt,
      toolId: tool,
      score,
      rater,
      scoreSource: row.scoreSource,
      categories: row.categories,
      importId: this.opts.importId,
      createdAt: this.opts.now,
    };
    // Optional fields are left out rather than set to undefined, so stored rows compare cleanly.
    if (row.response !== undefined) experience.response = row.response;
    if (row.image !== undefined) experience.imageId = row.image;
    if (row.rubric !== undefined) experience.rubric = row.rubric;
    if (row.feedback !== undefined) experience.feedback = row.feedback;
    // Measurements, not scores: kept only when they are finite and not negative.
    if (row.cost !== undefined && Number.isFinite(row.cost) && row.cost >= 0) experience.cost = row.cost;
    if (row.latencyMs !== undefined && Number.isFinite(row.latencyMs) && row.latencyMs >= 0) experience.latencyMs = row.latencyMs;
    if (row.modelVersion !== undefined && row.modelVersion.trim() !== '') experience.modelVersion = row.modelVersion.trim();
    return experience;
  }

  /** A row without a score: an output awaiting labels, one per dataset × task × tool (raters do not apply yet). */
  private unscored(row: CanonicalRow, taskId: string, tool: string): Checked {
    const id = itemId(this.opts.datasetId, taskId, tool);
    const first = this.seenItems.get(id);
    if (first !== undefined) {
      return {
        error: {
          file: this.opts.fileName,
          row: row.source.row,
          column: row.source.columns.id ?? 'id',
          reason: `duplicate of row ${first}: same task ${quote(taskId)} and tool ${quote(tool)}, both without a score`,
          raw: row.source.raw,
        },
      };
    }
    this.seenItems.set(id, row.source.row);
    const item: LabelItem = {
      id,
      datasetId: this.opts.datasetId,
      taskId,
      toolId: tool,
      prompt: row.prompt,
      categories: row.categories,
      createdAt: this.opts.now,
      importId: this.opts.importId,
    };
    if (row.response !== undefined) item.response = row.response;
    if (row.image !== undefined) item.imageId = row.image;
    if (row.rubric !== undefined) item.rubric = row.rubric;
    return { unscored: item };
  }

  /**
   * The score as a number, null when the row has none (no column, an empty or blank cell: an output
   * awaiting labels), or the reason it is not acceptable (grammar: score-number.ts).
   */
  private parseScore(row: CanonicalRow): number | string | null {
    const raw = row.score;
    if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return null;
    let value: number;
    if (typeof raw === 'number') {
      // A JSON number: JSON's grammar is decimal already; only an overflow (1e400) is not finite.
      if (!Number.isFinite(raw)) return 'score is too large: it overflows to infinity (scores must lie within ±1.8e308)';
      value = raw;
    } else {
      const parsed = parseDecimal(raw);
      if (typeof parsed === 'string') return parsed;
      value = parsed;
    }
    const scale = this.opts.scale;
    if (!scale) return value;
    if (value < scale.min || value > scale.max) return `score ${formatNumber(value)} is outside the scale ${formatScale(scale)}`;
    if (scale.integer && !Number.isInteger(value)) {
      return `score ${formatNumber(value)} is not a whole number; the scale ${formatScale(scale)} allows whole numbers only`;
    }
    return value;
  }

  /** Names refused so far as look-alikes of a known tool (copies). */
  nearMisses(): NearMissTool[] {
    return [...this.misses.values()].map((m) => ({ ...m }));
  }

  private closestKnownTool(tool: string): string | undefined {
    const lower = tool.toLowerCase();
    let best: { name: string; d: number } | undefined;
    // The same model named by another tool's convention (`Qwen__x` / `Qwen/x`, dated / undated: tool-alias.ts).
    const alias = sameModelAs(tool, this.known?.values() ?? []);
    if (alias !== undefined) return alias;
    for (const [key, name] of this.known ?? []) {
      const d = editDistance(lower, key);
      if (d <= 2 && (!best || d < best.d)) best = { name, d };
    }
    return best?.name;
  }
}
