import { describe, expect, it } from 'vitest';
import { CancelledError, ParseError, StorageFullError, ToolMemError, ValidationError } from '../../../src/core/errors';
import { deserializeError, serializeError, UnknownMethodError, WorkerCrashedError } from '../../../src/rpc';

/** What the client receives: serialized, then structured-cloned by postMessage. */
const roundTrip = (error: unknown): Error => deserializeError(structuredClone(serializeError(error)));

describe('serializeError / deserializeError', () => {
  it('rebuilds every named class with its message', () => {
    for (const original of [
      new ToolMemError('base'),
      new ValidationError('score 7 outside 1..5'),
      new CancelledError(),
      new StorageFullError('quota'),
      new WorkerCrashedError('gone'),
    ]) {
      const rebuilt = roundTrip(original);
      expect(rebuilt).toBeInstanceOf(original.constructor);
      expect(rebuilt.name).toBe(original.name);
      expect(rebuilt.message).toBe(original.message);
      expect(rebuilt.stack).toBe(original.stack);
    }
  });

  it('keeps extra own fields (ParseError file/row, UnknownMethodError method)', () => {
    const parse = roundTrip(new ParseError('bad row', 'data.csv', 12)) as ParseError;
    expect(parse).toBeInstanceOf(ParseError);
    expect([parse.file, parse.row, parse.message]).toEqual(['data.csv', 12, 'bad row']);

    const unknown = roundTrip(new UnknownMethodError('embed')) as UnknownMethodError;
    expect(unknown).toBeInstanceOf(UnknownMethodError);
    expect(unknown.method).toBe('embed');
    expect(unknown.message).toBe('Unknown RPC method "embed"');
  });

  it('rebuilds unknown names as ToolMemError keeping the original name and fields', () => {
    const original = Object.assign(new RangeError('too big'), { limit: 10 });
    const rebuilt = roundTrip(original);
    expect(rebuilt).toBeInstanceOf(ToolMemError);
    expect(rebuilt.name).toBe('RangeError');
    expect(rebuilt.message).toBe('too big');
    expect((rebuilt as unknown as { limit: number }).limit).toBe(10);
    expect(String(rebuilt)).toBe('RangeError: too big');
  });

  it('drops fields that cannot be cloned instead of failing', () => {
    const original = Object.assign(new ValidationError('bad'), { fix: () => 1, column: 'score' });
    const serialized = serializeError(original);
    expect(serialized.fields).toEqual({ column: 'score' });
    expect(() => structuredClone(serialized)).not.toThrow();
  });

  it('keeps an error cause', () => {
    const original = new ToolMemError('import failed', { cause: new ParseError('bad', 'a.json', 2) });
    const rebuilt = roundTrip(original);
    expect(rebuilt.cause).toBeInstanceOf(ParseError);
    expect((rebuilt.cause as ParseError).file).toBe('a.json');
  });

  it('serializes thrown non-errors', () => {
    expect(roundTrip('just a string')).toMatchObject({ name: 'Error', message: 'just a string' });
    expect(roundTrip({ code: 5 })).toMatchObject({ name: 'Error', message: '{"code":5}' });
    expect(roundTrip(undefined)).toMatchObject({ name: 'Error', message: 'undefined' });
  });

  it('does not let a field named __proto__ change the prototype', () => {
    const rebuilt = deserializeError({
      name: 'ValidationError',
      message: 'x',
      fields: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>,
    });
    expect(rebuilt).toBeInstanceOf(ValidationError);
    expect((rebuilt as unknown as { polluted?: boolean }).polluted).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
