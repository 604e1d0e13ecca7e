/**
 * Score rubrics arrive as text, as a JSON object string (BiGGen CSV exports) or as an object
 * (BiGGen instances, Prometheus JSONL) with `criteria` and `score1_description`…`score5_description`.
 * They are stored as readable plain text so the UI, prompts and embeddings can use them as is.
 */

const SCORE_KEY = /^score(\d+)_description$/;

function asText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function renderObject(rubric: Record<string, unknown>): string {
  const lines: string[] = [];
  const criteria = asText(rubric.criteria);
  if (criteria) lines.push(`Criteria: ${criteria}`);
  const levels = Object.keys(rubric)
    .map((key) => ({ key, match: SCORE_KEY.exec(key) }))
    .filter((k): k is { key: string; match: RegExpExecArray } => k.match !== null)
    .sort((a, b) => Number(a.match[1]) - Number(b.match[1]));
  for (const { key, match } of levels) {
    const text = asText(rubric[key]);
    if (text) lines.push(`Score ${match[1]}: ${text}`);
  }
  // Keep anything else the rubric carries rather than silently dropping it.
  for (const [key, value] of Object.entries(rubric)) {
    if (key === 'criteria' || SCORE_KEY.test(key)) continue;
    const text = asText(value);
    if (text) lines.push(`${key}: ${text}`);
  }
  return lines.join('\n');
}

/** Readable rubric text, or undefined when there is none. */
export function renderRubric(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) {
    return renderObject(value as Record<string, unknown>) || undefined;
  }
  const text = asText(value);
  if (!text) return undefined;
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return renderObject(parsed as Record<string, unknown>) || undefined;
      }
    } catch {
      // Not JSON after all: keep the text as the user wrote it.
    }
  }
  return text;
}
