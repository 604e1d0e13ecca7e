/** `GET /v1/models` and the plain-language explanations Settings shows. */
import { describe, expect, it } from 'vitest';
import { explainLlmError, findModel, listModels, LlmConnectionError, LlmHttpError, LlmResponseError, modelsUrl } from '../../../src/core/llm';

const answer =
  (status: number, body: string): typeof fetch =>
  () =>
    Promise.resolve(new Response(body, { status }));

describe('listModels', () => {
  it('reads OpenAI and Ollama shapes, sorted and without duplicates', async () => {
    expect(modelsUrl('http://h:1/v1/')).toBe('http://h:1/v1/models');
    expect(modelsUrl('http://h:1')).toBe('http://h:1/v1/models');
    expect(await listModels('http://h/v1', { fetch: answer(200, '{"data": [{"id": "b"}, {"id": "a"}, {"id": "b"}]}') })).toEqual(['a', 'b']);
    expect(await listModels('http://h/v1', { fetch: answer(200, '{"models": [{"name": "qwen2.5:0.5b"}]}') })).toEqual(['qwen2.5:0.5b']);
  });

  it('names what went wrong', async () => {
    await expect(listModels('http://h/v1', { fetch: answer(404, 'not found') })).rejects.toBeInstanceOf(LlmHttpError);
    await expect(listModels('http://h/v1', { fetch: answer(200, '<html>') })).rejects.toBeInstanceOf(LlmResponseError);
    await expect(listModels('http://h/v1', { fetch: () => Promise.reject(new TypeError('Failed to fetch')) })).rejects.toBeInstanceOf(LlmConnectionError);
  });
});

describe('explainLlmError', () => {
  const ctx = { baseUrl: 'http://localhost:11434/v1', model: 'llama3', origin: 'http://127.0.0.1:4173' };
  it('tells "not running" from CORS, a wrong URL, a missing model and a refused key', () => {
    const down = new LlmConnectionError('Failed to fetch');
    expect(explainLlmError(down, ctx)).toMatchObject({
      kind: 'not-running',
      text: expect.stringMatching(/^Nothing answers at 'http:\/\/localhost:11434\/v1'\. Is the server running\?/) as unknown,
    });
    expect(explainLlmError(down, { ...ctx, reachable: true })).toMatchObject({
      kind: 'cors',
      text: expect.stringContaining('OLLAMA_ORIGINS=http://127.0.0.1:4173') as unknown,
    });
    expect(explainLlmError(new LlmHttpError('x', 404, 'not found'), ctx).kind).toBe('wrong-url');
    expect(explainLlmError(new LlmHttpError('x', 404, '{"error": "model \\"llama3\\" not found, try pulling it first"}'), ctx)).toMatchObject({
      kind: 'model-missing',
      text: expect.stringMatching(/^The server has no model called 'llama3'\./) as unknown,
    });
    expect(explainLlmError(new LlmHttpError('x', 401, ''), ctx).kind).toBe('auth');
    expect(explainLlmError(new LlmHttpError('x', 503, ''), ctx).kind).toBe('server');
  });

  it('finds a model ignoring case and an Ollama :latest tag', () => {
    expect(findModel(['Llama3:latest', 'qwen'], 'llama3')).toBe('Llama3:latest');
    expect(findModel(['qwen'], 'llama3')).toBeNull();
  });
});
