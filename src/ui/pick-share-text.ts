/**
 * The Predict page's words for how often the pick beats the runner-up (core/predict/pick-share.ts):
 * "DALLE_3 does better on 71% of similar tasks", called uncertain only close to a half.
 */
import { isUncertain, type PickShare } from '../core/predict/pick-share';

export interface PickShareText {
  verdict: 'ahead' | 'uncertain' | 'behind';
  /** The statement, e.g. `DALLE_3 does better on 71% of similar tasks`. */
  text: string;
  /** What follows it: why it is uncertain, or how a pick that loses more often still leads. */
  aside: string;
  /** What it was counted from, e.g. `both tools' errors on the 50 held-out tasks most like this one`. */
  basis: string;
}

export function pickShareText(pick: string, runnerUp: string, s: PickShare): PickShareText {
  const where = s.source === 'similar' ? 'similar tasks' : 'held-out tasks';
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const basis = s.paired
    ? s.source === 'similar'
      ? `both tools' errors on the ${s.n.toLocaleString('en-US')} held-out tasks most like this one`
      : `both tools' errors on ${s.n.toLocaleString('en-US')} held-out tasks; too few are like this one`
    : `${s.n.toLocaleString('en-US')} pairings of the tools' errors on held-out tasks (they share no task)`;
  if (isUncertain(s.share)) return { verdict: 'uncertain', text: `${pick} does better on ${pct(s.share)} of ${where}`, aside: ', close to a coin toss', basis };
  if (s.share > 0.5) return { verdict: 'ahead', text: `${pick} does better on ${pct(s.share)} of ${where}`, aside: '', basis };
  // Ahead on average yet behind more often: the pick wins less often, by more.
  return {
    verdict: 'behind',
    text: `yet ${runnerUp} does better on ${pct(1 - s.share)} of ${where}`,
    aside: `: ${pick}'s lead comes from fewer, larger wins`,
    basis,
  };
}
