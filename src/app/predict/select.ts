/**
 * The one predict-and-select use case: every candidate tool's score on a task from one predictor,
 * then the ranking under the user's margin, cost weight and hard limits (core `selectTool`). The
 * Predict page (through the predictors worker, `predictForTask`), the MCP server's `select_tool`
 * (stdio and HTTP), `/v1/select` and the router all select through this function.
 *
 * Candidates are predicted in their order, one after another: an LLM method makes one model call
 * per candidate and its engines take one request at a time. A candidate listed twice is predicted
 * twice and ranked twice, as `selectTool` ranks what it is given.
 */
import { dict, own } from '../../core/data-keys';
import { selectTool, type SelectOptions, type TaskSelection } from '../../core/predict/select';
import type { ScorePrediction } from '../../core/predict/types';

/** A tool to choose from, with what a call costs (US dollars) and takes (ms) when known. */
export interface CandidateTool {
  toolId: string;
  cost?: number;
  latencyMs?: number;
}

/** One candidate's predicted score (sync for the memory-file predictors, async for fitted and LLM methods). */
export type PredictTool = (toolId: string) => ScorePrediction | Promise<ScorePrediction>;

const isThenable = (v: unknown): v is PromiseLike<ScorePrediction> => typeof (v as { then?: unknown } | null)?.then === 'function';

export async function predictAndSelect(predict: PredictTool, candidates: readonly CandidateTool[], opts: SelectOptions = {}): Promise<TaskSelection> {
  // Keyed by candidate tool ids (data): null prototype, see core/data-keys.
  const predictions = dict<ScorePrediction>();
  const scored = [];
  for (const { toolId, cost, latencyMs } of candidates) {
    const got = predict(toolId);
    // A memory-file predictor answers at once: not awaited (an await is a microtask turn per candidate, on every select).
    const p = isThenable(got) ? await got : got;
    predictions[toolId] = p;
    scored.push({ toolId, score: p.score, ...(cost !== undefined ? { cost } : {}), ...(latencyMs !== undefined ? { latencyMs } : {}) });
  }
  return { ...selectTool(scored, opts), predictions };
}

/** Candidates with the costs and latencies the request gives for them (tool id → value, data keys). */
export function costedCandidates(
  toolIds: readonly string[],
  costs?: Readonly<Record<string, number>>,
  latencies?: Readonly<Record<string, number>>,
): CandidateTool[] {
  return toolIds.map((toolId) => {
    const [cost, latencyMs] = [own(costs, toolId), own(latencies, toolId)];
    return { toolId, ...(cost !== undefined ? { cost } : {}), ...(latencyMs !== undefined ? { latencyMs } : {}) };
  });
}
