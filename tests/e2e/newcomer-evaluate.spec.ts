/**
 * Issue #38 on the Evaluate page: one verdict that agrees with the cost–quality plane's sentence,
 * the view brought to the new result after Run, and a results page that stays short, summary first.
 */
import { test, expect } from './support/fixtures';
import { shootBoth } from './support/screens';

test('the demo evaluation: one verdict that agrees with the cost text, the view at the result, short and summary first', async ({ page, demo, evaluate }) => {
  test.setTimeout(420_000);
  void demo;
  await evaluate.goTo('Evaluate');
  // Run from the form's button, scrolled to as a person would (it sits below the fold).
  const run = evaluate.form.getByRole('button', { name: 'Run evaluation' });
  await run.scrollIntoViewIfNeeded();
  await run.click();
  await expect(page.getByRole('status').filter({ hasText: 'Evaluation finished.' })).toBeVisible({ timeout: 360_000 });

  // The view moved to the new result: its heading in view and focused (the verdict under it).
  await expect(evaluate.resultsHeading).toBeInViewport();
  await expect(evaluate.resultsHeading).toBeFocused();
  await expect(evaluate.verdict).toBeInViewport();

  // One verdict: when the plane finds a selector as good as the best tool for no more, the headline says the same.
  const verdict = (await evaluate.verdict.textContent())!;
  const plane = (await evaluate.planeSummary.textContent())!;
  console.log(`verdict: ${verdict}\nplane: ${plane}`);
  const forNoMore =
    /for no more, the best selector is (\S+ at λ [\d.]+) \([^)]*\): ([\d.]+ (higher|lower)|the same score) \(95% interval −?[\d.]+ to −?[\d.]+ over [\d,]+ tasks of one seed: (clearly better, though the best of \d+ selector points|clearly worse|not a clear difference)\)/.exec(
      plane,
    );
  expect(forNoMore, plane).not.toBeNull();
  const [, point, , direction, said] = forNoMore!;
  if (said!.startsWith('clearly better')) expect(verdict).toContain(`${point} picks tools clearly better than always choosing`);
  else if (direction === 'higher' || said === 'not a clear difference') {
    // Not "no method picks tools better" above a plane that says one scores higher for less.
    if (!/picks tools (clearly |slightly )?better than always choosing/.test(verdict))
      expect(verdict).toContain(`counting cost, ${point} matches always choosing`);
  }
  // When the headline reports the plane's point, it gives the plane's own verdict on the difference.
  if (verdict.includes(point!)) expect(verdict).toContain(said!);

  // Short, with the summary first, at 1280 and on a phone.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    expect((await evaluate.contentHeight()).main, `results at ${width} px`).toBeLessThanOrEqual(5000);
    expect((await evaluate.summary.boundingBox())!.y).toBeLessThan((await evaluate.form.boundingBox())!.y);
  }
  // The predicted-vs-true chart, opened, for the screenshots (its ticks: 1, 2, 3, 4, 5).
  await page.setViewportSize({ width: 1280, height: 800 });
  await evaluate.openMoreCharts();
  await shootBoth(page, 'evaluate-result');
});
