/**
 * Prompts that ask a model to predict a tool's score on a new task (our own wording). Three kinds
 * of evidence, one per method:
 *  - generic:  the tool's name and description only;
 *  - few-shot: the tool's most similar training experiences (task excerpt + score), best first;
 *  - memory:   the tool's memory entries retrieved for the task, grouped by level.
 * The task's rubric (when the data has one) and the scale's meaning (from the preset) are shown,
 * so the model knows what a score measures. The reply is one JSON object {"score": n}; engines with constrained decoding get SCORE_SCHEMA.
 * Every part is clipped (PREDICT_LIMITS), so a prompt's size depends only on how many examples
 * or entries are shown (k), never on the size of the data or the memory.
 */
import type { ChatMessage, JsonSchemaSpec } from '../llm/engine';
import { LEVELS, type Level, type ScoreScale } from '../types';
import { clip, clipBlock, describeScale, describeTool, LEVEL_MEANINGS, PROMPT_LIMITS, type PromptTool, systemAndUser } from './shared';

/** Character caps for the parts of a prediction prompt. */
export const PREDICT_LIMITS = {
  task: PROMPT_LIMITS.task,
  /** A training task shown as a few-shot example: an excerpt is enough to recognise the kind of task. */
  example: 300,
  entry: PROMPT_LIMITS.entry,
} as const;

/** Completion budget: the JSON object, or a short sentence from an engine that ignores the schema. */
export const PREDICT_MAX_TOKENS = 60;

export interface PredictExample {
  prompt: string;
  score: number;
  similarity: number;
}

export interface PredictEntry {
  level: Level;
  text: string;
  support: number;
  similarity: number;
}

export type PredictEvidence =
  { kind: 'none' } | { kind: 'examples'; examples: readonly PredictExample[] } | { kind: 'entries'; entries: readonly PredictEntry[] };

export interface PredictPromptInput {
  tool: PromptTool;
  scale: ScoreScale;
  task: string;
  evidence: PredictEvidence;
  /** The task's rubric, when the data has one (what the score measures on this task). */
  rubric?: string;
  /** What the scale's points mean (the dataset preset's words, scale-meanings.ts). */
  scaleMeaning?: string;
}

/** The reply's shape, with the scale's bounds (constrained decoding cannot leave them). */
export function scoreSchema(scale: ScoreScale): JsonSchemaSpec {
  return {
    name: 'score_prediction',
    schema: {
      type: 'object',
      properties: { score: { type: 'number', minimum: scale.min, maximum: scale.max } },
      required: ['score'],
      additionalProperties: false,
    },
  };
}

const SYSTEM =
  `You forecast how well a tool will do on a task before it runs. You are told what the tool is, the scale its outputs are scored on, ` +
  `and sometimes evidence about its past results. Think about what the task demands and what the evidence says about this tool ` +
  `on tasks like it. Answer with one JSON object and nothing else: {"score": <number>}. The number must lie on the scale; ` +
  `fractions are allowed and welcome when you are unsure between two values.

A worked example (another tool, another task): a ` +
  `text-to-image tool whose past results on prompts that ask for an exact number of objects are mostly 2 of 5, asked about ` +
  `"five red apples in a bowl", answers {"score": 2.5} — the evidence says counting is hard for it, and the colour adds a ` +
  `little risk.`;

const number = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

function examplesBlock(examples: readonly PredictExample[], scale: ScoreScale): string {
  if (examples.length === 0) return 'Past results of this tool: none on related tasks.';
  const lines = examples.map(
    (e, i) => `${i + 1}. (similarity ${e.similarity.toFixed(2)}) "${clip(e.prompt, PREDICT_LIMITS.example)}" → score ${number(e.score)}`,
  );
  return [`Past results of this tool on the ${examples.length} most similar tasks it was scored on (scale ${describeScale(scale)}):`, ...lines].join('\n');
}

function entriesBlock(entries: readonly PredictEntry[]): string {
  if (entries.length === 0) return 'What is known about this tool: its memory has no entries related to this task.';
  const parts = ['What is known about this tool (its capability memory; the entries most related to this task, by level):'];
  for (const level of LEVELS) {
    const list = entries.filter((e) => e.level === level);
    if (list.length === 0) continue;
    parts.push(`${level[0]!.toUpperCase()}${level.slice(1)} — ${LEVEL_MEANINGS[level]}:`);
    for (const e of list)
      parts.push(`- (similarity ${e.similarity.toFixed(2)}, ${e.support} example${e.support === 1 ? '' : 's'}) ${clip(e.text, PREDICT_LIMITS.entry)}`);
  }
  return parts.join('\n');
}

export function predictMessages(input: PredictPromptInput): ChatMessage[] {
  const { tool, scale, task, evidence } = input;
  const lines = [`Tool: ${describeTool(tool)}`, `Score scale: ${describeScale(scale)}.`];
  if (input.scaleMeaning) lines.push(`What the scores mean:\n${clipBlock(input.scaleMeaning, PROMPT_LIMITS.rubric)}`);
  lines.push('');
  if (evidence.kind === 'examples') lines.push(examplesBlock(evidence.examples, scale), '');
  else if (evidence.kind === 'entries') lines.push(entriesBlock(evidence.entries), '');
  lines.push(`New task: ${clip(task, PREDICT_LIMITS.task)}`);
  if (input.rubric) lines.push(`Rubric the output will be scored by:\n${clipBlock(input.rubric, PROMPT_LIMITS.rubric)}`);
  lines.push('', `What score will ${tool.name || tool.id} most likely get on this task? Reply with {"score": <number between ${scale.min} and ${scale.max}>}.`);
  return systemAndUser(SYSTEM, lines);
}
