/**
 * Pieces shared by every prompt template. All prompt wording of the product lives in
 * src/core/prompts (our own words). Every part of a prompt is clipped to a fixed size, so the
 * size of a prompt depends only on the number of entries shown (k per level) and never on the
 * size of the memory or of the data.
 */
import type { ChatMessage } from '../llm/engine';
import type { Level, Modality, ScoreScale } from '../types';

/** Character caps for each part of an example shown to a model. */
export const PROMPT_LIMITS = {
  task: 800,
  output: 800,
  rubric: 600,
  feedback: 600,
  entry: 300,
  /** A previous invalid reply echoed back when asking again. */
  badReply: 1200,
  errorMessage: 400,
} as const;

/** Longest entry text a model may write (characters). */
export const MAX_ENTRY_CHARS = 300;

export interface PromptTool {
  id: string;
  name?: string;
  modality?: Modality;
  description?: string;
}

/** What a prompt shows of one experience. */
export interface PromptExperience {
  prompt: string;
  response?: string;
  /** The output was an image (it is never shown to a text model). */
  image?: boolean;
  score: number;
  rubric?: string;
  feedback?: string;
  feedbackGenerated?: boolean;
}

/** A memory entry shown in a prompt under a short alias (E1, E2, …) instead of its long id. */
export interface PromptEntry {
  alias: string;
  level: Level;
  text: string;
  support: number;
}

export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/** Multi-line text clipped but with its line breaks kept (rubrics, outputs). */
export function clipBlock(text: string, max: number): string {
  const t = text
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

export function describeTool(tool: PromptTool): string {
  const name = tool.name && tool.name !== tool.id ? `${tool.name} (${tool.id})` : tool.id;
  const kind = tool.modality && tool.modality !== 'other' ? `, ${tool.modality}` : '';
  const desc = tool.description ? ` — ${clip(tool.description, 200)}` : '';
  return `${name}${kind}${desc}`;
}

export function describeScale(scale: ScoreScale): string {
  const [worst, best] = scale.direction === 'higher-better' ? [scale.min, scale.max] : [scale.max, scale.min];
  return `${worst} (worst) to ${best} (best)${scale.integer ? ', whole numbers' : ''}`;
}

export function describeExperience(e: PromptExperience, scale: ScoreScale): string {
  const lines = [`Task: ${clip(e.prompt, PROMPT_LIMITS.task)}`];
  if (e.response !== undefined && e.response.trim() !== '') lines.push(`Output:\n${clipBlock(e.response, PROMPT_LIMITS.output)}`);
  else if (e.image) lines.push('Output: an image (not shown to you).');
  else lines.push('Output: not recorded.');
  lines.push(`Score: ${e.score} on a scale from ${describeScale(scale)}`);
  if (e.rubric) lines.push(`Rubric:\n${clipBlock(e.rubric, PROMPT_LIMITS.rubric)}`);
  if (e.feedback) lines.push(`Feedback${e.feedbackGenerated ? ' (written by a model, not by the rater)' : ''}: ${clip(e.feedback, PROMPT_LIMITS.feedback)}`);
  return lines.join('\n');
}

export const LEVEL_MEANINGS: Readonly<Record<Level, string>> = {
  proficient: 'the tool reliably does this very well',
  good: 'the tool usually handles this adequately',
  bad: 'the tool often falls short here',
  weak: 'the tool usually fails here',
};

export function levelGuide(): string {
  return (Object.keys(LEVEL_MEANINGS) as Level[]).map((l) => `- ${l}: ${LEVEL_MEANINGS[l]}`).join('\n');
}

export function describeEntries(entries: readonly PromptEntry[]): string {
  if (entries.length === 0) return '(none yet — the memory has no related entries)';
  return entries.map((e) => `[${e.alias}] (${e.level}, ${e.support} example${e.support === 1 ? '' : 's'}) ${clip(e.text, PROMPT_LIMITS.entry)}`).join('\n');
}

/** The follow-up message when a reply could not be used. */
/** The two messages of every prompt here: the fixed instructions, and the user's part as lines. */
export function systemAndUser(system: string, userLines: readonly string[]): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: userLines.join('\n') },
  ];
}

export function repairMessage(error: string): string {
  return `That reply could not be used: ${clip(error, PROMPT_LIMITS.errorMessage)}\nAnswer again with the JSON object only, in the shape described before.`;
}
