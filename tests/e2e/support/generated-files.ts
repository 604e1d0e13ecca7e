import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORDS = (
  'red blue green small large old young quiet busy bright dark wooden glass metal cat dog horse bird child ' +
  'woman man robot car bicycle train bridge river mountain forest city street market kitchen window table chair lamp book ' +
  'cup flower tree cloud sun moon star ocean beach boat castle tower garden painting standing sitting running holding'
).split(' ');

/** Deterministic words for row `i` (so every run writes the same file). */
export function words(i: number, n = 6): string {
  const out: string[] = [];
  let x = (i + 1) * 2654435761;
  for (let k = 0; k < n; k++) {
    x = (x ^ (x >>> 13)) * 1274126177;
    out.push(WORDS[Math.abs(x) % WORDS.length]!);
  }
  return out.join(' ');
}

/** Writes `lines` as a file named `name` in a fresh temporary folder; returns its path. */
export function writeTemp(name: string, lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolmem-e2e-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Rows `from`…`to-1` of a generated generic CSV: id, prompt, tool, score (each id has `tools` rows). */
export function generatedCsv(from: number, to: number, opts: { tools?: number; prefix?: string } = {}): string[] {
  const tools = opts.tools ?? 4;
  const lines = ['id,prompt,tool,score'];
  for (let i = from; i < to; i++) {
    const task = Math.floor(i / tools);
    lines.push(`t${task},${opts.prefix ?? 'task'} ${task}: ${words(task)},tool-${i % tools},${1 + ((task * 7 + (i % tools) * 3) % 5)}`);
  }
  return lines;
}

/** Rows of every object store of the app's database, read straight from IndexedDB in the page. */
export const countStoreScript = (store: string) =>
  new Promise<number>((resolve, reject) => {
    const open = indexedDB.open('toolmem');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction([store], 'readonly').objectStore(store).count();
      req.onsuccess = () => {
        open.result.close();
        resolve(req.result);
      };
      req.onerror = () => reject(req.error);
    };
  });
