import { expect, type Locator } from '@playwright/test';
import { AppPage } from './app-page';

/** The Evaluate page: the form, the leaderboard and verdict, the charts and the task list (drill-down). */
export class EvaluatePage extends AppPage {
  readonly form = this.page.getByRole('form', { name: 'New evaluation' });
  readonly summary = this.page.getByTestId('eval-summary');
  readonly verdict = this.page.getByTestId('eval-verdict');

  /** The leaderboard row of a method (its accessible name starts with the method). */
  row(method: string): Locator {
    return this.summary.getByRole('row', { name: new RegExp(`^${method} `) });
  }

  /** The results' heading: a finished run brings the view and the focus to it. */
  readonly resultsHeading = this.page.getByRole('heading', { name: 'Results', level: 2 });
  /** The cost–quality plane's sentence (its frontier, the best selector for no more than the best tool, the oracle). */
  readonly planeSummary = this.page.getByTestId('cost-plane-summary');

  readonly drilldown = this.page.getByRole('dialog', { name: /^Tasks behind/ });

  chart(title: string | RegExp): Locator {
    return this.page.locator('figure').filter({ hasText: title });
  }

  /** Opens the folded charts (predicted vs true, pair accuracy, top-k), drawn only once opened. */
  async openMoreCharts(): Promise<void> {
    const fold = this.page.getByTestId('eval-more-charts');
    if ((await fold.getAttribute('open')) === null) await fold.locator('> summary').click();
    await expect(this.chart('Predicted vs true').locator('canvas')).toBeVisible();
  }

  /**
   * How many pixels of a chart's canvas are each colour ("#RRGGBB", within 6 per channel: the
   * insides of filled markers are drawn exactly, their edges blend with the background).
   */
  canvasColours(canvas: Locator, colours: string[]): Promise<number[]> {
    return canvas.evaluate((el: HTMLCanvasElement, hex: string[]) => {
      const { data } = el.getContext('2d')!.getImageData(0, 0, el.width, el.height);
      const rgb = hex.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
      const counts = rgb.map(() => 0);
      for (let p = 0; p < data.length; p += 4) {
        rgb.forEach((c, k) => {
          if (data[p + 3]! > 250 && Math.abs(data[p]! - c[0]!) <= 6 && Math.abs(data[p + 1]! - c[1]!) <= 6 && Math.abs(data[p + 2]! - c[2]!) <= 6) counts[k]!++;
        });
      }
      return counts;
    }, colours);
  }

  /** Ticks the methods in `on` and unticks those in `off` (checkbox labels are the method ids). */
  async chooseMethods(on: string[], off: string[] = []): Promise<void> {
    for (const m of off) await this.form.getByLabel(m, { exact: true }).uncheck();
    for (const m of on) await this.form.getByLabel(m, { exact: true }).check();
  }

  /** Fills the split: training and test tasks per seed, and how many seeds. */
  async fillSplit(train: number, test: number, seeds: number): Promise<void> {
    await this.form.getByLabel('Training tasks').fill(String(train));
    await this.form.getByLabel('Test tasks').fill(String(test));
    await this.form.getByLabel('Seeds').fill(String(seeds));
  }

  /** Runs the evaluation with the form as it is, and waits for the leaderboard. */
  async run(timeout = 120_000): Promise<void> {
    await this.form.getByRole('button', { name: 'Run evaluation' }).click();
    await expect(this.page.getByRole('status').filter({ hasText: 'Evaluation finished.' })).toBeVisible({ timeout });
    await expect(this.summary).toBeVisible();
  }

  /** Height of the page's content: the app scrolls inside <main>, so the document itself is only the viewport tall. */
  contentHeight(): Promise<{ document: number; main: number }> {
    return this.page.evaluate(() => ({ document: document.documentElement.scrollHeight, main: document.querySelector('main')!.scrollHeight }));
  }

  /**
   * Elements that stick out of the viewport sideways, leaving out those inside a horizontally
   * scrolling wrapper (tables, the navigation list), which are meant to scroll.
   */
  overflowing(): Promise<string[]> {
    return this.page.evaluate(() => {
      const vw = document.documentElement.clientWidth;
      const scrolls = (el: Element) => {
        for (let p = el.parentElement; p && p.tagName !== 'MAIN' && p !== document.body; p = p.parentElement)
          if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
        return false;
      };
      return [...document.querySelectorAll('main *')]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.right > vw + 1 || r.left < -1) && !scrolls(el);
        })
        .slice(0, 10)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`);
    });
  }
}
