import { expect, type Locator } from '@playwright/test';
import { LabelPage } from './label-page';

/** Page object for the Memory page. */
export class MemoryPage extends LabelPage {
  /** A tool's tab by its exact name: the capability view's "Matrix" and "Leaderboards by facet" tabs also contain "A". */
  override tab(name: string): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  level(level: 'proficient' | 'good' | 'bad' | 'weak'): Locator {
    return this.page.getByTestId(`level-${level}`);
  }

  get entries(): Locator {
    return this.page.locator('button.entry');
  }

  /**
   * Imports a CSV through the dialog as a generic file on the 1–5 scale, with its `id` column as the
   * task id (tests/fixtures/e2e/capability.csv by default: 60 tasks × tools A, B, C, where A is weak
   * and B strong on the 20 `negation` tasks — effects a capability build finds). Returns the
   * number of rows added, as the result shows it.
   */
  async importScoredCsv(path = 'tests/fixtures/e2e/capability.csv', name = 'Capability'): Promise<string> {
    await this.open('data');
    await this.openImport();
    await this.chooseFile(path);
    await this.mapColumn('id', 'id');
    await this.dialog.getByLabel('Dataset name').fill(name);
    await this.setScale('1', '5');
    const added = (await (await this.runImport()).getByTestId('count-added').textContent()) ?? '';
    await this.dialog.getByRole('button', { name: 'Done' }).click();
    return added;
  }

  async build(): Promise<void> {
    await this.page.getByRole('button', { name: 'Build memory' }).click();
  }

  /** Waits for the build to finish: its progress panel gone and entries shown (model loading can be slow on a busy machine). */
  async waitBuilt(): Promise<void> {
    // Every tool of a capability build has its overall profile, even one without a claim.
    await expect(this.entries.or(this.page.getByTestId('profile')).first()).toBeVisible({ timeout: 120_000 });
    await expect(this.page.getByTestId('build-progress')).toHaveCount(0, { timeout: 120_000 });
  }

  /** What the page shows per tool tab: level → sorted entry texts. */
  async shownEntries(): Promise<Record<string, Record<string, string[]>>> {
    const out: Record<string, Record<string, string[]>> = {};
    const tabs = this.page.getByRole('tablist', { name: 'Tools' }).getByRole('tab');
    for (const tool of await tabs.allTextContents()) {
      await tabs.filter({ hasText: tool }).first().click();
      await expect(tabs.filter({ hasText: tool }).first()).toHaveAttribute('aria-selected', 'true');
      // The page reads a tool level by level: wait until no level still says "Loading…".
      for (const level of ['proficient', 'good', 'bad', 'weak'] as const) await expect(this.level(level).getByText('Loading…')).toHaveCount(0);
      const levels: Record<string, string[]> = {};
      for (const level of ['proficient', 'good', 'bad', 'weak'] as const) {
        const count = Number(await this.level(level).locator('h3 .muted').textContent());
        const texts = (await this.level(level).locator('button.entry > span.user-text').allTextContents()).sort();
        expect(texts).toHaveLength(count);
        levels[level] = texts;
      }
      out[tool] = levels;
    }
    return out;
  }

  /** Clicks Export JSON and returns the downloaded file's path and text. */
  async exportMemory(saveAs: string): Promise<string> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('button', { name: 'Export JSON' }).click();
    const file = await download;
    await file.saveAs(saveAs);
    return Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
  }

  get importPanel(): Locator {
    return this.page.getByTestId('memory-import').first();
  }

  /** Chooses a memory file; resolves once the worker has checked it (plan or problems shown). */
  async chooseMemoryFile(path: string): Promise<void> {
    await this.importPanel.getByLabel('Import memory file').setInputFiles(path);
    await expect(this.importPanel.getByTestId('memory-import-plan').or(this.importPanel.getByTestId('memory-import-issues'))).toBeVisible();
  }

  /** Imports a memory file as a new memory. */
  async importMemoryFile(path: string): Promise<void> {
    await this.chooseMemoryFile(path);
    await this.importPanel.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(this.page.getByRole('status').filter({ hasText: 'Imported ' })).toBeVisible();
  }

  /** Valid entries of every memory, read straight from IndexedDB: memory id → sorted lines. */
  async storedMemories(): Promise<Record<string, string[]>> {
    return this.page.evaluate(
      () =>
        new Promise<Record<string, string[]>>((resolve, reject) => {
          const open = indexedDB.open('toolmem');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(['entries'], 'readonly');
            const entries = tx.objectStore('entries').getAll();
            tx.oncomplete = () => {
              const out: Record<string, string[]> = {};
              for (const e of entries.result as { memoryId: string; toolId: string; level: string; text: string; validTo: number | null }[]) {
                if (e.validTo !== null) continue;
                (out[e.memoryId] ??= []).push(`${e.toolId}|${e.level}|${e.text}`);
              }
              for (const k of Object.keys(out)) out[k]!.sort();
              open.result.close();
              resolve(out);
            };
          };
        }),
    );
  }
}
