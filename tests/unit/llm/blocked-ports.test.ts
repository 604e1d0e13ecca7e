import { describe, expect, it } from 'vitest';
import { blockedPort, BLOCKED_PORTS, explainLlmError, LlmConnectionError } from '../../../src/core/llm';

describe('blocked ports (the Fetch Standard list browsers refuse)', () => {
  it('finds a refused port in an http(s) address; default and ordinary ports pass', () => {
    expect(blockedPort('http://localhost:9/v1')).toBe(9);
    expect(blockedPort(' https://127.0.0.1:6667 ')).toBe(6667);
    expect(blockedPort('http://localhost:11434/v1')).toBeNull();
    expect(blockedPort('http://localhost/v1')).toBeNull(); // 80, the default
    expect(blockedPort('not a url')).toBeNull();
    expect(BLOCKED_PORTS.size).toBe(83);
  });

  it('a failed request to such a port says the browser refused it, not "is the server running?"', () => {
    const err = new LlmConnectionError('Cannot reach', 'http://localhost:25/v1/models');
    expect(explainLlmError(err, { baseUrl: 'http://localhost:25/v1' })).toEqual({
      kind: 'blocked-port',
      text: "The browser refuses to connect to port 25 (it blocks this port for safety), so 'http://localhost:25/v1' cannot be reached from this page. Use another port, e.g. 11434 (Ollama's default).",
    });
    expect(explainLlmError(err, { baseUrl: 'http://localhost:8080/v1' }).kind).toBe('not-running');
  });
});
