import { describe, expect, it } from 'vitest';
import { createEngine, ENGINE_KINDS, ENGINES, engineConnections, httpOrigin, isBrowserEngine, parseEngineSpec } from '../../../src/core/llm';

// Issue #29: one table of engine kinds; what differs by kind is read from its row.
describe('the engine table', () => {
  it('has one row per kind, keyed by its own kind, in the order Settings offers them', () => {
    expect(ENGINE_KINDS).toEqual(['none', 'openai', 'wllama', 'webllm']);
    for (const k of ENGINE_KINDS) expect(ENGINES[k].kind).toBe(k);
    expect(ENGINE_KINDS.map((k) => [k, ENGINES[k].runs, ENGINES[k].needs])).toEqual([
      ['none', 'anywhere', 'nothing'],
      ['openai', 'anywhere', 'endpoint'],
      ['wllama', 'browser', 'wasm'],
      ['webllm', 'browser', 'webgpu'],
    ]);
  });

  it('where an engine runs decides isBrowserEngine and what createEngine refuses', () => {
    const specs = ['none', 'openai:http://127.0.0.1:8080/v1#m', 'wllama:/models/tiny.gguf', 'webllm:Qwen2.5-0.5B-Instruct-q4f16_1-MLC'].map(parseEngineSpec);
    expect(specs.map(isBrowserEngine)).toEqual([false, false, true, true]);
    expect(() => createEngine(specs[3]!)).toThrow('The WebLLM engine runs only in the browser app');
    expect(() => createEngine(specs[2]!)).toThrow('The wllama engine runs only in the browser app');
  });

  it('names the origins each spec reaches (the CSP reads them)', () => {
    const reach = (text: string) => engineConnections(parseEngineSpec(text));
    expect(reach('none')).toEqual({ origins: [], hub: false });
    expect(reach('openai:https://api.example.com/v1/#gpt')).toEqual({ origins: ['https://api.example.com'], hub: false });
    expect(reach('wllama:https://files.example.org:8443/m/tiny.gguf;ctx=512')).toEqual({ origins: ['https://files.example.org:8443'], hub: false });
    expect(reach('wllama:/models/tiny.gguf')).toEqual({ origins: [], hub: false });
    expect(reach('wllama:file:tiny.gguf')).toEqual({ origins: [], hub: false });
    expect(reach('webllm:Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toEqual({ origins: [], hub: true });
    expect([httpOrigin('ftp://x.example/a'), httpOrigin(42), httpOrigin('not a url')]).toEqual([null, null, null]);
  });
});
