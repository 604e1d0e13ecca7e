import { expect, type Locator } from '@playwright/test';
import { MemoryPage } from './memory-page';

/** Page object for the capability parts of the Memory, Predict and Tools pages (issue #15). */
export class CapabilityPage extends MemoryPage {
  /** The Memory page's "Build a memory" panel. */
  readonly buildPanel = this.page.getByRole('region', { name: 'Build a memory' });
  readonly matrix = this.page.getByTestId('capability-matrix');

  /** The focusable matrix (arrow keys move a cell cursor, Enter opens the cell). */
  readonly grid = this.page.getByRole('application', { name: 'Capability matrix' });
  readonly tooltip = this.page.getByRole('tooltip');
  readonly cellPanel = this.page.getByTestId('cell-panel');
  readonly sharedNote = this.page.getByTestId('shared-note');

  /** How long the canvas took to paint, as the component measured it (ms). */
  async drawMs(): Promise<number> {
    return Number(await this.matrix.locator('canvas').getAttribute('data-draw-ms'));
  }

  /**
   * Points at a cell of the last row with the mouse, from the right end of what is visible
   * leftwards (the canvas can be wider than its scrolling region, and a point can fall into the
   * gap between two kinds of facets); returns once the tooltip shows.
   */
  async hoverACell(): Promise<void> {
    await this.grid.scrollIntoViewIfNeeded();
    const canvas = (await this.matrix.locator('canvas').boundingBox())!;
    const region = (await this.grid.locator('..').boundingBox())!;
    const right = Math.min(canvas.x + canvas.width, region.x + region.width);
    for (let dx = 10; dx < 200; dx += 7) {
      await this.page.mouse.move(right - dx, canvas.y + canvas.height - 10);
      // The tooltip follows the pointer on the next frame: give it a moment before the next point.
      const shown = await this.tooltip
        .waitFor({ state: 'visible', timeout: 500 })
        .then(() => true)
        .catch(() => false);
      if (shown) return;
    }
    throw new Error('no tooltip over the matrix');
  }

  /**
   * Walks the matrix with the keyboard, row by row, until the tooltip says the cell has an entry,
   * then opens it with Enter. Returns the tooltip's first line ("tool · facet (kind)").
   */
  async openCellWithEntry(): Promise<string> {
    await this.grid.focus();
    const { rows, cols } = await this.size();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if ((await this.tooltip.textContent())?.includes('An entry was written')) {
          const head = (await this.tooltip.locator('b').textContent())!;
          await this.page.keyboard.press('Enter');
          await expect(this.cellPanel).toBeVisible();
          return head;
        }
        await this.page.keyboard.press('ArrowRight');
      }
      await this.page.keyboard.press('Home');
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error('no cell of the matrix has an entry');
  }

  /** Rows and columns, from the caption ("6 tools × 24 facets · …"). */
  async size(): Promise<{ rows: number; cols: number }> {
    const m = /(\d+) tools? × (\d+) facets?/.exec((await this.matrix.locator('figcaption').textContent()) ?? '');
    if (!m) throw new Error('the matrix caption gives no size');
    return { rows: Number(m[1]), cols: Number(m[2]) };
  }

  /** The Predict page's prediction card of one tool. */
  prediction(tool: string): Locator {
    return this.page.getByTestId('predictions').getByRole('article').filter({ has: this.page.getByRole('heading', { name: tool, exact: true }) });
  }

  async predict(prompt: string, method: string): Promise<void> {
    await this.page.getByLabel('Prediction method').selectOption(method);
    await this.page.getByRole('textbox', { name: 'Task', exact: true }).fill(prompt);
    await this.page.getByRole('button', { name: /^Predict/ }).click();
    await expect(this.page.getByTestId('predictions')).toBeVisible({ timeout: 120_000 });
  }
}
