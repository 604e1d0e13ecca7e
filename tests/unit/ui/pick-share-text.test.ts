import { describe, expect, it } from 'vitest';
import { pickShareText } from '../../../src/ui/pick-share-text';

describe('pickShareText', () => {
  it('says how often the pick does better, uncertain only near a half', () => {
    expect(pickShareText('DALLE_3', 'SDXL_Base', { share: 0.71, n: 50, source: 'similar', paired: true })).toEqual({
      verdict: 'ahead',
      text: 'DALLE_3 does better on 71% of similar tasks',
      aside: '',
      basis: "both tools' errors on the 50 held-out tasks most like this one",
    });
    expect(pickShareText('A', 'B', { share: 0.525, n: 20, source: 'overall', paired: true })).toEqual({
      verdict: 'uncertain',
      text: 'A does better on 53% of held-out tasks',
      aside: ', close to a coin toss',
      basis: "both tools' errors on 20 held-out tasks; too few are like this one",
    });
    expect(pickShareText('A', 'B', { share: 0.3, n: 400, source: 'overall', paired: false })).toEqual({
      verdict: 'behind',
      text: 'yet B does better on 70% of held-out tasks',
      aside: ": A's lead comes from fewer, larger wins",
      basis: "400 pairings of the tools' errors on held-out tasks (they share no task)",
    });
  });
});
