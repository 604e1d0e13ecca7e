/**
 * `toolmem mcp --memory memory.json`: serves a memory file over MCP (stdio). stdout belongs to the
 * protocol; messages go to stderr. The memory is validated first — the format, then against the
 * embedding model that will serve it (model id, vector size) — exit 2 with every problem and its
 * JSON path; data problems are never exit 1 (that is usage). Once serving, malformed client
 * messages are answered (GuardedStdioTransport) and never end the process; the command returns
 * when the client closes the connection.
 */
import { formatIssues, MemoryFileError } from '../../core/memory-format';
import { quote } from '../../core/text/quote';
import { createTransformersEmbedder } from '../../model-host/transformers-embedder';
import { createToolMemMcp } from '../mcp/server';
import { GuardedStdioTransport } from '../mcp/stdio-transport';
import { readMemoryArg } from '../memory-arg';
import { EXIT, command, strictArgs, UsageError, type Io } from '../io';

const USAGE = `Usage: toolmem mcp --memory MEMORY.json

Serves a memory (written by \`toolmem build-memory\` or exported from the app) as an MCP server over
stdio, with the tools list_tools, recall, predict_score and select_tool.

Options:
  --memory FILE        the memory file (required)
  -h, --help           show this help

Exit codes: 0 the client disconnected, 1 usage error, 2 the memory could not be read or is invalid.`;

interface McpArgs {
  memory: string;
  help: boolean;
}

function parse(args: string[]): McpArgs {
  const values = strictArgs(args, { memory: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } });
  if (!values.help && !values.memory) throw new UsageError('--memory FILE is required.');
  return { memory: values.memory ?? '', help: values.help === true };
}

async function run(opts: McpArgs, io: Io): Promise<number> {
  const file = await readMemoryArg('mcp', opts.memory, io);
  if (typeof file === 'number') return file;
  let embedder;
  try {
    embedder = createTransformersEmbedder({ model: file.memory.embeddingModel.split('@')[0]! });
  } catch (err) {
    const message = `cannot load the embedding model ${quote(file.memory.embeddingModel)}: ${(err as Error).message}`;
    io.err(`toolmem mcp: ${opts.memory}: ${formatIssues([{ path: '$.memory.embeddingModel', message }])}`);
    return EXIT.unreadable;
  }
  let mcp;
  try {
    mcp = await createToolMemMcp(file, embedder);
  } catch (err) {
    io.err(`toolmem mcp: ${opts.memory}: ${err instanceof MemoryFileError ? formatIssues(err.issues) : (err as Error).message}`);
    return EXIT.unreadable;
  }
  const transport = new GuardedStdioTransport();
  // The transport closes when stdin ends, after answering what it had read.
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
  });
  await mcp.server.connect(transport);
  io.err(
    `toolmem mcp: serving ${file.memory.name} (${file.tools.length} tools, ` +
      `embeddings ${file.memory.embeddingModel}${mcp.vectorsFromFile ? ', vectors from the file' : ''}) on stdio`,
  );
  await closed;
  await mcp.server.close();
  return EXIT.ok;
}

export const mcpCommand = command('mcp', 'serve a memory file as an MCP server (stdio): list_tools, recall, predict_score, select_tool', USAGE, parse, run);
