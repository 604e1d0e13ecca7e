/**
 * One experience through the LLM, for one tool (the method's steps 1–3 plus critiques):
 *  1. missing feedback is written by the model (marked generated);
 *  2. the top k valid entries of EACH level most similar to the experience are retrieved;
 *  3. the model proposes operations on them; they are validated (one retry with the reason);
 *  4. a low-scoring experience is distilled into a critique (bad/weak, origin `critique`).
 * Returns a plan for ONE atomic applyUpdate, or `skipped` when a reply stayed invalid — in which
 * case nothing of this experience reaches the memory. Pure apart from the engine and embedder.
 */
import type { LlmEngine } from '../llm/engine';
import { CRITIQUE_JSON_SCHEMA, critiqueMessages } from '../prompts/critique';
import { FEEDBACK_MAX_TOKENS, feedbackMessages } from '../prompts/feedback';
import type { PromptEntry, PromptExperience, PromptTool } from '../prompts/shared';
import { updateJsonSchema, updateMessages } from '../prompts/update';
import type { Experience, ScoreScale } from '../types';
import { askParsed, type Usage } from './ask';
import type { EntryIndex } from './entry-index';
import { parseCritique, parseOperations, type Operation } from './operations';
import { newEntry, planOperations, type UpdatePlan } from './plan';

export interface InduceSettings {
  /** Entries retrieved per level (paper: 6). */
  k: number;
  /** Write feedback for experiences that have none. */
  feedback: boolean;
  /** Distil critiques from experiences whose normalised score (0 worst … 1 best) is ≤ this; null = never. */
  critiqueBelow: number | null;
  maxTokens: { update: number; critique: number };
}

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
}

export type InduceOutcome =
  | { status: 'applied'; plan: UpdatePlan; operations: Operation[]; critique: boolean; feedback?: string; updatePromptTokens: number; contextSize: number }
  | { status: 'skipped'; error: string; feedback?: string; updatePromptTokens: number; contextSize: number };

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
  const view: PromptExperience = {
    prompt: e.prompt,
    score: e.score,
    image: e.imageId !== undefined || input.tool.modality === 'text→image',
    ...(e.response !== undefined ? { response: e.response } : {}),
    ...(e.rubric !== undefined ? { rubric: e.rubric } : {}),
    ...(e.feedback ? { feedback: e.feedback, feedbackGenerated: e.feedbackGenerated === true } : {}),
  };
  const base = { tool: input.tool, scale: input.scale };

  let feedback: string | undefined;
  if (!e.feedback && settings.feedback) {
    const reply = await engine.chat(feedbackMessages({ ...base, experience: view }), { temperature: 0, maxTokens: FEEDBACK_MAX_TOKENS, ...(signal ? { signal } : {}) });
    usage.calls++;
    usage.promptTokens += reply.promptTokens;
    usage.completionTokens += reply.completionTokens;
    feedback = reply.text.trim();
    if (feedback) Object.assign(view, { feedback, feedbackGenerated: true });
  }
  const withFeedback = feedback ? { feedback } : {};

  const [query] = await index.embed([experienceQuery({ prompt: e.prompt, feedback: view.feedback })], signal);
  const context = index.retrieve(query!, e.toolId, settings.k);
  const byAlias = new Map(context.map((r, i) => [`E${i + 1}`, r.entry]));
  const shown: PromptEntry[] = [...byAlias].map(([alias, entry]) => ({ alias, level: entry.level, text: entry.text, support: entry.support }));
  const pinned = new Set([...byAlias].filter(([, entry]) => entry.pinned).map(([alias]) => alias));

  const update = await askParsed(
    engine,
    updateMessages({ ...base, entries: shown, experience: view }),
    (text) => {
      const r = parseOperations(text, { aliases: new Set(byAlias.keys()), pinned });
      return r.ok ? { ok: true, value: r.operations } : r;
    },
    { jsonSchema: updateJsonSchema([...byAlias.keys()]), maxTokens: settings.maxTokens.update, usage, ...(signal ? { signal } : {}) },
  );
  const sizes = { updatePromptTokens: update.firstPromptTokens, contextSize: context.length };
  if (!update.result.ok) return { status: 'skipped', error: `update: ${update.result.error}`, ...sizes, ...withFeedback };

  const operations = update.result.value;
  const plan = planOperations(operations, { memoryId: input.memoryId, toolId: e.toolId, at: input.at, experienceId: e.id, entries: byAlias, newId: input.newId });

  let critique = false;
  if (settings.critiqueBelow !== null && normalisedScore(e.score, input.scale) <= settings.critiqueBelow) {
    const weakOnes = shown.filter((s) => s.level === 'bad' || s.level === 'weak');
    const c = await askParsed(engine, critiqueMessages({ ...base, entries: weakOnes, experience: view }), (text) => {
      const r = parseCritique(text);
      return r.ok ? { ok: true, value: r.critique } : r;
    }, { jsonSchema: CRITIQUE_JSON_SCHEMA, maxTokens: settings.maxTokens.critique, usage, ...(signal ? { signal } : {}) });
    if (!c.result.ok) return { status: 'skipped', error: `critique: ${c.result.error}`, ...sizes, ...withFeedback };
    if (c.result.value) {
      critique = true;
      plan.added.push(newEntry({ id: input.newId(), memoryId: input.memoryId, toolId: e.toolId, level: c.result.value.level, text: c.result.value.text, evidence: [e.id], origin: 'critique', at: input.at }));
    }
  }
  return { status: 'applied', plan, operations, critique, ...sizes, ...withFeedback };
}
