/**
 * Which side of its anchor (a matrix cell) a tooltip goes: under it, unless that would run past
 * the bottom of the window and above has more room (issue #28: the last rows' tooltip ran off the
 * window). Window coordinates; pure, so the rule is tested without a browser.
 */
export function tipSide(anchor: { top: number; height: number }, tipHeight: number, windowHeight: number, gap: number): 'below' | 'above' {
  const roomBelow = windowHeight - (anchor.top + anchor.height + gap);
  const roomAbove = anchor.top - gap;
  return tipHeight > roomBelow && roomAbove > roomBelow ? 'above' : 'below';
}
