import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../src/core/errors';
import { ModelLoadError, isModelLoadError, normaliseModelId } from '../../../src/model-host/embed-api';
import { toModelLoadError } from '../../../src/model-host/embed-errors';
import { deserializeError, serializeError } from '../../../src/rpc';

const HUB = 'Xenova/all-MiniLM-L6-v2';

describe('toModelLoadError', () => {
  it('says "offline" for fetch failures of a hub model, in any browser or Node', () => {
    for (const err of [
      new TypeError('Failed to fetch'),
      new TypeError('NetworkError when attempting to fetch resource.'),
      new TypeError('Load failed'),
      Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND' }) }),
    ]) {
      const e = toModelLoadError(err, HUB, 'hub');
      expect(e, err.message).toMatchObject({ name: 'ModelLoadError', reason: 'offline', model: HUB });
      expect(e.message).toContain('no network connection');
    }
    expect(toModelLoadError(new Error('anything'), HUB, 'hub', false)).toMatchObject({ reason: 'offline' });
  });

  it('says "not found" for 401/403/404 from the hub', () => {
    const notFound = Object.assign(new Error('Could not locate file: "https://huggingface.co/x/y/resolve/main/config.json".'), {
      name: 'ModelFileNotFoundError',
      status: 404,
    });
    const e = toModelLoadError(notFound, 'x/y', 'hub');
    expect(e).toMatchObject({ reason: 'not-found' });
    expect(e.message).toContain('Check the id');
    expect(toModelLoadError(Object.assign(new Error('Unauthorized access to file'), { status: 401 }), 'x/y', 'hub')).toMatchObject({ reason: 'not-found' });
  });

  it('keeps other failures with their message, and passes ModelLoadError / CancelledError through', () => {
    expect(toModelLoadError(new Error('bad protobuf'), 'glove-100d', 'bundled')).toMatchObject({
      reason: 'failed',
      message: expect.stringContaining('bad protobuf'),
    });
    const own = new ModelLoadError('x', 'invalid', 'm');
    expect(toModelLoadError(own, 'm', 'hub')).toBe(own);
    const cancelled = new CancelledError();
    expect(toModelLoadError(cancelled, 'm', 'hub')).toBe(cancelled);
  });

  it('survives the worker boundary with its reason and model', () => {
    const rebuilt = deserializeError(serializeError(new ModelLoadError('offline!', 'offline', HUB)));
    expect(isModelLoadError(rebuilt)).toBe(true);
    expect(rebuilt).toMatchObject({ name: 'ModelLoadError', message: 'offline!', reason: 'offline', model: HUB });
  });
});

describe('normaliseModelId', () => {
  it('accepts folder names and owner/name hub ids, trimmed', () => {
    expect(normaliseModelId(' glove-100d ')).toBe('glove-100d');
    expect(normaliseModelId(HUB)).toBe(HUB);
    expect(normaliseModelId('BAAI/bge-small-en-v1.5')).toBe('BAAI/bge-small-en-v1.5');
  });
  it('rejects paths, URLs, blanks and non-strings', () => {
    for (const bad of ['', '..', 'a/../b', '/abs', 'a/b/c', 'http://x/y', 'a b', 'x'.repeat(201), 42, null]) {
      expect(() => normaliseModelId(bad), String(bad)).toThrow(ModelLoadError);
    }
  });
});
