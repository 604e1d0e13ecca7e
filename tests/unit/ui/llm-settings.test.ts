import { afterEach, describe, expect, it, vi } from 'vitest';
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

/** The endpoint's `GET /v1/models` answers with these models (or fails like a refused connection); returns the URLs asked. */
function serve(models: string[] | null): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(String(url));
    if (models === null) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify({ data: models.map((id) => ({ id })) }), { status: 200 });
  });
  return asked;
}
afterEach(() => void vi.unstubAllGlobals());

describe('LlmSettingsState (Settings → Language model)', () => {
  it('shows the stored endpoint, and says "none" when nothing is chosen', async () => {
    const none = new LlmSettingsState(store(), createSend({}));
    await none.load();
    expect([none.kind, none.problem, none.spec()]).toEqual(['none', null, 'none']);
    const s = new LlmSettingsState(
      store({ llmEngine: 'openai:http://localhost:8080/v1#qwen', llmEndpoint: { baseUrl: 'http://localhost:8080/v1', model: 'qwen' }, llmApiKey: 'k' }),
      createSend({}),
    );
    await s.load();
    expect([s.kind, s.baseUrl, s.model, s.apiKey, s.saved]).toEqual([
      'openai',
      'http://localhost:8080/v1',
      'qwen',
      'k',
      'openai:http://localhost:8080/v1#qwen',
    ]);
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
    serve(['llama3']);
    await s.testConnection();
    expect(await s.save()).toBe(true);
    expect(st.values.get('llmEndpoint')).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'llama3' });
    expect([st.values.get('llmEngine'), s.saved]).toEqual(['openai:http://localhost:11434/v1#llama3', 'openai:http://localhost:11434/v1#llama3']);
  });

  it('a form the user has touched is not overwritten by the stored values arriving late', async () => {
    const s = new LlmSettingsState(
      store({ llmEngine: 'openai:http://a.example/v1#m', llmEndpoint: { baseUrl: 'http://a.example/v1', model: 'm' } }),
      createSend({}),
    );
    s.touch();
    s.model = 'typed';
    await s.load();
    expect([s.kind, s.model, s.saved]).toEqual(['none', 'typed', 'openai:http://a.example/v1#m']);
  });

  it('"Use this model" only after a passing test of the same settings; an edit or a failed test takes it back', async () => {
    const s = new LlmSettingsState(store(), createSend({}));
    s.kind = 'openai';
    s.baseUrl = 'http://localhost:11434/v1';
    s.model = 'llama3';
    expect([s.problem, s.tested]).toEqual([null, false]);
    expect(s.untested).toMatch(/^Press "Test connection"/);
    expect(await s.save()).toBe(false);
    serve(['llama3', 'qwen']);
    await s.testConnection();
    expect([s.tested, s.untested]).toEqual([true, null]);
    s.model = 'qwen'; // another model the server lists: still tested
    expect(s.tested).toBe(true);
    s.apiKey = 'k'; // another key: the listing was not made with it
    expect(s.tested).toBe(false);
    s.apiKey = '';
    s.model = 'mistral'; // not on the server
    expect(s.tested).toBe(false);
    s.model = 'llama3';
    serve(null);
    await s.testConnection(); // the server went away: the earlier pass is gone
    expect(s.tested).toBe(false);
    expect(s.error).toMatch(/Nothing answers at/);
  });

  it('a port the browser blocks is named before any request, and its failure is explained the same way', async () => {
    const s = new LlmSettingsState(store(), createSend({}));
    s.kind = 'openai';
    s.baseUrl = 'http://localhost:9/v1';
    s.model = 'm';
    const asked = serve(['m']);
    await s.testConnection();
    expect(asked).toEqual([]);
    expect(s.error).toBe(
      "The browser refuses to connect to port 9 (it blocks this port for safety), so 'http://localhost:9/v1' cannot be reached from this page. Use another port, e.g. 11434 (Ollama's default).",
    );
    expect(s.tested).toBe(false);
  });
});
