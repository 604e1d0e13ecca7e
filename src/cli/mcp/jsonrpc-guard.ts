/**
 * What the stdio transport does with one line from the client, before the MCP SDK sees it.
 * The SDK's own stdio transport drops a line it cannot parse and never answers a request whose
 * shape its schemas reject, so a client would wait forever. Here every line gets JSON-RPC 2.0's
 * answer (https://www.jsonrpc.org/specification#error_object):
 *  - not JSON                                   → -32700 Parse error, id null;
 *  - not a request/notification/response object → -32600 Invalid Request (the id when it is one);
 *  - a batch (array): MCP (2025-06-18) has no batching, so each member with an id is answered
 *    -32600 in one array reply; garbage members get -32600 with id null; an empty batch, or one of
 *    more than MAX_BATCH (100) members, one -32600;
 *  - nesting deeper than MAX_JSON_DEPTH (64), json-depth.ts → -32602 for a request (with its id),
 *    -32600 with id null for anything else;
 *  - params that are not an object, or that the method's schema rejects → -32602 Invalid params;
 *  - anything else goes on to the SDK (which answers an unknown method with -32601).
 * Notifications (no id) are never answered, as the spec requires. Every message is bounded.
 */
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { clipInput, quote } from '../../core/text/quote';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

export type RequestId = string | number;
export type ErrorReply = { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string } };
/** `refused`: the message as a whole is refused (malformed, too deep, a batch): over HTTP a 400. */
export type Verdict = { forward: JSONRPCMessage } | { reply: ErrorReply | ErrorReply[]; refused?: true } | { ignore: true };

/** Schemas of the requests this server handles: their params are checked here (→ -32602). */
// Typed by what is used (safeParse and the issues), so the SDK's schemas fit whichever zod they are built with.
interface ParamsIssue {
  path: PropertyKey[];
  message: string;
}
interface ParamsSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ParamsIssue[] } };
}
const PARAMS: ReadonlyMap<string, ParamsSchema> = new Map<string, ParamsSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

const MESSAGE_MAX = 300;
/** Members of a batch answered one by one (each -32600); a longer batch gets one error. */
export const MAX_BATCH = 100;

/**
 * A request answered with a JSON-RPC error: the SDK replies `{ code, message }` from any error with
 * a numeric `code` (unlike `McpError`, the message is not prefixed with "MCP error N:").
 */
export class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(clipInput(message, MESSAGE_MAX));
  }
}

export function errorReply(id: RequestId | null, code: number, message: string): ErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message: clipInput(message, MESSAGE_MAX) } };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const validId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** The first problems of a zod error, as `params.name: message` (no input echoed). */
function paramsProblem(error: { issues: ParamsIssue[] }): string {
  const shown = error.issues.slice(0, 3).map((i) => `${['params', ...i.path.slice(1).map(String)].join('.')}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}

/** One message object: forward, or the error reply it deserves (null: a notification, no reply). */
export function checkMessage(msg: unknown): { forward: JSONRPCMessage } | { reply: ErrorReply | null } {
  if (!isObject(msg)) return { reply: errorReply(null, INVALID_REQUEST, `Invalid Request: a JSON-RPC message must be an object, got ${kind(msg)}.`) };
  const hasId = Object.hasOwn(msg, 'id') && msg.id !== undefined;
  if (hasId && !validId(msg.id))
    return { reply: errorReply(null, INVALID_REQUEST, `Invalid Request: 'id' must be a string or a number, got ${kind(msg.id)}.`) };
  const id = hasId ? (msg.id as RequestId) : null;
  const answer = (code: number, message: string) => ({ reply: id === null && typeof msg.method === 'string' ? null : errorReply(id, code, message) });
  if (msg.jsonrpc !== '2.0')
    return {
      reply: errorReply(
        id,
        INVALID_REQUEST,
        `Invalid Request: 'jsonrpc' must be "2.0", got ${typeof msg.jsonrpc === 'string' ? quote(msg.jsonrpc, 20) : kind(msg.jsonrpc)}.`,
      ),
    };
  if (msg.method === undefined) {
    // A response to a request of ours (the server sends none today): handed to the SDK as is.
    if (hasId && (Object.hasOwn(msg, 'result') || isObject(msg.error))) return { forward: msg as JSONRPCMessage };
    return { reply: errorReply(id, INVALID_REQUEST, "Invalid Request: no 'method' (and not a response either).") };
  }
  if (typeof msg.method !== 'string' || msg.method === '')
    return { reply: errorReply(id, INVALID_REQUEST, `Invalid Request: 'method' must be a non-empty string, got ${kind(msg.method)}.`) };
  if (msg.params !== undefined && !isObject(msg.params)) {
    return answer(INVALID_PARAMS, `Invalid params for ${quote(msg.method, 40)}: 'params' must be an object (named parameters), got ${kind(msg.params)}.`);
  }
  const schema = hasId ? PARAMS.get(msg.method) : undefined;
  if (schema) {
    const r = schema.safeParse(msg);
    if (!r.success) return answer(INVALID_PARAMS, `Invalid params for ${msg.method}: ${paramsProblem(r.error)}`);
  }
  return { forward: msg as JSONRPCMessage };
}

/** The verdict for one line of input (already decoded as UTF-8, without its newline). */
export function checkLine(line: string): Verdict {
  if (line.trim() === '') return { ignore: true };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { reply: errorReply(null, PARSE_ERROR, `Parse error: the message is not valid JSON (${(err as Error).message}).`) };
  }
  // JSON.parse reads any depth; the schema checks and the SDK after it recurse. A request keeps its id.
  if (nestsDeeperThan(line)) {
    const why = `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
    if (isObject(value) && typeof value.method === 'string') {
      if (validId(value.id))
        return { reply: errorReply(value.id, INVALID_PARAMS, `Invalid params for ${quote(value.method, 40)}: the message ${why}.`), refused: true };
      if (value.id === undefined) return { ignore: true }; // a notification: never answered
    }
    return { reply: errorReply(null, INVALID_REQUEST, `Invalid Request: the message ${why}.`) };
  }
  if (!Array.isArray(value)) {
    const r = checkMessage(value);
    return 'forward' in r ? r : r.reply ? { reply: r.reply } : { ignore: true };
  }
  if (value.length === 0) return { reply: errorReply(null, INVALID_REQUEST, 'Invalid Request: an empty batch.') };
  // One error for a batch past the bound, not one per member (10,000 calls would get 1.85 MB back).
  if (value.length > MAX_BATCH)
    return {
      reply: errorReply(
        null,
        INVALID_REQUEST,
        `Invalid Request: a batch of ${value.length.toLocaleString('en-US')} messages; batches are not supported (MCP 2025-06-18 has no JSON-RPC ` +
          `batching) and at most ${MAX_BATCH} are answered one by one.`,
      ),
    };
  const replies: ErrorReply[] = [];
  for (const member of value) {
    const r = checkMessage(member);
    if ('reply' in r) {
      if (r.reply) replies.push(r.reply);
    } else if (isObject(member) && validId(member.id)) {
      replies.push(
        errorReply(
          member.id,
          INVALID_REQUEST,
          'Invalid Request: batches are not supported (MCP 2025-06-18 has no JSON-RPC batching); send each request on its own line.',
        ),
      );
    }
  }
  return replies.length ? { reply: replies } : { ignore: true };
}
