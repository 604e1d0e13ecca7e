/**
 * Prompt that writes the missing feedback of a scored example: why the output most likely earned
 * its score, given the task, the output (when text), the rubric (when the data has one) and what
 * the scale's points mean (when the preset says). Plain text, a few sentences.
 */
import type { ChatMessage } from '../llm/engine';
import type { ScoreScale } from '../types';
import { clipBlock, describeExperience, describeTool, PROMPT_LIMITS, type PromptExperience, type PromptTool, systemAndUser } from './shared';

export interface FeedbackPromptInput {
  tool: PromptTool;
  scale: ScoreScale;
  experience: PromptExperience;
  /** What the scale's points mean (the dataset preset's words, scale-meanings.ts). */
  scaleMeaning?: string;
}

const SYSTEM =
  `You explain evaluation scores. You get a task, the output a tool produced (or a note that the output is an image you cannot see), ` +
  `the rubric if there is one, and the score a rater gave. In two to four sentences, say what most plausibly earned that score: ` +
  `what the task demanded, what the output got right, and what it likely missed or got wrong. Be specific to the task. Do not ` +
  `restate the score, and do not invent details of an output you cannot see — reason from what the task makes hard instead.

A ` +
  `worked example: for the task "a black cat asleep under a red umbrella", an image you cannot see, scored 2 of 5, a good ` +
  `answer is: "The prompt binds two colours to two objects and puts one under the other. The image most likely shows a cat and ` +
  `an umbrella but swaps or drops a colour, or loses the spatial relation; colour binding and 'under' are where such outputs ` +
  `usually fail."`;

/** Longest feedback we ask for (tokens). */
export const FEEDBACK_MAX_TOKENS = 220;

export function feedbackMessages(input: FeedbackPromptInput): ChatMessage[] {
  const { feedback: _omit, feedbackGenerated: _g, ...experience } = input.experience;
  const meaning = input.scaleMeaning ? ['', `What the scores mean:\n${clipBlock(input.scaleMeaning, PROMPT_LIMITS.rubric)}`] : [];
  return systemAndUser(SYSTEM, [`Tool: ${describeTool(input.tool)}`, ...meaning, '', describeExperience(experience, input.scale), '', 'Explain this score.']);
}
