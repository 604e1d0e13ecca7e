/**
 * Test helper: replaces globalThis.fetch with one that refuses every non-file URL and records the
 * attempt, so a test proves the model loaded without network.
 */
import { vi } from 'vitest';

export function forbidNetwork(): { attempts: string[] } {
  const attempts: string[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file:')) {
      attempts.push(url);
      return Promise.reject(new Error(`network access attempted in an offline test: ${url}`));
    }
    return realFetch(input, init);
  });
  return { attempts };
}
