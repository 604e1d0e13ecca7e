/**
 * Prompt that distils a poorly scored example into a critique: what went wrong, as a general
 * lesson about that kind of task (stored as a `bad` or `weak` entry with origin `critique`).
 * The model sees the related bad/weak entries so it can decline when one already says it.
 */
import type { ChatMessage, JsonSchemaSpec } from '../llm/engine';
import type { ScoreScale } from '../types';
import {
  describeEntries,
  describeExperience,
  describeTool,
  MAX_ENTRY_CHARS,
  type PromptEntry,
  type PromptExperience,
  type PromptTool,
  systemAndUser,
} from './shared';

export interface CritiquePromptInput {
  tool: PromptTool;
  scale: ScoreScale;
  /** Related bad/weak entries (already clipped to k per level). */
  entries: readonly PromptEntry[];
  experience: PromptExperience;
}

const SYSTEM =
  `You study the failures of one AI tool. Given an example that scored near the bottom of the scale, write one critique: what went ` +
  `wrong and what kind of task to be careful with, stated as a general lesson someone could use when deciding whether to give ` +
  `this tool a similar task.
- Level "weak" when the tool failed outright, "bad" when it fell short in part.
- One sentence, at ` +
  `most ${MAX_ENTRY_CHARS} characters, about the kind of task (not this one example).
- If one of the listed entries already ` +
  `states this lesson, answer {"critique": null}.

Answer with JSON only: {"critique": {"level": "bad", "text": "…"}} or ` +
  `{"critique": null}`;

export function critiqueMessages(input: CritiquePromptInput): ChatMessage[] {
  return systemAndUser(SYSTEM, [
    `Tool: ${describeTool(input.tool)}`,
    '',
    'Known weaknesses related to this example:',
    describeEntries(input.entries),
    '',
    'Poorly scored example:',
    describeExperience(input.experience, input.scale),
    '',
    'Return the critique as JSON.',
  ]);
}

export const CRITIQUE_JSON_SCHEMA: JsonSchemaSpec = {
  name: 'critique',
  schema: {
    type: 'object',
    properties: {
      critique: {
        anyOf: [
          {
            type: 'object',
            properties: { level: { type: 'string', enum: ['bad', 'weak'] }, text: { type: 'string' } },
            required: ['level', 'text'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
    },
    required: ['critique'],
    additionalProperties: false,
  },
};
