import { describe, expect, it } from 'vitest';
import {
  createEngine,
  describeEngineSpec,
  EngineSpecError,
  formatEngineSpec,
  isBrowserEngine,
  LlmUnavailableError,
  parseEngineSpec,
} from '../../../src/core/llm';

describe('engine specs', () => {
  it('parses the in-browser engines with their options and prints them back canonically', () => {
    const w = parseEngineSpec('wllama:/test-models/tiny.gguf;bias=3-258:-100;ctx=2048');
    expect(w).toEqual({ kind: 'wllama', source: '/test-models/tiny.gguf', bias: { from: 3, to: 258, value: -100 }, contextSize: 2048 });
    expect(formatEngineSpec(w)).toBe('wllama:/test-models/tiny.gguf;bias=3-258:-100;ctx=2048');
    expect(parseEngineSpec('wllama:file:qwen2.5-0.5b-q4.gguf')).toEqual({ kind: 'wllama', source: 'file:qwen2.5-0.5b-q4.gguf' });
    expect(parseEngineSpec('wllama:https://example.org/m.gguf')).toEqual({ kind: 'wllama', source: 'https://example.org/m.gguf' });
    expect(parseEngineSpec(' webllm:Qwen2.5-0.5B-Instruct-q4f16_1-MLC ')).toEqual({ kind: 'webllm', model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' });
    for (const text of ['none', 'openai:http://127.0.0.1:8080/v1#m', 'webllm:Llama-3.2-1B-Instruct-q4f16_1-MLC', 'wllama:file:a.gguf;ctx=512']) {
      expect(formatEngineSpec(parseEngineSpec(text))).toBe(text);
    }
  });

  it('names what is wrong in a bad spec', () => {
    expect(() => parseEngineSpec('wllama:model.gguf')).toThrow(/Bad wllama model source 'model.gguf'/);
    expect(() => parseEngineSpec('wllama:/m.gguf;bias=9-3:-100')).toThrow(/first id must not exceed the last/);
    expect(() => parseEngineSpec('wllama:/m.gguf;temp=1')).toThrow(/Unknown wllama option 'temp=1'/);
    expect(() => parseEngineSpec('wllama:/m.gguf;ctx=12')).toThrow(EngineSpecError);
    expect(() => parseEngineSpec('webllm:bad id')).toThrow(/Bad WebLLM model id/);
  });

  it('describes specs for people and keeps browser engines out of Node', () => {
    expect(describeEngineSpec(parseEngineSpec('openai:http://localhost:11434/v1#qwen2.5:7b'))).toBe('qwen2.5:7b at localhost:11434');
    expect(describeEngineSpec(parseEngineSpec('wllama:/models/tiny.gguf'))).toBe('tiny.gguf (wllama, CPU)');
    expect(describeEngineSpec(parseEngineSpec('wllama:file:my model.gguf'))).toBe('my model.gguf (wllama, CPU)');
    expect(isBrowserEngine(parseEngineSpec('webllm:x'))).toBe(true);
    expect(isBrowserEngine(parseEngineSpec('none'))).toBe(false);
    expect(() => createEngine(parseEngineSpec('wllama:/m.gguf'))).toThrow(LlmUnavailableError);
    expect(() => createEngine(parseEngineSpec('webllm:x'))).toThrow(/runs only in the browser/);
  });
});
