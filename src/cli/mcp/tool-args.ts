/**
 * Checks of the tools' arguments, with messages that name the argument and never echo more than
 * `quote()` allows. A failed check is a `ToolArgumentError`, answered -32602 (Invalid params) with
 * the tool's name. Tasks are capped at `MAX_TASK_CHARS`: a prompt is a few hundred characters,
 * and embedding megabytes would hold the server for everyone else.
 */
import { quote } from '../../core/text/quote';

export const MAX_TASK_CHARS = 100_000;
/** Tool ids are short; candidates lists are a handful. */
export const MAX_TOOL_ID_CHARS = 1_000;
export const MAX_CANDIDATES = 100;

export class ToolArgumentError extends Error {
  override name = 'ToolArgumentError';
}

export type Args = Record<string, unknown>;

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const fmt = (n: number) => n.toLocaleString('en-US');

function text(args: Args, name: string, max: number, what: string): string {
  const v = args[name];
  if (v === undefined) throw new ToolArgumentError(`'${name}' is required (${what}).`);
  if (typeof v !== 'string') throw new ToolArgumentError(`'${name}' must be a string (${what}), got ${kind(v)}.`);
  if (v.trim() === '') throw new ToolArgumentError(`'${name}' is empty; give ${what}.`);
  if (v.length > max) throw new ToolArgumentError(`'${name}' is ${fmt(v.length)} characters long; at most ${fmt(max)} are accepted.`);
  return v;
}

export const taskArg = (args: Args) => text(args, 'task', MAX_TASK_CHARS, 'the task / prompt');
export const toolArg = (args: Args) => text(args, 'tool', MAX_TOOL_ID_CHARS, 'a tool id, as listed by list_tools');

export function kArg(args: Args): number {
  const v = args.k;
  if (v === undefined) return 5;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 50) {
    throw new ToolArgumentError(`'k' must be a whole number from 1 to 50, got ${typeof v === 'number' ? String(v) : kind(v)}.`);
  }
  return v;
}

export function candidatesArg(args: Args): string[] {
  const v = args.candidates;
  if (!Array.isArray(v)) throw new ToolArgumentError(`'candidates' must be an array of tool ids, got ${v === undefined ? 'nothing' : kind(v)}.`);
  if (v.length === 0) throw new ToolArgumentError(`'candidates' is empty; list at least one tool id.`);
  if (v.length > MAX_CANDIDATES) throw new ToolArgumentError(`'candidates' has ${fmt(v.length)} tool ids; at most ${MAX_CANDIDATES} are accepted.`);
  const bad = v.findIndex((c) => typeof c !== 'string' || c.length > MAX_TOOL_ID_CHARS);
  if (bad >= 0) {
    const c: unknown = v[bad];
    throw new ToolArgumentError(
      `'candidates[${bad}]' must be a tool id (a string of at most ${fmt(MAX_TOOL_ID_CHARS)} characters), ` +
        `got ${typeof c === 'string' ? quote(c, 40) : kind(c)}.`,
    );
  }
  return v as string[];
}

/** An optional number ≥ 0 (a cost, a weight, a limit in ms); absent → undefined. */
function nonNegative(args: Args, name: string, what: string): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new ToolArgumentError(`'${name}' must be a number ≥ 0 (${what}), got ${typeof v === 'number' ? String(v) : kind(v)}.`);
  }
  return v;
}

/** select_tool's cost and latency knobs: utility = score − cost_weight × cost, with hard limits. */
export function costArgs(args: Args): { maxCost?: number; costWeight?: number; maxLatencyMs?: number } {
  const maxCost = nonNegative(args, 'max_cost', 'US dollars per call');
  const costWeight = nonNegative(args, 'cost_weight', 'score points given up per dollar');
  const maxLatencyMs = nonNegative(args, 'max_latency_ms', 'milliseconds');
  return {
    ...(maxCost !== undefined ? { maxCost } : {}),
    ...(costWeight !== undefined ? { costWeight } : {}),
    ...(maxLatencyMs !== undefined ? { maxLatencyMs } : {}),
  };
}

/** The tools' input schemas (JSON Schema), as listed by tools/list. */
export const INPUT_SCHEMAS = {
  list_tools: { type: 'object', properties: {} },
  recall: {
    type: 'object',
    properties: {
      tool: { type: 'string', maxLength: MAX_TOOL_ID_CHARS, description: 'tool id, as listed by list_tools' },
      task: { type: 'string', minLength: 1, maxLength: MAX_TASK_CHARS, description: 'the task / prompt' },
      k: { type: 'integer', minimum: 1, maximum: 50, description: 'entries per level (default 5)' },
    },
    required: ['tool', 'task'],
  },
  predict_score: {
    type: 'object',
    properties: { tool: { type: 'string', maxLength: MAX_TOOL_ID_CHARS }, task: { type: 'string', minLength: 1, maxLength: MAX_TASK_CHARS } },
    required: ['tool', 'task'],
  },
  select_tool: {
    type: 'object',
    properties: {
      task: { type: 'string', minLength: 1, maxLength: MAX_TASK_CHARS },
      candidates: {
        type: 'array',
        items: { type: 'string', maxLength: MAX_TOOL_ID_CHARS },
        minItems: 1,
        maxItems: MAX_CANDIDATES,
        description: 'tool ids to choose from',
      },
      max_cost: { type: 'number', minimum: 0, description: 'exclude tools costing more than this per call (US dollars), and tools of unknown cost' },
      cost_weight: { type: 'number', minimum: 0, description: 'score points given up per dollar of cost per call (default 0: cost ignored)' },
      max_latency_ms: { type: 'number', minimum: 0, description: 'exclude tools with a typical latency above this (ms), and tools of unknown latency' },
    },
    required: ['task', 'candidates'],
  },
} as const;
