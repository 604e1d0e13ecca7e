import { expect, test, type Page } from '@playwright/test';
import { sidewaysScroll } from './layout-checks';

/** The elements that stick out of the window on the right, outside a region that scrolls sideways on purpose (for the message). */
function widest(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const scrolls = (el: Element) => {
      for (let p = el.parentElement; p && p.tagName !== 'MAIN'; p = p.parentElement)
        if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    return [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > vw + 1 && !scrolls(el))
      .slice(0, 6)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(el.getBoundingClientRect().right)}`);
  });
}

/**
 * Full-height screenshots at 1280 and 390 px (the app scrolls inside <main>, so the viewport is made
 * as tall as the page, at most 7,000 px), for a person to look at; each width is checked not to
 * scroll sideways. Leaves the viewport at 1280 × 800.
 */
export async function shootBoth(page: Page, name: string, widths: readonly number[] = [1280, 390]): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => sidewaysScroll(page), { message: `${name} at ${width} px scrolls sideways: ${(await widest(page)).join(', ')}` }).toBe(0);
    const height = await page.evaluate(() => Math.min(7000, document.querySelector('main')?.scrollHeight ?? 800));
    await page.setViewportSize({ width, height: Math.max(800, height + 40) });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
