/**
 * `/v1/chat/completions`, an OpenAI-compatible router: the request's `model` names a route of the
 * route file (`toolmem:auto`: every routed tool), the memory's select_tool — the same handler as
 * MCP and /v1/select, with the route's max_cost / cost_weight and the route file's prices — ranks
 * the route's tools for the last user message, and the request goes to the best one's upstream
 * with `model` replaced by the upstream's model id, streamed or not as the client asked. The pick
 * and its reason travel in `x-toolmem-tool` / `x-toolmem-reason` (and a `toolmem` field of a
 * non-streamed JSON answer). An upstream failure (see UpstreamFailure) falls back to the next tool
 * when the route allows it; when none is left the answer is 502, naming each upstream tried.
 * An upstream's own 4xx (other than 429) is the request's fault and is passed through as it is.
 */
import type { ServerResponse } from 'node:http';
import type { ToolHandlers } from '../mcp/server';
import { quote } from '../../core/text/quote';
import { apiAnswer } from './api';
import { headerValue, HttpError, sendJson } from './http';
import type { RouteTable } from './routes';
import { discard, postChat, readUpstreamJson, UpstreamFailure } from './upstream';

interface Ranked {
  tool: string;
  score: number;
  utility?: number;
}
interface Selection {
  choice: string | null;
  ranked: Ranked[];
  excluded?: { tool: string; reason: string }[];
}

export interface RouterContext {
  table: RouteTable;
  /** select_tool of the memory with the route file's prices. */
  handlers: ToolHandlers;
  /** Headers every answer carries (the memory version). */
  headers: Readonly<Record<string, string>>;
  deadline: AbortSignal;
}

/** The last user message's text (string content, or the text parts of an array), or null. */
export function lastUserText(messages: unknown): string | null {
  if (!Array.isArray(messages)) return null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m: unknown = messages[i];
    if (m === null || typeof m !== 'object' || (m as { role?: unknown }).role !== 'user') continue;
    const content = (m as { content?: unknown }).content;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      const parts = content.filter(
        (p): p is { text: string } =>
          p !== null && typeof p === 'object' && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string',
      );
      return parts.length ? parts.map((p) => p.text).join('\n') : null;
    }
    return null;
  }
  return null;
}

const fmt = (x: number) => String(Math.round(x * 1000) / 1000);

function reasonOf(sel: Selection, r: Ranked, index: number, failed: string[]): string {
  const n = sel.ranked.length;
  const measure = r.utility !== undefined ? `utility ${fmt(r.utility)} (score ${fmt(r.score)})` : `predicted score ${fmt(r.score)}`;
  const rank = index === 0 ? (sel.choice === null && n > 1 ? `tied best ${measure}` : `best ${measure}`) : `next best ${measure}`;
  const excluded = sel.excluded?.length ? `; ${sel.excluded.length} excluded (${sel.excluded.map((e) => `${e.tool}: ${e.reason}`).join(', ')})` : '';
  const after = failed.length ? `${failed.join('; ')}; ` : '';
  return `${after}${rank} of ${n} candidate${n === 1 ? '' : 's'}${excluded}`;
}

/** Answers one chat request; returns the task and the tool used, for the log. */
export async function handleChat(res: ServerResponse, body: Record<string, unknown>, ctx: RouterContext): Promise<{ task: string; tool?: string }> {
  const name = body.model;
  if (typeof name !== 'string') throw new HttpError(400, 'invalid_request_error', 'invalid_model', "'model' must be a string naming a route.");
  const route = ctx.table.routes.get(name);
  if (!route)
    throw new HttpError(
      404,
      'not_found_error',
      'model_not_found',
      `Unknown model ${quote(name, 80)}: this router serves ${[...ctx.table.routes.keys()].map((r) => quote(r, 60)).join(', ')}.`,
    );
  const task = lastUserText(body.messages);
  if (task === null || task.trim() === '')
    throw new HttpError(
      400,
      'invalid_request_error',
      'no_user_message',
      "'messages' must hold a user message with text: the router picks the tool for the last one.",
    );
  const args = {
    task,
    candidates: route.tools,
    ...(route.maxCost !== undefined ? { max_cost: route.maxCost } : {}),
    ...(route.costWeight !== undefined ? { cost_weight: route.costWeight } : {}),
  };
  const sel = (await apiAnswer(ctx.handlers, 'select_tool', args)) as Selection;
  if (sel.ranked.length === 0)
    throw new HttpError(
      422,
      'invalid_request_error',
      'no_tool_fits',
      `No tool of route ${quote(name, 60)} fits its limits: ${(sel.excluded ?? []).map((e) => `${e.tool}: ${e.reason}`).join(', ')}.`,
    );
  const tries = route.fallback ? sel.ranked : sel.ranked.slice(0, 1);
  const stream = body.stream === true;
  const failed: string[] = [];
  for (const [i, r] of tries.entries()) {
    const up = ctx.table.upstreams.get(r.tool)!;
    const named = `upstream ${quote(r.tool, 60)} (${up.baseUrl})`;
    const reason = reasonOf(sel, r, i, failed);
    const headers = { ...ctx.headers, 'x-toolmem-tool': headerValue(r.tool), 'x-toolmem-reason': headerValue(reason) };
    try {
      const answer = await postChat(up, JSON.stringify({ ...body, model: up.model }), ctx.deadline);
      const status = answer.statusCode ?? 502;
      if (status >= 500 || status === 429) {
        discard(answer);
        throw new UpstreamFailure(`answered ${status}`);
      }
      const type = String(answer.headers['content-type'] ?? '');
      if (stream && status < 300 && type.startsWith('text/event-stream')) {
        res.writeHead(status, { ...headers, 'content-type': type, 'cache-control': 'no-store' });
        answer.on('error', () => res.destroy());
        res.on('close', () => answer.destroy());
        answer.pipe(res);
        return { task, tool: r.tool };
      }
      const json = await readUpstreamJson(answer);
      const toolmem = { route: name, tool: r.tool, reason, score: r.score, memory: ctx.headers['x-toolmem-memory'], ...(failed.length ? { failed } : {}) };
      sendJson(res, status, status < 300 ? { ...json, toolmem } : json, headers);
      return { task, tool: r.tool };
    } catch (err) {
      if (!(err instanceof UpstreamFailure)) throw err;
      failed.push(`${named} failed: ${err.message}`);
      if (ctx.deadline.aborted)
        throw new HttpError(504, 'upstream_error', 'deadline', `No answer within this server's time limit per request: ${failed.join('; ')}.`, { ...headers });
    }
  }
  throw new HttpError(502, 'upstream_error', 'upstream_failed', `${failed.join('; ')}${route.fallback ? '' : ' (this route has no fallback)'}.`, {
    ...ctx.headers,
    'x-toolmem-tool': headerValue(tries[tries.length - 1]!.tool),
  });
}
