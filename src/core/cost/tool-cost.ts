/**
 * A tool's cost per call and typical latency: the price set on its card when there is one, else
 * the median of the experiences that record them (promptfoo logs `cost` and `latencyMs` per
 * attempt). Medians, not means: one retried or cached call should not move a tool's price.
 * Every value carries where it came from (`card` or `data` with its n), so the UI can say "set by
 * you" or "from the data, median of N" beside it.
 */
import { ValidationError } from '../errors';
import type { Experience, Tool, ToolPrice } from '../types';
import { median as statsMedian } from '../predict/stats';

/** The median of the values (core/predict/stats: mean of the middle two for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  return values.length === 0 ? null : statsMedian(values);
}

/** A median of the data with the number of experiences it is taken over. */
export interface DataMedian {
  median: number;
  n: number;
}

/** What the experiences say about one tool's cost and latency (null: none records it). */
export interface ToolCostStat {
  toolId: string;
  cost: DataMedian | null;
  latencyMs: DataMedian | null;
}

export type CostFields = Pick<Experience, 'toolId' | 'cost' | 'latencyMs'>;

/** Per tool (a Map: tool ids are data), the medians of the finite, non-negative costs and latencies. */
export function costStats(experiences: Iterable<CostFields>): Map<string, ToolCostStat> {
  const costs = new Map<string, number[]>();
  const latencies = new Map<string, number[]>();
  const tools: string[] = [];
  const push = (m: Map<string, number[]>, id: string, v: number | undefined) => {
    if (v === undefined || !Number.isFinite(v) || v < 0) return;
    let list = m.get(id);
    if (!list) m.set(id, (list = []));
    list.push(v);
  };
  const seen = new Set<string>();
  for (const e of experiences) {
    if (!seen.has(e.toolId)) {
      seen.add(e.toolId);
      tools.push(e.toolId);
    }
    push(costs, e.toolId, e.cost);
    push(latencies, e.toolId, e.latencyMs);
  }
  const stat = (list: number[] | undefined): DataMedian | null => (list?.length ? { median: median(list)!, n: list.length } : null);
  return new Map(tools.map((t) => [t, { toolId: t, cost: stat(costs.get(t)), latencyMs: stat(latencies.get(t)) }]));
}

/** Joins per-dataset stats of the same tool: the median of the per-dataset medians, n summed. */
export function mergeCostStats(stats: readonly ToolCostStat[]): Map<string, ToolCostStat> {
  const by = new Map<string, ToolCostStat[]>();
  for (const s of stats) by.set(s.toolId, [...(by.get(s.toolId) ?? []), s]);
  const join = (list: (DataMedian | null)[]): DataMedian | null => {
    const xs = list.filter((x): x is DataMedian => x !== null);
    return xs.length ? { median: median(xs.map((x) => x.median))!, n: xs.reduce((a, x) => a + x.n, 0) } : null;
  };
  return new Map([...by].map(([t, list]) => [t, { toolId: t, cost: join(list.map((s) => s.cost)), latencyMs: join(list.map((s) => s.latencyMs)) }]));
}

/** A price in US dollars per call. */
export function perCallCost(price: ToolPrice): number {
  return price.per === 'call' ? price.amount : (price.amount * (price.tokensPerCall ?? 0)) / 1000;
}

/** Where a tool's cost or latency comes from. */
export type CostSource = { source: 'card'; example: boolean } | { source: 'data'; n: number };
export type Sourced = { value: number } & CostSource;

/** The tool's cost per call: its card's price, else the data's median; null when neither exists. */
export function effectiveCost(tool: Pick<Tool, 'price'> | undefined, stat: ToolCostStat | undefined): Sourced | null {
  if (tool?.price) return { value: perCallCost(tool.price), source: 'card', example: tool.price.example === true };
  return stat?.cost ? { value: stat.cost.median, source: 'data', n: stat.cost.n } : null;
}

/** The tool's typical latency in ms: its card's, else the data's median; null when neither exists. */
export function effectiveLatency(tool: Pick<Tool, 'latencyMs'> | undefined, stat: ToolCostStat | undefined): Sourced | null {
  if (tool?.latencyMs !== undefined) return { value: tool.latencyMs, source: 'card', example: false };
  return stat?.latencyMs ? { value: stat.latencyMs.median, source: 'data', n: stat.latencyMs.n } : null;
}

/** The largest price or latency a card accepts (a typo guard, not a business rule). */
const MAX_AMOUNT = 1e6;
const MAX_TOKENS = 1e8;
const MAX_LATENCY_MS = 24 * 3600 * 1000;

function parseNumber(text: string, what: string, max: number): number {
  const t = text.trim();
  if (t.startsWith('-')) throw new ValidationError(`${what} cannot be negative, got ${t.slice(0, 20)}.`);
  // Number('') is 0 and Number('1e3') is 1000: only plain decimals are taken.
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) throw new ValidationError(`${what} must be a number like 0.04, got ${JSON.stringify(t.slice(0, 20))}.`);
  const v = Number(t);
  if (v > max) throw new ValidationError(`${what} must be at most ${max.toLocaleString('en-US')}, got ${t.slice(0, 20)}.`);
  return v;
}

/** The card's price form: an empty amount clears the price (null); bad input throws a ValidationError. */
export function parsePrice(form: { amount: string; per: ToolPrice['per']; tokensPerCall: string }): ToolPrice | null {
  if (!form.amount.trim()) return null;
  const amount = parseNumber(form.amount, 'The price', MAX_AMOUNT);
  if (form.per === 'call') return { amount, per: 'call' };
  if (!form.tokensPerCall.trim()) throw new ValidationError('A price per 1k tokens needs the tokens one call uses, to compare tools per call.');
  const tokensPerCall = parseNumber(form.tokensPerCall, 'Tokens per call', MAX_TOKENS);
  if (!Number.isInteger(tokensPerCall) || tokensPerCall < 1) throw new ValidationError('Tokens per call must be a whole number of at least 1.');
  return { amount, per: '1k-tokens', tokensPerCall };
}

/** The card's latency field: empty clears it (null); bad input throws a ValidationError. */
export function parseLatency(text: string): number | null {
  if (!text.trim()) return null;
  return parseNumber(text, 'The latency', MAX_LATENCY_MS);
}

/** "$0.04", "$84 per 1M calls" for tiny costs: never a raw long decimal. */
export function formatCost(perCall: number): string {
  const sig = (x: number) => String(Number(x.toPrecision(3)));
  if (perCall === 0) return '$0 per call';
  if (perCall < 0.001) return `$${sig(perCall * 1e6)} per 1M calls`;
  return `$${sig(perCall)} per call`;
}

/** "850 ms", "2.4 s". */
export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toPrecision(3))} s`;
}

/** A memory file tool's `cost` and `latency` (docs/memory-format.md): absent fields when unknown. */
export function fileCostFields(
  tool: Pick<Tool, 'price' | 'latencyMs'> | undefined,
  stat: ToolCostStat | undefined,
): { cost?: { perCall: number; source: 'card' | 'data'; n?: number; example?: boolean }; latency?: { ms: number; source: 'card' | 'data'; n?: number } } {
  const c = effectiveCost(tool, stat);
  const l = effectiveLatency(tool, stat);
  return {
    ...(c
      ? {
          cost:
            c.source === 'card' ? { perCall: c.value, source: 'card', ...(c.example ? { example: true } : {}) } : { perCall: c.value, source: 'data', n: c.n },
        }
      : {}),
    ...(l ? { latency: l.source === 'card' ? { ms: l.value, source: 'card' } : { ms: l.value, source: 'data', n: l.n } } : {}),
  };
}
