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
import type { Embedder } from '../../core/embed';
import { formatIssues } from '../../core/memory-format';
import { clipInput } from '../../core/text/quote';
import { createTransformersEmbedder } from '../../model-host/transformers-embedder';
import { isClusterWorker, reportReady, runPrimary } from '../serve/cluster';
import { MemoryLoadError } from '../serve/memory-holder';
import { checkMemorySize, readMemoryFile } from '../serve/memory-read';
import { openServe, readRoutes } from '../serve/open';
import { RouteFileError, routeIssues } from '../serve/routes';
import { EXIT, command, type Io } from '../io';
import { parse, USAGE, workerArgs, type ServeArgs } from '../serve-args';

export { DEFAULT_PORT } from '../serve-args';

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
  else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
    io.err(`toolmem serve: port ${opts.port} on ${opts.host} is in use; pick another with --port.`);
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
  const line =
    `serving ${clipInput(m.file.memory.name, 120)} (${m.file.tools.length} tools, ${m.sha}) on ${served.app.url} — /mcp, /v1/predict, ` +
    `/v1/select${served.routes ? ', /v1/chat/completions' : ''}${routes}; ${opts.token ? 'bearer token required' : 'no token (loopback only)'}`;
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
