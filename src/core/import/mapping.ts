/**
 * Column mapping for the generic preset: canonical field → column. `suggestMapping` guesses it from
 * common header names so the mapping editor starts from something sensible.
 */
import { quote } from '../text/quote';
import type { CanonicalField, FieldMapping } from './types';

export const CANONICAL_FIELDS: readonly CanonicalField[] = ['id', 'prompt', 'tool', 'score', 'response', 'feedback', 'rubric', 'category', 'rater', 'image'];

/**
 * Fields every row needs. `score` is not one of them: a file without a score column (or a row whose
 * score cell is empty) brings outputs awaiting labels (issue #26).
 */
export const REQUIRED_FIELDS: readonly CanonicalField[] = ['prompt', 'tool'];

/** Candidate header names per field, best first (compared after normalising case and punctuation). */
const SYNONYMS: Record<CanonicalField, string[]> = {
  id: ['id', 'task_id', 'taskid', 'prompt_id', 'question_id', 'instance_id', 'example_id', 'idx', 'uid', 'index'],
  prompt: ['prompt', 'instruction', 'input', 'question', 'task_input', 'query', 'text', 'prompt_text', 'task'],
  tool: ['tool', 'tool_name', 'model', 'model_name', 'system', 'generator', 'agent', 'engine'],
  score: ['score', 'rating', 'label', 'grade', 'human_score', 'judge_score', 'quality', 'value'],
  response: ['response', 'output', 'answer', 'completion', 'generation', 'model_output'],
  feedback: ['feedback', 'rationale', 'explanation', 'critique', 'comment', 'comments', 'reason'],
  rubric: ['rubric', 'score_rubric', 'criteria'],
  category: ['category', 'categories', 'skill', 'skills', 'capability', 'tags', 'tag', 'topic'],
  rater: ['rater', 'judge', 'annotator', 'evaluator', 'annotator_id', 'rater_id', 'worker_id'],
  image: ['image', 'image_path', 'image_file', 'image_url', 'image_id', 'file_name', 'filename'],
};

function normalise(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s\-.]+/g, '_');
}

/** Guesses a mapping; each column is used for at most one field. */
export function suggestMapping(headers: string[]): FieldMapping {
  const byName = new Map<string, string>();
  for (const h of headers) if (!byName.has(normalise(h))) byName.set(normalise(h), h);
  const used = new Set<string>();
  const mapping: FieldMapping = {};
  for (const field of CANONICAL_FIELDS) {
    for (const name of SYNONYMS[field]) {
      const header = byName.get(name);
      if (header !== undefined && !used.has(header)) {
        mapping[field] = header;
        used.add(header);
        break;
      }
    }
  }
  // Judge exports often name the score `<judge>_score`.
  if (!mapping.score) {
    const scoreLike = headers.find((h) => !used.has(h) && /(^|_)score$/i.test(normalise(h)));
    if (scoreLike) mapping.score = scoreLike;
  }
  return mapping;
}

/** Splits on commas outside `[...]`, so a path's quoted key may hold one (`score=m["a,b"]`). */
function splitPairs(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inQuote = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuote) {
      if (c === '\\') i++;
      else if (c === '"') inQuote = false;
    } else if (c === '"' && depth > 0) inQuote = true;
    else if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Parses `field=column,field=column` (the CLI's --map); throws a message naming the bad part. A
 * column may be a nested path (`prompt=vars.question`, record-path.ts), checked when the file is
 * opened: only then is it known whether the file has a column of exactly that name.
 */
export function parseMapping(text: string): FieldMapping {
  const mapping: FieldMapping = {};
  for (const part of splitPairs(text)) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`Bad mapping ${quote(part)}: expected field=column.`);
    const field = part.slice(0, eq).trim() as CanonicalField;
    if (!CANONICAL_FIELDS.includes(field)) {
      throw new Error(`Bad mapping ${quote(part)}: ${quote(field)} is not a field; use one of ${CANONICAL_FIELDS.join(', ')}.`);
    }
    mapping[field] = part.slice(eq + 1).trim();
  }
  return mapping;
}
