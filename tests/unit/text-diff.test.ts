import { describe, expect, it } from 'vitest';
import { diffWords } from '../../src/core/text-diff';

describe('diffWords', () => {
  it('marks added and removed words and keeps the rest', () => {
    expect(diffWords('good at simple scenes', 'good at busy street scenes')).toEqual([
      { kind: 'same', text: 'good at ' },
      { kind: 'removed', text: 'simple ' },
      { kind: 'added', text: 'busy street ' },
      { kind: 'same', text: 'scenes' },
    ]);
  });
  it('handles empty sides', () => {
    expect(diffWords('', 'new text')).toEqual([{ kind: 'added', text: 'new text' }]);
    expect(diffWords('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
  });
});
