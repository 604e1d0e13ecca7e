/**
 * Opens what `toolmem serve` serves: the route file (read once), the memory (validated, prepared
 * and watched), the HTTP server. Shared by the command and the tests, which pass their own
 * embedder and logger. What a memory is prepared into — the tools' handlers, once more with the
 * route file's prices when it has any — is built by the one handler implementation of the MCP
 * server (createToolHandlers), so stdio, HTTP MCP, the JSON API and the router give one answer.
 */
import { readFile } from 'node:fs/promises';
import type { Embedder } from '../../core/embed';
import { MemoryFileError } from '../../core/memory-format';
import { createToolHandlers } from '../mcp/server';
import { EmbeddingCache } from '../mcp/task-cache';
import { startServe, type ServeApp, type ServeConfig, type Served } from './app';
import { MemoryHolder } from './memory-holder';
import { parseRouteFile, pricedFile, routeIssues, RouteFileError, type RouteTable } from './routes';

export interface OpenServeOptions extends Omit<ServeConfig, 'holder' | 'routes'> {
  memoryPath: string;
  routesPath?: string;
  /** The embedder for a memory's `embeddingModel` id (loaded). */
  embedderFor(modelId: string): Promise<Embedder>;
  /** Watch the memory file for changes (default true). */
  watch?: boolean;
  /** Largest memory file read, at start and at each reload (default 64 MiB). */
  maxMemoryBytes?: number;
}

export interface OpenServe {
  app: ServeApp;
  holder: MemoryHolder<Served>;
  routes: RouteTable | null;
  /** Drains, stops watching, closes. */
  close(drainMs?: number): Promise<void>;
}

export async function readRoutes(path: string): Promise<RouteTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new RouteFileError([{ path: '$', message: `cannot read the route file (${(err as NodeJS.ErrnoException).code ?? 'error'})` }]);
  }
  return parseRouteFile(text);
}

export async function openServe(opts: OpenServeOptions): Promise<OpenServe> {
  const routes = opts.routesPath ? await readRoutes(opts.routesPath) : null;
  // Vectors of task and entry texts, kept across reloads (one cache per embedding model).
  const caches = new Map<string, EmbeddingCache>();
  const cacheFor = (id: string) => caches.get(id) ?? caches.set(id, new EmbeddingCache(id)).get(id)!;
  const holder = await MemoryHolder.open<Served>(
    opts.memoryPath,
    async (file) => {
      if (routes) {
        const issues = routeIssues(routes, file);
        if (issues.length) throw new MemoryFileError(issues);
      }
      const embedder = await opts.embedderFor(file.memory.embeddingModel);
      const embeddings = cacheFor(embedder.id);
      const handlers = await createToolHandlers(file, embedder, { embeddings });
      const routed = routes && routes.prices.size ? await createToolHandlers(pricedFile(file, routes), embedder, { embeddings }) : handlers;
      return { handlers, routed };
    },
    opts.log,
    opts.maxMemoryBytes !== undefined ? { maxBytes: opts.maxMemoryBytes } : {},
  );
  let app: ServeApp;
  try {
    app = await startServe({ ...opts, holder, routes });
  } catch (err) {
    holder.close();
    throw err;
  }
  if (opts.watch !== false) holder.watch();
  return {
    app,
    holder,
    routes,
    close: async (drainMs) => {
      holder.close();
      await app.close(drainMs);
    },
  };
}
