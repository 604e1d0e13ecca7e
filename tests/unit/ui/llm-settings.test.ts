import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/db/settings';
import type { SettingsStore } from '../../../src/ui/storage';
import { LlmSettingsState } from '../../../src/ui/llm-settings.svelte';
import { createSend } from '../../../src/ui/send';

/** Settings in a Map, as the state class sees them through SettingsStore. */
function store(initial: Partial<Settings> = {}): SettingsStore & { values: Map<keyof Settings, unknown> } {
  const values = new Map<keyof Settings, unknown>(Object.entries({ ...DEFAULT_SETTINGS, ...initial }) as [keyof Settings, unknown][]);
  return {
    values,
    get: async (key) => values.get(key) as never,
    set: async (key, value) => void values.set(key, value),
  };
}

describe('LlmSettingsState (Settings → Language model)', () => {
  it('shows the stored endpoint, and says "none" when nothing is chosen', async () => {
    const none = new LlmSettingsState(store(), createSend({}));
    await none.load();
    expect([none.kind, none.problem, none.spec()]).toEqual(['none', null, 'none']);
    const s = new LlmSettingsState(store({ llmEngine: 'openai:http://localhost:8080/v1#qwen', llmEndpoint: { baseUrl: 'http://localhost:8080/v1', model: 'qwen' }, llmApiKey: 'k' }), createSend({}));
    await s.load();
    expect([s.kind, s.baseUrl, s.model, s.apiKey, s.saved]).toEqual(['openai', 'http://localhost:8080/v1', 'qwen', 'k', 'openai:http://localhost:8080/v1#qwen']);
  });

  it('says what the form still needs, field by field, before anything is tried', () => {
    const s = new LlmSettingsState(store(), createSend({}));
    s.kind = 'openai';
    s.baseUrl = '';
    expect(s.problem).toBe('Enter the address of the server, e.g. http://localhost:11434/v1.');
    s.baseUrl = 'localhost:11434';
    expect(s.problem).toBe("The address 'localhost:11434' is not a web address: it starts with http:// or https://.");
    s.baseUrl = 'http://localhost:11434/v1';
    expect(s.problem).toMatch(/^Enter a model name/);
    s.model = 'llama3';
    expect(s.problem).toBeNull();
    s.kind = 'wllama';
    expect(s.problem).toBe('Enter the URL of a .gguf model file (https://… or /models/name.gguf).');
    s.kind = 'webllm';
    expect(s.problem).toBe('Choose a WebLLM model.');
  });

  it('saves only a complete form (endpoint, key and spec), and an error stays with its engine', async () => {
    const st = store();
    const s = new LlmSettingsState(st, createSend({}));
    s.kind = 'openai';
    s.baseUrl = 'http://localhost:11434/v1 ';
    s.model = '';
    expect(await s.save()).toBe(false);
    expect(s.error).toMatch(/^Enter a model name/);
    expect(st.values.get('llmEngine')).toBe('none');
    s.kind = 'webllm';
    expect(s.error).toBeNull(); // the openai error is not shown for another engine
    s.kind = 'openai';
    s.model = ' llama3 ';
    expect(await s.save()).toBe(true);
    expect(st.values.get('llmEndpoint')).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'llama3' });
    expect([st.values.get('llmEngine'), s.saved]).toEqual(['openai:http://localhost:11434/v1#llama3', 'openai:http://localhost:11434/v1#llama3']);
  });

  it('a form the user has touched is not overwritten by the stored values arriving late', async () => {
    const s = new LlmSettingsState(store({ llmEngine: 'openai:http://a.example/v1#m', llmEndpoint: { baseUrl: 'http://a.example/v1', model: 'm' } }), createSend({}));
    s.touch();
    s.model = 'typed';
    await s.load();
    expect([s.kind, s.model, s.saved]).toEqual(['none', 'typed', 'openai:http://a.example/v1#m']);
  });
});
