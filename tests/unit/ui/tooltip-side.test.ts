import { describe, expect, it } from 'vitest';
import { tipSide } from '../../../src/ui/tooltip-side';

describe('tipSide', () => {
  it('under the cell while it fits in the window', () => {
    // 100 + 20 + 6 + 150 = 276 ≤ 800.
    expect(tipSide({ top: 100, height: 20 }, 150, 800, 6)).toBe('below');
    // Exactly to the bottom edge: 624 + 20 + 6 + 150 = 800.
    expect(tipSide({ top: 624, height: 20 }, 150, 800, 6)).toBe('below');
  });

  it('above a cell near the bottom edge (74 px below, 694 above)', () => {
    expect(tipSide({ top: 700, height: 20 }, 150, 800, 6)).toBe('above');
    expect(tipSide({ top: 625, height: 20 }, 150, 800, 6)).toBe('above');
  });

  it('a tooltip taller than either side goes where there is more room', () => {
    // 474 px below, 294 above: below.
    expect(tipSide({ top: 300, height: 20 }, 900, 800, 6)).toBe('below');
    // 174 px below, 594 above: above.
    expect(tipSide({ top: 600, height: 20 }, 900, 800, 6)).toBe('above');
  });
});
