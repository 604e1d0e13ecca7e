/**
 * The JSON API for routers and scripts: `POST /v1/predict` ({ tool, task }), `POST /v1/select`
 * ({ task, candidates, max_cost?, cost_weight?, max_latency_ms? }) and `POST /v1/recall` ({ tool,
 * task, k? }) answer exactly what the MCP tools predict_score, select_tool and recall answer (the same handlers), as plain JSON. Arguments that
 * fail the tools' checks → 400 `invalid_arguments`; a tool id the memory lacks → 404 `unknown_tool`.
 */
import { ToolArgumentError } from '../mcp/tool-args';
import type { ToolHandlers, ToolName } from '../mcp/server';
import { HttpError } from './http';

export const API_TOOLS: ReadonlyMap<string, ToolName> = new Map([
  ['/v1/predict', 'predict_score'],
  ['/v1/select', 'select_tool'],
  // What the memory says about a tool for a task, with the leaderboards and pick claims that apply (issue #34).
  ['/v1/recall', 'recall'],
]);

/** The answer's value, or an HttpError for the client. */
export async function apiAnswer(handlers: ToolHandlers, tool: ToolName, body: Record<string, unknown>): Promise<unknown> {
  let answer;
  try {
    answer = await handlers.call(tool, body);
  } catch (err) {
    if (err instanceof ToolArgumentError) throw new HttpError(400, 'invalid_request_error', 'invalid_arguments', err.message);
    throw err;
  }
  if ('error' in answer) throw new HttpError(404, 'not_found_error', 'unknown_tool', answer.error);
  return answer.value;
}
