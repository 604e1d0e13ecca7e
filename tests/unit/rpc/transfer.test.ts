import { describe, expect, it } from 'vitest';
import { collectTransferables, isTransferred, transfer } from '../../../src/rpc';
import { unwrapReply } from '../../../src/rpc/transfer';

describe('collectTransferables', () => {
  it('finds the buffer of a typed array, a DataView or an ArrayBuffer at the top level', () => {
    const floats = new Float32Array(4);
    const view = new DataView(new ArrayBuffer(8));
    const raw = new ArrayBuffer(2);
    expect(collectTransferables(floats)).toEqual([floats.buffer]);
    expect(collectTransferables(view)[0]).toBe(view.buffer);
    expect(collectTransferables(raw)[0]).toBe(raw);
  });

  it('looks one level into arrays and plain objects, without duplicates', () => {
    const a = new Float32Array(2);
    const b = new Uint8Array(3);
    const alias = new Uint8Array(a.buffer); // same buffer as `a`
    const fromArray = collectTransferables([a, b, alias, 'text', 1]);
    expect(fromArray).toHaveLength(2);
    expect(fromArray[0]).toBe(a.buffer);
    expect(fromArray[1]).toBe(b.buffer);
    const fromObject = collectTransferables({ vectors: a, ids: ['x'], count: 2 });
    expect(fromObject).toHaveLength(1);
    expect(fromObject[0]).toBe(a.buffer);
  });

  it('does not search deeper than one level, class instances or shared memory', () => {
    class Holder {
      constructor(readonly data = new Float32Array(1)) {}
    }
    expect(collectTransferables({ nested: { deep: new Float32Array(1) } })).toEqual([]);
    expect(collectTransferables([[new Float32Array(1)]])).toEqual([]);
    expect(collectTransferables(new Holder())).toEqual([]);
    expect(collectTransferables(new Int32Array(new SharedArrayBuffer(8)))).toEqual([]);
    expect(collectTransferables(null)).toEqual([]);
    expect(collectTransferables(42)).toEqual([]);
  });
});

describe('transfer', () => {
  it('wraps a value with its transfer list, and unwrapReply splits it again', () => {
    const floats = new Float32Array([1, 2]);
    const marked = transfer({ floats }, [floats.buffer]);
    expect(isTransferred(marked)).toBe(true);
    expect(unwrapReply(marked)).toEqual({ value: { floats }, transferables: [floats.buffer] });
    expect(isTransferred({ value: 1, transferables: [] })).toBe(false);
    expect(unwrapReply(7)).toEqual({ value: 7, transferables: [] });
  });
});
