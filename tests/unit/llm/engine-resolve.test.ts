/**
 * One parsed EngineSpec and one resolveEngine (issue #16 item 4): specs are parsed where they enter,
 * checked when they cross a thread, and every host turns one into an engine through resolveEngine.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseBuildArgs } from '../../../src/cli/build-memory-args';
import { parse as parseEvalArgs } from '../../../src/cli/eval-args';
import { UsageError } from '../../../src/cli/io';
import {
  checkEngineSpec,
  EngineSpecError,
  formatEngineSpec,
  isNoEngine,
  LlmUnavailableError,
  NO_ENGINE,
  NoneEngine,
  OpenAiCompatibleEngine,
  parseEngineSpec,
  readEngineSpec,
  resolveEngine,
  ScriptedEngine,
  type EngineSpec,
} from '../../../src/core/llm';

describe('parsed engine specs', () => {
  it('tells no model from a model without comparing strings', () => {
    expect(isNoEngine(NO_ENGINE)).toBe(true);
    expect(isNoEngine(parseEngineSpec(' none '))).toBe(true);
    expect(isNoEngine(undefined)).toBe(true);
    expect(isNoEngine(parseEngineSpec('openai:http://h:1/v1#m'))).toBe(false);
  });

  it('reads stored strings: absent or empty is no model, a malformed one throws', () => {
    expect(readEngineSpec(undefined)).toEqual({ kind: 'none' });
    expect(readEngineSpec('')).toEqual({ kind: 'none' });
    expect(readEngineSpec('webllm:Qwen2.5-0.5B')).toEqual({ kind: 'webllm', model: 'Qwen2.5-0.5B' });
    expect(() => readEngineSpec('openai:not a url')).toThrow(EngineSpecError);
  });

  it('drops trailing slashes of an endpoint, so the canonical string is the engine id', () => {
    const spec = parseEngineSpec('openai:http://127.0.0.1:8080/v1/#qwen');
    expect(spec).toEqual({ kind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' });
    expect(formatEngineSpec(spec)).toBe('openai:http://127.0.0.1:8080/v1#qwen');
    expect(new OpenAiCompatibleEngine({ baseUrl: 'http://127.0.0.1:8080/v1/', model: 'qwen' }).id).toBe(formatEngineSpec(spec));
  });

  it('checks a spec that crossed a thread: what parsing would refuse, and unknown kinds', () => {
    expect(checkEngineSpec({ kind: 'openai', baseUrl: 'http://h:1/v1', model: 'm' })).toEqual({ kind: 'openai', baseUrl: 'http://h:1/v1', model: 'm' });
    expect(() => checkEngineSpec({ kind: 'openai', baseUrl: 'not a url', model: 'm' })).toThrow(/Unknown LLM engine/);
    expect(() => checkEngineSpec({ kind: 'magic' } as unknown as EngineSpec)).toThrow(/Unknown LLM engine kind 'magic'/);
  });
});

describe('resolveEngine', () => {
  it('gives the none engine for no model, whatever the host offers', async () => {
    const engine = await resolveEngine(NO_ENGINE, { engineOf: () => new ScriptedEngine(() => 'x') });
    expect(engine).toBeInstanceOf(NoneEngine);
  });

  it("takes the host's own engine first, and builds endpoints with the host's key and fetch", async () => {
    const scripted = new ScriptedEngine(() => '{"score": 3}');
    expect(await resolveEngine(parseEngineSpec('webllm:x'), { engineOf: (s) => (s.kind === 'webllm' ? scripted : null) })).toBe(scripted);
    const seen: { url: string; auth: string | null }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      seen.push({ url: String(input), auth: new Headers(init?.headers).get('Authorization') });
      return new Response(JSON.stringify({ choices: [{ message: { content: 'hi' } }], usage: { prompt_tokens: 2, completion_tokens: 1 } }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const engine = await resolveEngine(parseEngineSpec('openai:http://h:1/v1#m'), { engineOf: () => null, apiKey: async () => 'sk-test', fetch });
    expect(engine.id).toBe('openai:http://h:1/v1#m');
    expect((await engine.chat([{ role: 'user', content: 'hello' }])).text).toBe('hi');
    expect(seen).toEqual([{ url: 'http://h:1/v1/chat/completions', auth: 'Bearer sk-test' }]);
  });

  it('refuses in-browser engines where the host has none (the CLI), naming the alternative', async () => {
    await expect(resolveEngine(parseEngineSpec('wllama:/m.gguf'))).rejects.toThrow(LlmUnavailableError);
    await expect(resolveEngine(parseEngineSpec('webllm:x'), { engineOf: () => null })).rejects.toThrow(/runs only in the browser app/);
  });
});

describe('--llm is parsed once, by the CLI', () => {
  it('build-memory: none by default, an endpoint as a spec, browser engines refused', () => {
    expect(parseBuildArgs(['--data', 'd.json', '--out', 'm.json']).llm).toEqual({ kind: 'none' });
    expect(parseBuildArgs(['--data', 'd.json', '--out', 'm.json', '--llm', 'openai:http://h:1/v1/#m']).llm).toEqual({
      kind: 'openai',
      baseUrl: 'http://h:1/v1',
      model: 'm',
    });
    expect(() => parseBuildArgs(['--data', 'd.json', '--out', 'm.json', '--llm', 'webllm:x'])).toThrow(
      /runs only in the browser app; the CLI takes none or openai/,
    );
    expect(() => parseBuildArgs(['--data', 'd.json', '--out', 'm.json', '--llm', 'openai:nope'])).toThrow(UsageError);
    expect(() => parseBuildArgs(['--data', 'd.json', '--out', 'm.json', '--no-clusters'])).toThrow(/--no-clusters needs --llm/);
  });

  it('eval: an endpoint as a spec; none and browser engines refused with their messages', () => {
    expect(parseEvalArgs(['--data', 'd.json', '--llm', 'openai:http://h:1/v1#m']).llm).toEqual({ kind: 'openai', baseUrl: 'http://h:1/v1', model: 'm' });
    expect(() => parseEvalArgs(['--data', 'd.json', '--llm', 'none'])).toThrow(/--llm none runs no model/);
    expect(() => parseEvalArgs(['--data', 'd.json', '--llm', 'wllama:/m.gguf'])).toThrow(/the CLI takes openai:URL#MODEL \(a llama.cpp or Ollama server\)/);
  });
});
