/**
 * The language-model side of `toolmem eval` (issue #17): reading `--llm` / `--llm-tasks`, the
 * tools as the prompts show them, and the `llm` stats added to the JSON summary and the text report.
 * The evaluation itself, a run stopped by Ctrl-C included, is the shared use case
 * (src/app/evaluate/run-evaluation.ts), the one the app's predictors worker runs.
 */
import { llmTotals, type LlmMethodTotals } from '../app/evaluate/methods';
import { own } from '../core/data-keys';
import { table, type EvalReport, type JsonReport } from '../core/eval';
import { isBrowserEngine, isNoEngine, type EngineSpec } from '../core/llm';
import type { PromptTool } from '../core/prompts/shared';
import type { Modality } from '../core/types';
import { quote } from '../core/text/quote';
import { UsageError } from './io';
import { parseLlmArg } from './llm-arg';

/** `--llm-tasks`: a whole number ≥ 1, or `all` (every test task of each split). */
export function parseLlmTasks(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const t = text.trim().toLowerCase();
  if (t === 'all') return Number.POSITIVE_INFINITY;
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--llm-tasks must be a whole number ≥ 1 or 'all', got ${quote(text)}.`);
  return n;
}

/** `--llm` of `toolmem eval`: an engine spec the CLI can run (an OpenAI-compatible endpoint). */
export function checkLlmSpec(text: string): EngineSpec {
  return parseLlmArg(text, (spec) => {
    if (isNoEngine(spec)) return '--llm none runs no model; give openai:URL#MODEL (e.g. openai:http://localhost:11434/v1#qwen2.5:7b) or leave --llm out.';
    if (isBrowserEngine(spec)) return `--llm: ${quote(text)} runs only in the browser app; the CLI takes openai:URL#MODEL (a llama.cpp or Ollama server).`;
    return null;
  });
}

/** The tools as the app shows them to a model after an import: name = id, the preset's modality, no description. */
export function promptToolsOf(toolIds: readonly string[], modality: Modality): Map<string, PromptTool> {
  return new Map(toolIds.map((id) => [id, { id, name: id, modality, description: '' }]));
}

export interface JsonLlmStats {
  calls: number;
  parseFailures: number;
  outOfRange: number;
  promptTokens: number;
  completionTokens: number;
  /** Test tasks each seed's split scored for this method (the --llm-tasks cap). */
  testTasks: number;
}

/** The JSON summary with each LLM method's `llm` stats (summed over seeds) added to its entry. */
export function withLlmStats<T extends JsonReport>(json: T, report: EvalReport): T {
  const totals = llmTotals(report);
  if (!totals) return json;
  for (const m of report.methods) {
    const t: LlmMethodTotals | undefined = own(totals, m);
    const entry = own(json.methods, m);
    if (t && entry)
      Object.assign(entry, {
        llm: {
          calls: t.calls,
          parseFailures: t.parseFailures,
          outOfRange: t.outOfRange,
          promptTokens: t.promptTokens,
          completionTokens: t.completionTokens,
          testTasks: t.testTasks,
        } satisfies JsonLlmStats,
      });
  }
  return json;
}

/** The text table of the LLM methods' model usage (nothing when none ran). */
export function formatLlmStats(report: EvalReport): string | null {
  const totals = llmTotals(report);
  if (!totals) return null;
  const rows = report.methods.flatMap((m) => {
    const t = own(totals, m);
    return t
      ? [[m, String(t.testTasks), String(t.calls), String(t.parseFailures), String(t.outOfRange), String(t.promptTokens), String(t.completionTokens)]]
      : [];
  });
  return (
    `Language-model calls (summed over seeds; an unreadable reply counts as a parse failure and falls back to the tool's training ` +
    `mean)\n${table(['method', 'test tasks / seed', 'calls', 'parse failures', 'off-scale', 'prompt tokens', 'completion tokens'], rows)}`
  );
}
