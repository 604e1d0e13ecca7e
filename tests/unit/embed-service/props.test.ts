// `prop` (src/core/props.ts): the checked reader the embed hosts use on library objects.
import { describe, expect, it } from 'vitest';
import { prop } from '../../../src/core/props';

describe('prop', () => {
  it('reads own members, inherited getters (as navigator.gpu is) and members of functions', () => {
    class Gpu {
      get adapter() {
        return 'from the prototype';
      }
    }
    const callable = Object.assign(() => 1, { tokenizer: 'on a function' });
    expect(prop({ config: { hidden_size: 384 } }, 'config')).toEqual({ hidden_size: 384 });
    expect(prop(prop({ config: { hidden_size: 384 } }, 'config'), 'hidden_size')).toBe(384);
    expect(prop(new Gpu(), 'adapter')).toBe('from the prototype');
    expect(prop(callable, 'tokenizer')).toBe('on a function');
  });

  it('answers undefined for a missing member and for anything that is not an object or a function', () => {
    expect(prop({}, 'sessions')).toBeUndefined();
    for (const x of [undefined, null, 3, 'text', true]) expect(prop(x, 'length')).toBeUndefined();
    expect(prop(prop(undefined, 'sessions'), 'model')).toBeUndefined();
  });
});
