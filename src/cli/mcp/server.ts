/**
 * The ToolMem MCP server: a memory file served over the Model Context Protocol. Tools:
 *  - list_tools                      → the memory's tools (name, modality, description, entry counts, calibration)
 *  - recall(tool, task, k?)          → the k most similar valid entries of each level, with similarity
 *  - predict_score(tool, task)       → the calibrated memory prediction and the entries behind it
 *  - select_tool(task, candidates[], max_cost?, cost_weight?, max_latency_ms?)
 *                                    → candidates ranked by utility = score − cost_weight × cost per call
 *                                      (src/app/predict/select.ts), tools over a limit (or of unknown cost/latency
 *                                      when a limit is given) excluded with the reason; costs and
 *                                      latencies are the file's (`tools[].cost`, `tools[].latency`)
 * The answers (answers.ts) are made from a per-generation context; tasks and, when the file
 * carries no vectors of the same model, entries are embedded with the given embedder.
 * Built on the SDK's low-level `Server` with our own tools/list and tools/call handlers: the
 * arguments are checked here (tool-args.ts) so that every bad call gets -32602 with a bounded
 * message, and unknown tools/ids are answered without echoing input at length.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Embedder } from '../../core/embed';
import { embeddingDimIssues, jsonPath, MemoryFileError, type MemoryFile, type MemoryFilePredictor } from '../../core/memory-format';
import { quote } from '../../core/text/quote';
import { ANSWERS, memoryContext } from './answers';
import { INVALID_PARAMS, JsonRpcError } from './jsonrpc-guard';
import { EmbeddingCache } from './task-cache';
import { INPUT_SCHEMAS, ToolArgumentError, type Args } from './tool-args';
import { TOOL_NAMES, TOOLS, type ToolAnswer, type ToolName } from './tools';

export type { ToolAnswer, ToolName } from './tools';

/**
 * The four tools of one memory file, answered once here for every transport: stdio and HTTP MCP
 * wrap an answer in a tool result, the JSON API (`toolmem serve`) sends the value as it is.
 * `call` throws ToolArgumentError for arguments that fail their checks.
 */
export interface ToolHandlers {
  call(name: ToolName, args: Args): Promise<ToolAnswer>;
  predictor: MemoryFilePredictor;
  /** Whether the entry vectors came from the file (true) or were embedded at start (false). */
  vectorsFromFile: boolean;
}

export interface ToolMemMcp extends ToolHandlers {
  server: Server;
}

/** An answer as an MCP tool result: the value as indented JSON text, an error as a tool error. */
const toolResult = (a: ToolAnswer) =>
  'value' in a
    ? { content: [{ type: 'text' as const, text: JSON.stringify(a.value, null, 2) }] }
    : { content: [{ type: 'text' as const, text: a.error }], isError: true };

/**
 * The file against the embedder that will serve it: same model id, vectors of its size. Throws a
 * MemoryFileError with the JSON paths (the CLI exits 2 with them).
 */
export function assertServable(file: MemoryFile, embedder: Pick<Embedder, 'id' | 'dim'>): void {
  const issues = [];
  if (embedder.id !== file.memory.embeddingModel) {
    issues.push({
      path: '$.memory.embeddingModel',
      message:
        `the memory was embedded with ${quote(file.memory.embeddingModel)} but the embedding model here is ${quote(embedder.id)}; retrieval ` +
        `needs the same model.`,
    });
  }
  issues.push(...embeddingDimIssues(file, embedder.dim).map((i) => ({ path: jsonPath(i.path), message: i.message })));
  if (issues.length) throw new MemoryFileError(issues);
}

export interface HandlerOptions {
  /**
   * Vectors of task texts already embedded by this embedder: shared by the handlers of every memory
   * generation a server loads (a text's vector does not depend on the memory). Default: one of its own.
   */
  embeddings?: EmbeddingCache;
}

/** The tools' handlers of one memory file (one generation: its caches live as long as they do). */
export async function createToolHandlers(file: MemoryFile, embedder: Embedder, opts: HandlerOptions = {}): Promise<ToolHandlers> {
  assertServable(file, embedder);
  const embeddings = opts.embeddings?.embedderId === embedder.id ? opts.embeddings : new EmbeddingCache(embedder.id);
  const ctx = await memoryContext(file, embedder, embeddings);
  return { call: (name, args) => ANSWERS[name](ctx, args), predictor: ctx.predictor, vectorsFromFile: ctx.vectorsFromFile };
}

/** An MCP server answering tools/list and tools/call from the handlers `current()` returns at each call. */
export function mcpServerFor(current: () => ToolHandlers, opts: { name?: string; version?: string } = {}): Server {
  const server = new Server({ name: opts.name ?? 'toolmem', version: opts.version ?? '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map((t) => ({ ...t, inputSchema: INPUT_SCHEMAS[t.name] })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (!TOOL_NAMES.has(name))
      throw new JsonRpcError(INVALID_PARAMS, `Unknown tool ${quote(name, 100)}: this server has ${TOOLS.map((t) => t.name).join(', ')}.`);
    try {
      return toolResult(await current().call(name as ToolName, args ?? {}));
    } catch (err) {
      if (err instanceof ToolArgumentError) throw new JsonRpcError(INVALID_PARAMS, `Invalid arguments for ${name}: ${err.message}`);
      throw err;
    }
  });
  return server;
}

export async function createToolMemMcp(file: MemoryFile, embedder: Embedder, opts: { name?: string; version?: string } = {}): Promise<ToolMemMcp> {
  const handlers = await createToolHandlers(file, embedder);
  return { ...handlers, server: mcpServerFor(() => handlers, opts) };
}
