/**
 * The route file of `toolmem serve --routes FILE`: which upstream serves each tool, at what price,
 * and the named routes a chat request's `model` picks:
 *
 *   { "tools":  { "DALLE_3": { "upstream": "openai:http://127.0.0.1:9001/v1#dall-e-3", "price": 0.04 } },
 *     "routes": { "toolmem:cheap": { "tools": ["DALLE_3", "SDXL_Turbo"], "max_cost": 0.01, "cost_weight": 10, "fallback": false } } }
 *
 * `toolmem:auto` always exists (unless the file defines it): every tool of the file, no cost
 * limit, fallback on. A price (US dollars per call) replaces the memory's cost of the tool for the
 * router's pick. Every problem is reported with its JSON path; tool ids are checked against the
 * memory at start and at every reload (a memory without a routed tool is refused).
 */
import { endpointOf, EngineSpecError, parseEngineSpec } from '../../core/llm';
import type { MemoryFile } from '../../core/memory-format';
import { quote } from '../../core/text/quote';
import { isObject } from './http';

export const AUTO_ROUTE = 'toolmem:auto';

export interface Upstream {
  baseUrl: string;
  model: string;
}

export interface Route {
  name: string;
  tools: string[];
  maxCost?: number;
  costWeight?: number;
  fallback: boolean;
}

export interface RouteTable {
  upstreams: Map<string, Upstream>;
  prices: Map<string, number>;
  routes: Map<string, Route>;
}

export class RouteFileError extends Error {
  override name = 'RouteFileError';
  constructor(readonly issues: { path: string; message: string }[]) {
    super(
      `The route file has ${issues.length === 1 ? '1 problem' : `${issues.length} problems`}:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`,
    );
  }
}

const key = (path: string, k: string) => `${path}[${JSON.stringify(k).slice(0, 80)}]`;

export function parseRouteFile(text: string): RouteTable {
  const issues: { path: string; message: string }[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RouteFileError([{ path: '$', message: `not valid JSON (${(err as Error).message.slice(0, 120)})` }]);
  }
  const table: RouteTable = { upstreams: new Map(), prices: new Map(), routes: new Map() };
  if (!isObject(value) || !isObject(value.tools))
    throw new RouteFileError([{ path: '$.tools', message: 'an object of tool id → { upstream, price? } is required' }]);
  for (const [id, t] of Object.entries(value.tools)) {
    const path = key('$.tools', id);
    if (!isObject(t) || typeof t.upstream !== 'string') {
      issues.push({ path: `${path}.upstream`, message: 'an upstream "openai:URL#MODEL" is required' });
      continue;
    }
    try {
      const endpoint = endpointOf(parseEngineSpec(t.upstream));
      if (!endpoint)
        issues.push({ path: `${path}.upstream`, message: `must be an OpenAI-compatible endpoint "openai:URL#MODEL", got ${quote(t.upstream, 80)}` });
      else table.upstreams.set(id, endpoint);
    } catch (err) {
      if (!(err instanceof EngineSpecError)) throw err;
      issues.push({ path: `${path}.upstream`, message: err.message });
    }
    if (t.price !== undefined) {
      if (typeof t.price !== 'number' || !Number.isFinite(t.price) || t.price < 0)
        issues.push({ path: `${path}.price`, message: 'must be a number ≥ 0 (US dollars per call)' });
      else table.prices.set(id, t.price);
    }
  }
  const routes = value.routes ?? {};
  if (!isObject(routes)) issues.push({ path: '$.routes', message: 'must be an object of route name → { tools, max_cost?, cost_weight?, fallback? }' });
  else {
    for (const [name, r] of Object.entries(routes)) {
      const path = key('$.routes', name);
      if (!isObject(r) || !Array.isArray(r.tools) || r.tools.length === 0 || !r.tools.every((t) => typeof t === 'string')) {
        issues.push({ path: `${path}.tools`, message: 'a non-empty array of tool ids is required' });
        continue;
      }
      const route: Route = { name, tools: [...new Set(r.tools as string[])], fallback: r.fallback === undefined ? true : r.fallback === true };
      if (r.fallback !== undefined && typeof r.fallback !== 'boolean') issues.push({ path: `${path}.fallback`, message: 'must be true or false' });
      for (const t of route.tools) if (!table.upstreams.has(t)) issues.push({ path: `${path}.tools`, message: `${quote(t, 80)} has no upstream in $.tools` });
      for (const [field, prop] of [
        ['max_cost', 'maxCost'],
        ['cost_weight', 'costWeight'],
      ] as const) {
        const v = r[field];
        if (v === undefined) continue;
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) issues.push({ path: `${path}.${field}`, message: 'must be a number ≥ 0' });
        else route[prop] = v;
      }
      table.routes.set(name, route);
    }
  }
  if (!table.routes.has(AUTO_ROUTE)) table.routes.set(AUTO_ROUTE, { name: AUTO_ROUTE, tools: [...table.upstreams.keys()], fallback: true });
  if (table.upstreams.size === 0 && issues.length === 0) issues.push({ path: '$.tools', message: 'no tool has an upstream' });
  if (issues.length) throw new RouteFileError(issues);
  return table;
}

/** The route table's tools that `file` does not know, as issues (a reload to such a file is refused). */
export function routeIssues(table: RouteTable, file: MemoryFile): { path: string; message: string }[] {
  const known = new Set(file.tools.map((t) => t.id));
  return [...table.upstreams.keys()]
    .filter((t) => !known.has(t))
    .map((t) => ({ path: '$.tools', message: `the route file routes ${quote(t, 80)}, a tool this memory does not have` }));
}

/** The memory with the route file's prices as the tools' costs (the router's pick weighs them). */
export function pricedFile(file: MemoryFile, table: RouteTable): MemoryFile {
  if (table.prices.size === 0) return file;
  return {
    ...file,
    tools: file.tools.map((t) => (table.prices.has(t.id) ? { ...t, cost: { perCall: table.prices.get(t.id)!, source: 'card' as const } } : t)),
  };
}
