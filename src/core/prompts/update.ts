/**
 * Prompt for the retrieval-refined memory update: the model sees the related entries (top k per
 * level, under aliases) and one scored example, and answers with a JSON list of operations. When
 * known, the example's standing comes with it: the tool's mean, the other tools' scores on the same
 * task and the tool's measured facet effects on the task (describeContext).
 * The reply is validated by src/core/memory/operations.ts; the JSON Schema below is only used for
 * constrained decoding by engines that support it.
 */
import type { ChatMessage, JsonSchemaSpec } from '../llm/engine';
import { LEVELS, type ScoreScale } from '../types';
import {
  clip,
  clipBlock,
  describeEntries,
  describeExperience,
  describeTool,
  levelGuide,
  MAX_ENTRY_CHARS,
  PROMPT_LIMITS,
  type PromptEntry,
  type PromptExperience,
  type PromptTool,
  systemAndUser,
} from './shared';

export interface UpdatePromptInput {
  tool: PromptTool;
  scale: ScoreScale;
  entries: readonly PromptEntry[];
  experience: PromptExperience;
  /** Where the example stands (tool mean, other tools on the task, facet effects), when known. */
  context?: UpdateContext;
  /** What the scale's points mean (the dataset preset's words). */
  scaleMeaning?: string;
}

/** One capability effect of the tool on a facet the example's task has (positive = better). */
export interface UpdateEffect {
  facet: string;
  /** Score points vs the tool's own mean on tasks without the facet… (deltaOwn of the analysis). */
  deltaOwn: number;
  /** …and vs the other tools on the same tasks (null with one tool). */
  deltaVsOthers: number | null;
  /** Tasks behind the effect. */
  n: number;
}

/**
 * What lets a model tell "bad for this tool" from "hard for every tool": the tool's own mean, the
 * other tools' scores on the same task, and the tool's measured effects on the task's facets.
 */
export interface UpdateContext {
  toolMean?: { mean: number; n: number };
  others?: readonly { toolId: string; score: number }[];
  effects?: readonly UpdateEffect[];
}

/** Other tools and effects shown at most (the prompt's size stays bounded). */
export const UPDATE_CONTEXT_LIMITS = { others: 12, effects: 8 } as const;

const SYSTEM =
  `You maintain a capability memory for one AI tool: short, general statements about what the tool does well or badly. Each entry sits ` +
  `at one level:
${levelGuide()}

You will see the entries most related to one new scored example of the tool's work, then the ` +
  `example. Revise the memory so that it also accounts for the example. Possible operations:
- add: record an insight that no ` +
  `shown entry covers;
- update: rewrite a shown entry (optionally moving it to another level) when the example sharpens or ` +
  `corrects it;
- merge: replace two or more shown entries that say the same thing by one;
- retire: drop a shown entry that ` +
  `the example clearly contradicts or that is redundant.

Rules:
- Write about kinds of tasks or features of tasks (subjects, ` +
  `composition, counting, spatial relations, text in images, style, reasoning, format…), never about this one example alone.
- ` +
  `One sentence per entry, at most ${MAX_ENTRY_CHARS} characters.
- Refer only to ids shown in the list (E1, E2, …). An id may ` +
  `appear in one operation at most.
- Change only what the example gives a reason to change. If nothing needs to change, return ` +
  `an empty list.
- Use the comparison when it is given: a score far below the tool's own mean and below the other tools on the ` +
  `same task says something about this tool; a low score that every tool shares says the task is hard, which is not this tool's ` +
  `weakness. A measured effect on one of the task's facets is stronger evidence than one example.

A worked example: the tool's ` +
  `mean is 4.1, this example scored 2, the other tools scored 4 and 5 on the same task, and the task asks for an exact count, ` +
  `where the tool measures 0.9 points below its own mean. The low score is the tool's own, so sharpen or add a bad entry about ` +
  `counting ({"op": "add", "level": "bad", "text": "Often gets the number of objects wrong when a prompt asks for an exact ` +
  `count."}). Had every tool scored 2, the task was simply hard, and an empty list would be right.

Answer with JSON only, in ` +
  `this shape:
{"operations": [
  {"op": "add", "level": "good", "text": "…"},
  {"op": "update", "id": "E2", "level": "bad", ` +
  `"text": "…"},
  {"op": "merge", "ids": ["E1", "E4"], "level": "good", "text": "…"},
  {"op": "retire", "id": "E3", "reason": ` +
  `"…"}
]}`;

const points = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** "1.42 better" / "0.80 worse" / "about the same" (deltas are oriented: positive = better). */
function versus(delta: number, scale: ScoreScale): string {
  if (Math.abs(delta) < 0.05 * (scale.max - scale.min || 1)) return 'about the same as';
  return `${points(Math.abs(delta))} ${delta > 0 ? 'better than' : 'worse than'}`;
}

/** The comparison block of the update prompt ('' when nothing is known). */
export function describeContext(context: UpdateContext | undefined, score: number, scale: ScoreScale): string {
  if (!context) return '';
  const sign = scale.direction === 'higher-better' ? 1 : -1;
  const lines: string[] = [];
  if (context.toolMean && context.toolMean.n > 0) {
    const { mean, n } = context.toolMean;
    lines.push(
      `- This tool's mean score: ${points(mean)} over ${n} example${n === 1 ? '' : 's'}; this example is ${versus(sign * (score - mean), scale)} that mean.`,
    );
  }
  const others = (context.others ?? []).slice(0, UPDATE_CONTEXT_LIMITS.others);
  if (others.length) {
    const mean = others.reduce((a, o) => a + o.score, 0) / others.length;
    const better = others.filter((o) => sign * (o.score - score) > 0).length;
    lines.push(
      `- Other tools on the same task: ${others.map((o) => `${clip(o.toolId, 40)} ${points(o.score)}`).join(', ')}. This example ` +
        `ranks ${better + 1} of ${others.length + 1} and is ${versus(sign * (score - mean), scale)} their mean (${points(mean)}).`,
    );
  }
  const effects = (context.effects ?? []).slice(0, UPDATE_CONTEXT_LIMITS.effects);
  if (effects.length) {
    lines.push('- Measured effects of this tool on facets this task has (capability analysis of its training data; score points, positive = better):');
    for (const e of effects) {
      const vs = e.deltaVsOthers === null ? '' : `; ${versus(e.deltaVsOthers, scale)} the other tools there`;
      lines.push(`  - ${clip(e.facet, 80)}: ${versus(e.deltaOwn, scale)} its own mean on such tasks${vs} (n = ${e.n})`);
    }
  }
  return lines.length ? ['How this example compares:', ...lines].join('\n') : '';
}

export function updateMessages(input: UpdatePromptInput): ChatMessage[] {
  const comparison = describeContext(input.context, input.experience.score, input.scale);
  return systemAndUser(SYSTEM, [
    `Tool: ${describeTool(input.tool)}`,
    ...(input.scaleMeaning ? ['', `What the scores mean:\n${clipBlock(input.scaleMeaning, PROMPT_LIMITS.rubric)}`] : []),
    '',
    'Related memory entries:',
    describeEntries(input.entries),
    '',
    'New example:',
    describeExperience(input.experience, input.scale),
    ...(comparison ? ['', comparison] : []),
    '',
    'Return the operations as JSON.',
  ]);
}

/**
 * JSON Schema of the reply, with the ids limited to the aliases shown. Length limits are left to
 * validation (OpenAI's strict mode rejects minLength/maxLength/minItems); enums and consts are kept.
 */
export function updateJsonSchema(aliases: readonly string[]): JsonSchemaSpec {
  const level = { type: 'string', enum: [...LEVELS] };
  const text = { type: 'string' };
  const id = { type: 'string', enum: [...aliases] };
  const obj = (props: Record<string, unknown>) => ({ type: 'object', properties: props, required: Object.keys(props), additionalProperties: false });
  const variants: unknown[] = [obj({ op: { const: 'add' }, level, text })];
  if (aliases.length > 0) {
    variants.push(
      obj({ op: { const: 'update' }, id, level: { anyOf: [level, { type: 'null' }] }, text }),
      obj({ op: { const: 'retire' }, id, reason: { type: 'string' } }),
    );
  }
  if (aliases.length > 1) variants.push(obj({ op: { const: 'merge' }, ids: { type: 'array', items: id }, level, text }));
  return {
    name: 'memory_update',
    schema: obj({ operations: { type: 'array', items: { anyOf: variants } } }),
  };
}
