/**
 * `toolmem serve --memory FILE [--port N] [--host 127.0.0.1]`: a memory served to many clients
 * at once over HTTP — MCP at /mcp, the JSON API at /v1/predict and /v1/select, with --routes an
 * OpenAI-compatible router at /v1/chat/completions (src/cli/serve/). Loopback by default; any
 * other address needs a token (--token or TOOLMEM_TOKEN), since the API would otherwise be open
 * to the network. The memory file is watched and hot-reloaded; SIGTERM / SIGINT drain and exit 0.
 * `--workers N` (default: the machine's cores) runs N worker processes on one port (cluster.ts).
 * Logs go to stderr; they never hold the token, and prompts only with --log-prompts.
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Embedder } from '../../core/embed';
import { formatIssues } from '../../core/memory-format';
import { clipInput } from '../../core/text/quote';
import { createTransformersEmbedder } from '../../model-host/transformers-embedder';
import { isClusterWorker, reportReady, runPrimary } from '../serve/cluster';
import { isLoopbackHost } from '../serve/guard';
import { MemoryLoadError } from '../serve/memory-holder';
import { checkMemorySize, DEFAULT_MAX_MEMORY_BYTES, readMemoryFile } from '../serve/memory-read';
import { openServe, readRoutes } from '../serve/open';
import { RouteFileError, routeIssues } from '../serve/routes';
import { EXIT, command, strictArgs, UsageError, wholeNumberArg, type Io } from '../io';

export const DEFAULT_PORT = 7410;

const USAGE = `Usage: toolmem serve --memory MEMORY.json [--port N] [--host 127.0.0.1] [--token T] [--routes ROUTES.json]

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

interface ServeArgs {
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

function parse(args: string[]): ServeArgs {
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
  if (v.help) return { memory: '', port: 0, host: '', token: null, allowOrigins: [], maxBody: 0, requestTimeout: 0, maxSessions: 0, maxMemoryBytes: 0, workers: 1, logPrompts: false, help: true };
  if (!v.memory) throw new UsageError('--memory FILE is required.');
  const port = wholeNumberArg('port', v.port, 0) ?? DEFAULT_PORT;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}.`);
  const token = v.token ?? process.env.TOOLMEM_TOKEN ?? null;
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token)) throw new UsageError('The token must be at least 16 printable characters without spaces.');
  if (!isLoopbackHost(v.host) && token === null) throw new UsageError(`--host ${v.host} is not a loopback address: give a token (--token or TOOLMEM_TOKEN) so the network cannot use the server unasked.`);
  for (const o of v['allow-origin']) if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new UsageError(`--allow-origin takes an origin like https://app.example.com, got '${o.slice(0, 80)}'.`);
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

/** One embedder per model for the whole process (a reload to a memory of another model loads it). */
function embedders(): (id: string) => Promise<Embedder> {
  const made = new Map<string, Promise<Embedder>>();
  return (id) => {
    let e = made.get(id);
    if (!e) {
      e = (async () => {
        const embedder = createTransformersEmbedder({ model: id.split('@')[0]! });
        await embedder.load();
        return embedder;
      })();
      made.set(id, e);
      e.catch(() => made.delete(id));
    }
    return e;
  };
}

/** Resolves with the name of the first SIGTERM / SIGINT (its handlers then removed). */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      resolve(signal);
    };
    const onTerm = () => stop('SIGTERM');
    const onInt = () => stop('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  });
}

/** The exit code and message of a failed start (a bad file, a port in use); other errors are thrown. */
function startFailure(err: unknown, opts: ServeArgs, io: Io): number {
  if (err instanceof MemoryLoadError) io.err(`toolmem serve: ${opts.memory}: ${err.message}`);
  else if (err instanceof RouteFileError) io.err(`toolmem serve: ${opts.routes}: ${err.message}`);
  else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') io.err(`toolmem serve: port ${opts.port} on ${opts.host} is in use; pick another with --port.`);
  else throw err;
  return (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? EXIT.usage : EXIT.unreadable;
}

/** One server in this process (`--workers 1`, or one worker of a cluster). */
async function runOne(opts: ServeArgs, io: Io): Promise<number> {
  const worker = isClusterWorker();
  const log = (line: string) => io.err(`toolmem serve: ${worker ? `worker ${cluster.worker!.id}: ` : ''}${line}`);
  const stopped = stopSignal();
  let served;
  try {
    served = await openServe({
      memoryPath: opts.memory,
      ...(opts.routes ? { routesPath: opts.routes } : {}),
      host: opts.host,
      port: opts.port,
      token: opts.token,
      allowOrigins: opts.allowOrigins,
      logPrompts: opts.logPrompts,
      maxBodyBytes: opts.maxBody,
      requestTimeoutMs: opts.requestTimeout,
      maxSessions: opts.maxSessions,
      maxMemoryBytes: opts.maxMemoryBytes,
      embedderFor: embedders(),
      log,
    });
  } catch (err) {
    return startFailure(err, opts, io);
  }
  const m = served.holder.current;
  const routes = served.routes ? `, routes ${[...served.routes.routes.keys()].map((r) => clipInput(r, 60)).join(', ')}` : '';
  const line = `serving ${clipInput(m.file.memory.name, 120)} (${m.file.tools.length} tools, ${m.sha}) on ${served.app.url} — /mcp, /v1/predict, /v1/select${served.routes ? ', /v1/chat/completions' : ''}${routes}; ${opts.token ? 'bearer token required' : 'no token (loopback only)'}`;
  if (worker) reportReady(served.app.url, line, () => served.app.stopListening());
  else log(line);
  const signal = await stopped;
  // A worker drains quietly: its primary says what happens, once for all workers.
  if (!worker) log(`${signal}: draining requests in flight`);
  await served.close();
  if (!worker) log('stopped');
  // A worker's IPC channel to its primary keeps the process alive: let go of it to exit.
  else cluster.worker!.disconnect();
  return EXIT.ok;
}

/** The arguments a worker runs with (the token goes through the environment, not the command line). */
function workerArgs(opts: ServeArgs): string[] {
  return [
    ...['--memory', opts.memory, '--port', String(opts.port), '--host', opts.host],
    ...(opts.routes ? ['--routes', opts.routes] : []),
    ...opts.allowOrigins.flatMap((o) => ['--allow-origin', o]),
    ...['--max-body', String(opts.maxBody), '--request-timeout', String(opts.requestTimeout), '--max-sessions', String(opts.maxSessions)],
    ...['--max-memory-bytes', String(opts.maxMemoryBytes), '--workers', '1'],
    ...(opts.logPrompts ? ['--log-prompts'] : []),
  ];
}

/** `--workers N`: the files checked here once (exit 2 before anything starts), then the primary. */
async function runCluster(opts: ServeArgs, io: Io): Promise<number> {
  const log = (line: string) => io.err(`toolmem serve: ${line}`);
  const stopped = stopSignal();
  try {
    const routes = opts.routes ? await readRoutes(opts.routes) : null;
    await checkMemorySize(opts.memory, opts.maxMemoryBytes);
    const { file } = await readMemoryFile(opts.memory, opts.maxMemoryBytes);
    const issues = routes ? routeIssues(routes, file) : [];
    if (issues.length) throw new MemoryLoadError(formatIssues(issues));
  } catch (err) {
    return startFailure(err, opts, io);
  }
  const env: Record<string, string> = opts.token ? { TOOLMEM_TOKEN: opts.token } : {};
  const code = await runPrimary({ workers: opts.workers, args: workerArgs(opts), env, log, stopSignal: stopped });
  if (code === EXIT.ok) log('stopped');
  return code;
}

async function run(opts: ServeArgs, io: Io): Promise<number> {
  return opts.workers > 1 && !isClusterWorker() ? runCluster(opts, io) : runOne(opts, io);
}

export const serveCommand = command('serve', 'serve a memory file over HTTP: MCP, a JSON API and an OpenAI-compatible router', USAGE, parse, run);
