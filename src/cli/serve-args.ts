/**
 * `toolmem serve`'s arguments: the usage text, the checked options, and the arguments each worker
 * of a cluster is started with.
 */
import { availableParallelism } from 'node:os';
import { isLoopbackHost } from './serve/guard';
import { DEFAULT_MAX_MEMORY_BYTES } from './serve/memory-read';
import { strictArgs, UsageError, wholeNumberArg } from './io';

export const DEFAULT_PORT = 7410;

export const USAGE = `Usage: toolmem serve --memory MEMORY.json [--port N] [--host 127.0.0.1] [--token T] [--routes ROUTES.json]

Serves a memory over HTTP to many clients: MCP (Streamable HTTP) at /mcp with the tools list_tools,
recall, predict_score and select_tool; POST /v1/predict and POST /v1/select (the same answers as
JSON); GET /healthz and GET /readyz; with --routes, an OpenAI-compatible router at
/v1/chat/completions that picks the tool for each request and forwards it to the tool's upstream.
The memory file is watched: a valid new version is swapped in, an invalid one is refused (logged).

Options:
  --memory FILE           the memory file (required)
  --port N                port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS          address to bind (default 127.0.0.1; any other needs a token)
  --token T               bearer token required on every route but /healthz (default: $TOOLMEM_TOKEN)
  --routes FILE           route file: tool → upstream "openai:URL#MODEL" and price; named routes
  --allow-origin ORIGIN   a browser origin allowed besides loopback pages (repeatable)
  --max-body BYTES        largest request body (default 1048576); larger → 413
  --request-timeout MS    time limit per request, a streamed answer included (default 120000);
                          408 / 504 past it
  --max-sessions N        MCP exchanges at once (default 256); more → 503
  --max-memory-bytes N    largest memory file read (default ${DEFAULT_MAX_MEMORY_BYTES}, 64 MiB); a larger one
                          is refused from its size, unread (at start: exit 2; on reload: logged)
  --workers N             worker processes sharing the port (default: the machine's cores,
                          here ${availableParallelism()}); 1 runs one process, no cluster
  --log-prompts           log each request's task / prompt (off: logs never hold prompts)
  -h, --help              show this help

Exit codes: 0 stopped by SIGTERM / SIGINT after draining, 1 usage error, 2 the memory or the route
file could not be read or is invalid.`;

export interface ServeArgs {
  memory: string;
  port: number;
  host: string;
  token: string | null;
  routes?: string;
  allowOrigins: string[];
  maxBody: number;
  requestTimeout: number;
  maxSessions: number;
  maxMemoryBytes: number;
  workers: number;
  logPrompts: boolean;
  help: boolean;
}

export function parse(args: string[]): ServeArgs {
  const v = strictArgs(args, {
    memory: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    routes: { type: 'string' },
    'allow-origin': { type: 'string', multiple: true, default: [] },
    'max-body': { type: 'string' },
    'request-timeout': { type: 'string' },
    'max-sessions': { type: 'string' },
    'max-memory-bytes': { type: 'string' },
    workers: { type: 'string' },
    'log-prompts': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (v.help)
    return {
      memory: '',
      port: 0,
      host: '',
      token: null,
      allowOrigins: [],
      maxBody: 0,
      requestTimeout: 0,
      maxSessions: 0,
      maxMemoryBytes: 0,
      workers: 1,
      logPrompts: false,
      help: true,
    };
  if (!v.memory) throw new UsageError('--memory FILE is required.');
  const port = wholeNumberArg('port', v.port, 0) ?? DEFAULT_PORT;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}.`);
  const token = v.token ?? process.env.TOOLMEM_TOKEN ?? null;
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token)) throw new UsageError('The token must be at least 16 printable characters without spaces.');
  if (!isLoopbackHost(v.host) && token === null)
    throw new UsageError(`--host ${v.host} is not a loopback address: give a token (--token or TOOLMEM_TOKEN) so the network cannot use the server unasked.`);
  for (const o of v['allow-origin'])
    if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new UsageError(`--allow-origin takes an origin like https://app.example.com, got '${o.slice(0, 80)}'.`);
  return {
    memory: v.memory,
    port,
    host: v.host,
    token,
    ...(v.routes ? { routes: v.routes } : {}),
    allowOrigins: v['allow-origin'],
    maxBody: wholeNumberArg('max-body', v['max-body'], 1) ?? 1024 * 1024,
    requestTimeout: wholeNumberArg('request-timeout', v['request-timeout'], 1) ?? 120_000,
    maxSessions: wholeNumberArg('max-sessions', v['max-sessions'], 1) ?? 256,
    maxMemoryBytes: wholeNumberArg('max-memory-bytes', v['max-memory-bytes'], 1) ?? DEFAULT_MAX_MEMORY_BYTES,
    workers: Math.min(wholeNumberArg('workers', v.workers, 1) ?? availableParallelism(), 256),
    logPrompts: v['log-prompts'] === true,
    help: false,
  };
}

/** The arguments a worker runs with (the token goes through the environment, not the command line). */
export function workerArgs(opts: ServeArgs): string[] {
  return [
    ...['--memory', opts.memory, '--port', String(opts.port), '--host', opts.host],
    ...(opts.routes ? ['--routes', opts.routes] : []),
    ...opts.allowOrigins.flatMap((o) => ['--allow-origin', o]),
    ...['--max-body', String(opts.maxBody), '--request-timeout', String(opts.requestTimeout), '--max-sessions', String(opts.maxSessions)],
    ...['--max-memory-bytes', String(opts.maxMemoryBytes), '--workers', '1'],
    ...(opts.logPrompts ? ['--log-prompts'] : []),
  ];
}
