import { expect, type Locator, type Page } from '@playwright/test';
import { LabelPage } from './label-page';

/** Page object for the Memory page. */
export class MemoryPage extends LabelPage {
  constructor(page: Page) {
    super(page);
  }

  level(level: 'proficient' | 'good' | 'bad' | 'weak'): Locator {
    return this.page.getByTestId(`level-${level}`);
  }

  get entries(): Locator {
    return this.page.locator('button.entry');
  }

  async build(): Promise<void> {
    await this.page.getByRole('button', { name: 'Build memory' }).click();
  }

  /** Waits for the build to finish: its progress panel gone and entries shown (model loading can be slow on a busy machine). */
  async waitBuilt(): Promise<void> {
    await expect(this.entries.first()).toBeVisible({ timeout: 120_000 });
    await expect(this.page.getByTestId('build-progress')).toHaveCount(0, { timeout: 120_000 });
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
