/**
 * Prettier wraps code at 160 columns but leaves long strings, template literals and comments alone;
 * this test holds every line of `src` and `workers` to 160 characters so a reviewer never scrolls
 * sideways (issue #37). A long message is split into concatenated parts or built from named pieces.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const LIMIT = 160;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|svelte|js|mjs)$/.test(entry.name)) yield path;
  }
}

it(`no line of src or workers is longer than ${LIMIT} characters`, () => {
  const long: string[] = [];
  for (const dir of ['src', 'workers']) {
    for (const file of sourceFiles(join(ROOT, dir))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > LIMIT) long.push(`${relative(ROOT, file)}:${i + 1} (${line.length})`);
        });
    }
  }
  expect(long).toEqual([]);
});
