import { describe, expect, it } from 'vitest';
import {
  costStats,
  effectiveCost,
  effectiveLatency,
  formatCost,
  formatLatency,
  median,
  mergeCostStats,
  parseLatency,
  parsePrice,
  perCallCost,
} from '../../../src/core/cost/tool-cost';
import { ValidationError } from '../../../src/core/errors';

describe('tool cost defaults: medians of the data', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('per tool, the median cost and latency over the experiences that record them', () => {
    const stats = costStats([
      { toolId: 'a', cost: 0.002, latencyMs: 100 },
      { toolId: 'a', cost: 0.004, latencyMs: 300 },
      { toolId: 'a', cost: 0.1 },
      { toolId: 'a', latencyMs: 200 },
      { toolId: 'b' },
      { toolId: '__proto__', cost: -1, latencyMs: Number.NaN },
    ]);
    expect(stats.get('a')).toEqual({ toolId: 'a', cost: { median: 0.004, n: 3 }, latencyMs: { median: 200, n: 3 } });
    expect(stats.get('b')).toEqual({ toolId: 'b', cost: null, latencyMs: null });
    expect(stats.get('__proto__')).toEqual({ toolId: '__proto__', cost: null, latencyMs: null });
  });

  it('across datasets: the median of the medians, n summed', () => {
    const merged = mergeCostStats([
      { toolId: 'a', cost: { median: 1, n: 2 }, latencyMs: null },
      { toolId: 'a', cost: { median: 3, n: 5 }, latencyMs: { median: 10, n: 1 } },
    ]);
    expect(merged.get('a')).toEqual({ toolId: 'a', cost: { median: 2, n: 7 }, latencyMs: { median: 10, n: 1 } });
  });

  it('the card wins over the data; the data fills in otherwise', () => {
    const stat = { toolId: 'a', cost: { median: 0.004, n: 3 }, latencyMs: { median: 200, n: 3 } };
    expect(effectiveCost(undefined, stat)).toEqual({ value: 0.004, source: 'data', n: 3 });
    expect(effectiveCost({ price: { amount: 0.5, per: '1k-tokens', tokensPerCall: 300 } }, stat)).toEqual({ value: 0.15, source: 'card', example: false });
    expect(effectiveCost({ price: { amount: 0.04, per: 'call', example: true } }, undefined)).toEqual({ value: 0.04, source: 'card', example: true });
    expect(effectiveCost({}, undefined)).toBeNull();
    expect(effectiveLatency({ latencyMs: 900 }, stat)).toEqual({ value: 900, source: 'card', example: false });
    expect(effectiveLatency({}, stat)).toEqual({ value: 200, source: 'data', n: 3 });
  });

  it('per-call cost of a per-1k-tokens price: 0.002 $/1k × 1500 tokens = 0.003 $', () => {
    expect(perCallCost({ amount: 0.002, per: '1k-tokens', tokensPerCall: 1500 })).toBeCloseTo(0.003, 12);
  });
});

describe('the card form', () => {
  it('parses prices and clears on empty', () => {
    expect(parsePrice({ amount: ' 0.04 ', per: 'call', tokensPerCall: '' })).toEqual({ amount: 0.04, per: 'call' });
    expect(parsePrice({ amount: '0.5', per: '1k-tokens', tokensPerCall: '800' })).toEqual({ amount: 0.5, per: '1k-tokens', tokensPerCall: 800 });
    expect(parsePrice({ amount: '', per: 'call', tokensPerCall: '' })).toBeNull();
    expect(parseLatency('1200')).toBe(1200);
    expect(parseLatency('  ')).toBeNull();
  });

  it('rejects bad input with a specific message', () => {
    expect(() => parsePrice({ amount: '-1', per: 'call', tokensPerCall: '' })).toThrow(ValidationError);
    expect(() => parsePrice({ amount: '-1', per: 'call', tokensPerCall: '' })).toThrow('The price cannot be negative, got -1.');
    expect(() => parsePrice({ amount: 'abc', per: 'call', tokensPerCall: '' })).toThrow('The price must be a number like 0.04, got "abc".');
    expect(() => parsePrice({ amount: '1', per: '1k-tokens', tokensPerCall: '' })).toThrow('needs the tokens one call uses');
    expect(() => parsePrice({ amount: '1', per: '1k-tokens', tokensPerCall: '0' })).toThrow('whole number of at least 1');
    expect(() => parsePrice({ amount: '9999999', per: 'call', tokensPerCall: '' })).toThrow('at most 1,000,000');
    expect(() => parseLatency('1e3')).toThrow('The latency must be a number');
  });

  it('formats without long decimals', () => {
    expect(formatCost(0.04)).toBe('$0.04 per call');
    expect(formatCost(0.000084)).toBe('$84 per 1M calls');
    expect(formatCost(0.0000021234)).toBe('$2.12 per 1M calls');
    expect(formatCost(0)).toBe('$0 per call');
    expect(formatLatency(850.4)).toBe('850 ms');
    expect(formatLatency(2410)).toBe('2.41 s');
  });
});
