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
  /** The plain paragraph the Memory page leads with, and its folded details. */
  readonly summary = this.page.getByRole('region', { name: 'In short' });
  readonly details = this.page.getByTestId('memory-details');
  /** The whole name of the matrix column pointed at (the rotated names are cut). */
  readonly columnName = this.page.getByTestId('matrix-column');
  /** The matrix on a phone: facets down the side, tools across. */
  readonly phoneMatrix = this.page.getByTestId('matrix-phone');

  /** How long the canvas took to paint, as the component measured it (ms). */
  async drawMs(): Promise<number> {
    return Number(await this.matrix.locator('canvas').getAttribute('data-draw-ms'));
  }

  /**
   * Points at a cell of the last row with the mouse, from the right end of what is visible
   * leftwards (the canvas can be wider than its scrolling region, and a point can fall into the
   * gap between two kinds of facets); returns the point once the tooltip shows. A tooltip put away
   * (a click, Escape) comes back only on another cell, so this moves on until one shows.
   */
  async hoverACell(): Promise<{ x: number; y: number }> {
    await this.grid.scrollIntoViewIfNeeded();
    const canvas = (await this.matrix.locator('canvas').boundingBox())!;
    const region = (await this.grid.locator('..').boundingBox())!;
    const right = Math.min(canvas.x + canvas.width, region.x + region.width);
    for (let dx = 10; dx < 200; dx += 7) {
      const at = { x: right - dx, y: canvas.y + canvas.height - 10 };
      await this.page.mouse.move(at.x, at.y);
      // The tooltip follows the pointer on the next frame: give it a moment before the next point.
      const shown = await this.tooltip
        .waitFor({ state: 'visible', timeout: 500 })
        .then(() => true)
        .catch(() => false);
      if (shown) return at;
    }
    throw new Error('no tooltip over the matrix');
  }

  /**
   * Walks the matrix with the keyboard, row by row, until the tooltip says the cell has an entry,
   * then opens it with Enter. Returns the tooltip's first line ("tool · facet (kind)").
   */
  async openCellWithEntry(): Promise<string> {
    await this.grid.focus();
    // From the first cell, wherever an earlier click left the cursor.
    await this.page.keyboard.press('PageUp');
    await this.page.keyboard.press('Home');
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

  /** Scrolls the page (it scrolls inside <main>) until the matrix's last row sits at the window's bottom edge. */
  async matrixAtWindowBottom(): Promise<void> {
    await this.matrix.locator('canvas').evaluate((canvas) => {
      document.querySelector('main')!.scrollTop += canvas.getBoundingClientRect().bottom - (window.innerHeight - 12);
    });
  }

  /** Whether a box lies wholly inside the window (1 px of rounding allowed). */
  async insideWindow(locator: Locator): Promise<boolean> {
    const box = (await locator.boundingBox())!;
    const { width, height } = this.page.viewportSize()!;
    return box.x >= -1 && box.y >= -1 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1;
  }

  /** Rows and columns, from the caption ("6 tools × 24 facets · …"). */
  async size(): Promise<{ rows: number; cols: number }> {
    const m = /(\d+) tools? × (\d+) facets?/.exec((await this.matrix.locator('figcaption').textContent()) ?? '');
    if (!m) throw new Error('the matrix caption gives no size');
    return { rows: Number(m[1]), cols: Number(m[2]) };
  }

  /** The Memory page's overall profile of the tool whose tab is open. */
  readonly profile = this.page.getByTestId('profile');
  /** The folded "Tentative (not claims)" group of the open tool (absent when it has none). */
  readonly tentative = this.page.getByTestId('tentative');

  /** The tools' tabs on the Memory page. */
  get toolTabs(): Locator {
    return this.page.getByRole('tablist', { name: 'Tools' }).getByRole('tab');
  }

  /** Opens a tool's tab and waits until every level is read. */
  async openTool(tool: string): Promise<void> {
    await this.toolTabs.filter({ hasText: tool }).first().click();
    await expect(this.toolTabs.filter({ hasText: tool }).first()).toHaveAttribute('aria-selected', 'true');
    for (const level of ['proficient', 'good', 'bad', 'weak'] as const) await expect(this.level(level).getByText('Loading…')).toHaveCount(0);
  }

  /** Texts of the open tool's entries in the four levels (the claims), and of its tentative group. */
  async claimsAndTentative(): Promise<{ claims: string[]; tentative: string[] }> {
    const claims: string[] = [];
    for (const level of ['proficient', 'good', 'bad', 'weak'] as const)
      claims.push(...(await this.level(level).locator('button.entry > span.user-text').allTextContents()));
    const tentative = (await this.tentative.count()) ? await this.tentative.locator('button.entry > span.user-text').allTextContents() : [];
    return { claims, tentative };
  }

  /**
   * The Predict page's contribution lines of one tool that are memory entries: the entry's text,
   * signed points, and how likely its facet is when read from the text (null: the facet surely applies).
   */
  async entryContributions(tool: string): Promise<{ text: string; points: number; likely: number | null }[]> {
    const rows = this.prediction(tool).locator('[data-testid="contribution"][data-kind="entry"]');
    const out: { text: string; points: number; likely: number | null }[] = [];
    for (const row of await rows.all()) {
      const text = (await row.locator('.text .user-text').textContent())!.trim();
      const points = Number((await row.locator('.pts').textContent())!.trim().replace('−', '-'));
      const prob = row.getByTestId('facet-probability');
      const likely = (await prob.count()) ? Number(/(\d+)% likely/.exec((await prob.textContent())!)![1]) : null;
      out.push({ text, points, likely });
    }
    return out;
  }

  /** The facet view beside the matrix (issue #34): its tab, the leaderboard shown and its rows. */
  readonly boardsTab = this.page.getByRole('tab', { name: /^Leaderboards by facet/ });
  readonly boards = this.page.getByTestId('facet-leaderboards');
  readonly boardRows = this.page.getByTestId('leaderboard-row');

  /** Opens the facet view with the keyboard (arrow keys move between the view tabs) and waits for a board. */
  async openBoards(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Matrix', exact: true }).focus();
    await this.page.keyboard.press('ArrowRight');
    await expect(this.boardsTab).toHaveAttribute('aria-selected', 'true');
    await expect(this.boardsTab).toBeFocused();
    await expect(this.boardRows.first()).toBeVisible();
  }

  /** Shows the leaderboard of the facet whose option label starts with `label`. */
  async showBoard(label: RegExp): Promise<void> {
    const select = this.boards.getByLabel('Leaderboard of');
    const value = await select.locator('option').filter({ hasText: label }).first().getAttribute('value');
    await select.selectOption(value!);
  }

  /** The Predict page's prediction card of one tool. */
  prediction(tool: string): Locator {
    return this.page
      .getByTestId('predictions')
      .getByRole('article')
      .filter({ has: this.page.getByRole('heading', { name: tool, exact: true }) });
  }

  async predict(prompt: string, method: string): Promise<void> {
    await this.page.getByLabel('Prediction method').selectOption(method);
    await this.page.getByRole('textbox', { name: 'Task', exact: true }).fill(prompt);
    await this.page.getByRole('button', { name: /^Predict/ }).click();
    await expect(this.page.getByTestId('predictions')).toBeVisible({ timeout: 120_000 });
  }
}
