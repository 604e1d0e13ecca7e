/**
 * One experience through the LLM, for one tool (the method's steps 1–3 plus critiques):
 *  1. missing feedback is written by the model (marked generated);
 *  2. the top k valid entries of EACH level most similar to the experience are retrieved;
 *  3. the model proposes operations on them; each is validated on its own (operations.ts): the
 *     valid ones are used, the invalid ones reported in `rejected`; a reply with no valid
 *     operation is asked again once with the reasons; an `add` repeating any valid entry of the
 *     tool becomes an update of it (dedup.ts);
 *  4. a low-scoring experience is distilled into a critique (bad/weak, origin `critique`). A
 *     critique that stays invalid is reported (`critiqueError`) and does NOT discard the update.
 * Returns a plan for ONE atomic applyUpdate, or `skipped` when the update reply stayed unusable —
 * in which case nothing of this experience reaches the memory. Pure apart from engine and embedder.
 */
import type { LlmEngine } from '../llm/engine';
import { CRITIQUE_JSON_SCHEMA, critiqueMessages } from '../prompts/critique';
import { FEEDBACK_MAX_TOKENS, feedbackMessages } from '../prompts/feedback';
import type { PromptEntry, PromptExperience, PromptTool } from '../prompts/shared';
import { updateJsonSchema, updateMessages, type UpdateContext } from '../prompts/update';
import type { Experience, ScoreScale } from '../types';
import type { InduceSettings } from './build-config';
import { askParsed, type Usage } from './ask';
import type { EntryIndex } from './entry-index';
import { cosine } from '../embed';
import { dedupAdds, DUPLICATE_SIMILARITY, repeatedEntry } from './dedup';
import { parseCritique, parseOperations, type Operation, type RejectedOperation } from './operations';
import { newEntry, planOperations, refinedClaim, type UpdatePlan } from './plan';

export type { InduceSettings };

export const DEFAULT_INDUCE_SETTINGS: InduceSettings = {
  k: 6,
  feedback: true,
  critiqueBelow: 0.25,
  maxTokens: { update: 700, critique: 200 },
};

export interface InduceInput {
  memoryId: string;
  tool: PromptTool;
  scale: ScoreScale;
  experience: Experience;
  at: number;
  newId: () => string;
  settings: InduceSettings;
  signal?: AbortSignal;
  /** The example's standing (tool mean, other tools on the task, facet effects): update-context.ts. */
  context?: UpdateContext;
  /** What the scale's points mean (the dataset preset's words), for the feedback and update prompts. */
  scaleMeaning?: string;
}

/**
 * `rejected`: operations of the used update reply that were not applied, with the reason (index =
 * place in that reply); `critiqueError`: why no critique was stored although one was asked for.
 */
export type InduceOutcome =
  | {
      status: 'applied';
      plan: UpdatePlan;
      operations: Operation[];
      rejected: RejectedOperation[];
      critique: boolean;
      critiqueError?: string;
      feedback?: string;
      updatePromptTokens: number;
      contextSize: number;
    }
  | { status: 'skipped'; error: string; rejected: RejectedOperation[]; feedback?: string; updatePromptTokens: number; contextSize: number };

/** 0 = worst, 1 = best, whatever the direction of the scale. */
export function normalisedScore(score: number, scale: ScoreScale): number {
  const x = (score - scale.min) / (scale.max - scale.min || 1);
  return scale.direction === 'higher-better' ? x : 1 - x;
}

/** Text embedded to find related entries: the task, and the feedback when there is one. */
export function experienceQuery(e: Pick<Experience, 'prompt' | 'feedback'>): string {
  return e.feedback ? `${e.prompt}\n${e.feedback.slice(0, 600)}` : e.prompt;
}

export async function induceExperience(engine: LlmEngine, index: EntryIndex, input: InduceInput, usage: Usage): Promise<InduceOutcome> {
  const { experience: e, settings, signal } = input;
  const view = promptView(input);
  const base = { tool: input.tool, scale: input.scale };
  const meaning = input.scaleMeaning ? { scaleMeaning: input.scaleMeaning } : {};
  // Step 1: only when the experience has none; the written feedback is marked generated in the prompts.
  const feedback = !e.feedback && settings.feedback ? await writeFeedback(engine, { ...base, ...meaning, experience: view }, usage, signal) : undefined;
  if (feedback) Object.assign(view, { feedback, feedbackGenerated: true });
  const withFeedback = feedback ? { feedback } : {};

  const [query] = await index.embed([experienceQuery({ prompt: e.prompt, feedback: view.feedback })], signal);
  const context = index.retrieve(query!, e.toolId, settings.k);
  const byAlias = new Map(context.map((r, i) => [`E${i + 1}`, r.entry]));
  const shown: PromptEntry[] = [...byAlias].map(([alias, entry]) => ({ alias, level: entry.level, text: entry.text, support: entry.support }));
  const pinned = new Set([...byAlias].filter(([, entry]) => entry.pinned).map(([alias]) => alias));

  let lastRejected: RejectedOperation[] = [];
  const update = await askParsed(
    engine,
    updateMessages({ ...base, ...meaning, entries: shown, experience: view, ...(input.context ? { context: input.context } : {}) }),
    (text) => {
      const r = parseOperations(text, { aliases: new Set(byAlias.keys()), pinned });
      lastRejected = r.rejected;
      return r.ok ? { ok: true, value: r } : r;
    },
    { jsonSchema: updateJsonSchema([...byAlias.keys()]), maxTokens: settings.maxTokens.update, usage, ...(signal ? { signal } : {}) },
  );
  const sizes = { updatePromptTokens: update.firstPromptTokens, contextSize: context.length };
  if (!update.result.ok) return { status: 'skipped', error: `update: ${update.result.error}`, rejected: lastRejected, ...sizes, ...withFeedback };

  const parsed = update.result.value;
  const deduped = await dedupAdds(parsed.operations, parsed.positions, { toolId: e.toolId, index, shown: byAlias, ...(signal ? { signal } : {}) });
  const rejected = [...parsed.rejected, ...deduped.rejected].sort((a, b) => a.index - b.index);
  const operations = deduped.operations;
  const entries = new Map([...byAlias, ...deduped.extra]);
  const plan = planOperations(operations, { memoryId: input.memoryId, toolId: e.toolId, at: input.at, experienceId: e.id, entries, newId: input.newId });
  const { critique, critiqueError } =
    settings.critiqueBelow !== null && normalisedScore(e.score, input.scale) <= settings.critiqueBelow
      ? await critiqueInto(plan, engine, index, input, shown, view, usage)
      : { critique: false, critiqueError: undefined };
  return { status: 'applied', plan, operations, rejected, critique, ...(critiqueError ? { critiqueError } : {}), ...sizes, ...withFeedback };
}

/** The experience as the prompts show it (a text→image tool's experiences are images even without a stored one). */
function promptView(input: InduceInput): PromptExperience {
  const e = input.experience;
  return {
    prompt: e.prompt,
    score: e.score,
    image: e.imageId !== undefined || input.tool.modality === 'text→image',
    ...(e.response !== undefined ? { response: e.response } : {}),
    ...(e.rubric !== undefined ? { rubric: e.rubric } : {}),
    ...(e.feedback ? { feedback: e.feedback, feedbackGenerated: e.feedbackGenerated === true } : {}),
  };
}

/** Step 1: the model's feedback on the experience (one call, counted in `usage`); empty text when it wrote none. */
async function writeFeedback(engine: LlmEngine, args: Parameters<typeof feedbackMessages>[0], usage: Usage, signal?: AbortSignal): Promise<string> {
  const reply = await engine.chat(feedbackMessages(args), {
    temperature: 0,
    maxTokens: FEEDBACK_MAX_TOKENS,
    ...(signal ? { signal } : {}),
  });
  usage.calls++;
  usage.promptTokens += reply.promptTokens;
  usage.completionTokens += reply.completionTokens;
  return reply.text.trim();
}

/**
 * Step 4: a low-scoring experience distilled into a critique added to `plan` (shown the bad and weak
 * entries only). A critique that stays invalid is reported in `critiqueError` and leaves the plan as it was.
 */
async function critiqueInto(
  plan: UpdatePlan,
  engine: LlmEngine,
  index: EntryIndex,
  input: InduceInput,
  shown: readonly PromptEntry[],
  view: PromptExperience,
  usage: Usage,
): Promise<{ critique: boolean; critiqueError: string | undefined }> {
  const { experience: e, settings, signal } = input;
  const weakOnes = shown.filter((s) => s.level === 'bad' || s.level === 'weak');
  const c = await askParsed(
    engine,
    critiqueMessages({ tool: input.tool, scale: input.scale, entries: weakOnes, experience: view }),
    (text) => {
      const r = parseCritique(text);
      return r.ok ? { ok: true, value: r.critique } : r;
    },
    { jsonSchema: CRITIQUE_JSON_SCHEMA, maxTokens: settings.maxTokens.critique, usage, ...(signal ? { signal } : {}) },
  );
  if (!c.result.ok) return { critique: false, critiqueError: `critique: ${c.result.error}` };
  if (!c.result.value) return { critique: false, critiqueError: undefined };
  const r = await addCritique(plan, c.result.value, {
    index,
    toolId: e.toolId,
    memoryId: input.memoryId,
    experienceId: e.id,
    at: input.at,
    newId: input.newId,
    ...(signal ? { signal } : {}),
  });
  return { critique: r === null, critiqueError: r !== null ? `critique: ${r}` : undefined };
}

interface CritiqueContext {
  index: EntryIndex;
  toolId: string;
  memoryId: string;
  experienceId: string;
  at: number;
  newId: () => string;
  signal?: AbortSignal;
}

/**
 * Adds the critique to `plan`, or makes it an update of the valid entry it repeats (dedup.ts);
 * returns why it was left out instead (it repeats what this step adds, or an entry that is
 * pinned or already changed by this step), or null when it is in the plan.
 */
async function addCritique(plan: UpdatePlan, c: { level: 'bad' | 'weak'; text: string }, ctx: CritiqueContext): Promise<string | null> {
  const [vector, ...added] = await ctx.index.embed([c.text, ...plan.added.map((a) => a.text)], ctx.signal);
  if (added.some((v) => cosine(v, vector!) >= DUPLICATE_SIMILARITY)) return 'repeats an entry this update adds; not added';
  const base = { memoryId: ctx.memoryId, toolId: ctx.toolId, at: ctx.at, origin: 'critique' as const, level: c.level, text: c.text };
  const hit = repeatedEntry(ctx.index, vector!, ctx.toolId);
  if (!hit) {
    plan.added.push(newEntry({ ...base, id: ctx.newId(), evidence: [ctx.experienceId] }));
    return null;
  }
  if (hit.entry.pinned) return 'repeats a pinned entry; not added';
  if (plan.superseded.some((s) => s.id === hit.entry.id)) return 'repeats an entry this update already changes; not added';
  const id = ctx.newId();
  plan.superseded.push({ id: hit.entry.id, supersededBy: id });
  plan.added.push(newEntry({ ...base, id, evidence: [...hit.entry.evidence, ctx.experienceId], ...refinedClaim(hit.entry, c.level) }));
  return null;
}
