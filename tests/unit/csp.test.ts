/** Which origins the boot-time Content-Security-Policy lets the page connect to (src/ui/csp.ts). */
import { describe, expect, it } from 'vitest';
import { connectPolicy, connectSources, HUB_SOURCES, LOCAL_SOURCES } from '../../src/ui/csp';

describe('connect-src from the settings', () => {
  it('allows only local model servers when nothing is configured', () => {
    expect(connectSources({})).toEqual([...LOCAL_SOURCES]);
    expect(connectPolicy({ llmEngine: 'none', embeddingModel: 'glove-100d' })).toBe("connect-src 'self' blob: data: http://localhost:* http://127.0.0.1:*");
  });

  it('adds the origin of a configured OpenAI-compatible endpoint (not its path), and of the last used endpoint', () => {
    expect(connectSources({ llmEngine: 'openai:https://api.example.com/v1#gpt', llmEndpoint: { baseUrl: 'http://10.0.0.5:8000/v1', model: 'm' } })).toEqual([
      ...LOCAL_SOURCES,
      'https://api.example.com',
      'http://10.0.0.5:8000',
    ]);
  });

  it('adds the host of a remote GGUF file; the Hugging Face hub only when a hub model or WebLLM is chosen', () => {
    expect(connectSources({ llmEngine: 'wllama:https://models.example.org/m.gguf' })).toContain('https://models.example.org');
    expect(connectSources({ llmEngine: 'wllama:/models/m.gguf' })).toEqual([...LOCAL_SOURCES]);
    expect(connectSources({ embeddingModel: 'Xenova/all-MiniLM-L6-v2' })).toEqual([...LOCAL_SOURCES, ...HUB_SOURCES]);
    expect(connectSources({ llmEngine: 'webllm:Llama-3.2-1B-Instruct-q4f16_1-MLC' })).toEqual([...LOCAL_SOURCES, ...HUB_SOURCES]);
  });

  it('ignores unreadable or hostile values instead of widening the policy', () => {
    expect(connectSources({ llmEngine: 'openai:javascript:alert(1)#x', llmEndpoint: { baseUrl: 'data:text/html,hi' } })).toEqual([...LOCAL_SOURCES]);
    expect(connectSources({ llmEngine: 42, llmEndpoint: 'nope', embeddingModel: null })).toEqual([...LOCAL_SOURCES]);
    expect(connectPolicy({ llmEngine: "openai:https://x.test'; script-src *#m" })).not.toContain('script-src');
  });
});
