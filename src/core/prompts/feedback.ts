/**
 * Prompt that writes the missing feedback of a scored example: why the output most likely earned
 * its score, given the task, the output (when text) and the rubric. Plain text, a few sentences.
 */
import type { ChatMessage } from '../llm/engine';
import type { ScoreScale } from '../types';
import { describeExperience, describeTool, type PromptExperience, type PromptTool } from './shared';

export interface FeedbackPromptInput {
  tool: PromptTool;
  scale: ScoreScale;
  experience: PromptExperience;
}

const SYSTEM = `You explain evaluation scores. You get a task, the output a tool produced (or a note that the output is an image you cannot see), the rubric if there is one, and the score a rater gave. In two to four sentences, say what most plausibly earned that score: what the task demanded, what the output got right, and what it likely missed or got wrong. Be specific to the task. Do not restate the score, and do not invent details of an output you cannot see — reason from what the task makes hard instead.`;

/** Longest feedback we ask for (tokens). */
export const FEEDBACK_MAX_TOKENS = 220;

export function feedbackMessages(input: FeedbackPromptInput): ChatMessage[] {
  const { feedback: _omit, feedbackGenerated: _g, ...experience } = input.experience;
  const user = [`Tool: ${describeTool(input.tool)}`, '', describeExperience(experience, input.scale), '', 'Explain this score.'].join('\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}
