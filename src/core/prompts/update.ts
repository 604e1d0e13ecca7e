/**
 * Prompt for the retrieval-refined memory update: the model sees the related entries (top k per
 * level, under aliases) and one scored example, and answers with a JSON list of operations.
 * The reply is validated by src/core/memory/operations.ts; the JSON Schema below is only used for
 * constrained decoding by engines that support it.
 */
import type { ChatMessage, JsonSchemaSpec } from '../llm/engine';
import { LEVELS, type ScoreScale } from '../types';
import { describeEntries, describeExperience, describeTool, levelGuide, MAX_ENTRY_CHARS, type PromptEntry, type PromptExperience, type PromptTool } from './shared';

export interface UpdatePromptInput {
  tool: PromptTool;
  scale: ScoreScale;
  entries: readonly PromptEntry[];
  experience: PromptExperience;
}

const SYSTEM = `You maintain a capability memory for one AI tool: short, general statements about what the tool does well or badly. Each entry sits at one level:
${levelGuide()}

You will see the entries most related to one new scored example of the tool's work, then the example. Revise the memory so that it also accounts for the example. Possible operations:
- add: record an insight that no shown entry covers;
- update: rewrite a shown entry (optionally moving it to another level) when the example sharpens or corrects it;
- merge: replace two or more shown entries that say the same thing by one;
- retire: drop a shown entry that the example clearly contradicts or that is redundant.

Rules:
- Write about kinds of tasks or features of tasks (subjects, composition, counting, spatial relations, text in images, style, reasoning, format…), never about this one example alone.
- One sentence per entry, at most ${MAX_ENTRY_CHARS} characters.
- Refer only to ids shown in the list (E1, E2, …). An id may appear in one operation at most.
- Change only what the example gives a reason to change. If nothing needs to change, return an empty list.

Answer with JSON only, in this shape:
{"operations": [
  {"op": "add", "level": "good", "text": "…"},
  {"op": "update", "id": "E2", "level": "bad", "text": "…"},
  {"op": "merge", "ids": ["E1", "E4"], "level": "good", "text": "…"},
  {"op": "retire", "id": "E3", "reason": "…"}
]}`;

export function updateMessages(input: UpdatePromptInput): ChatMessage[] {
  const user = [
    `Tool: ${describeTool(input.tool)}`,
    '',
    'Related memory entries:',
    describeEntries(input.entries),
    '',
    'New example:',
    describeExperience(input.experience, input.scale),
    '',
    'Return the operations as JSON.',
  ].join('\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
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
