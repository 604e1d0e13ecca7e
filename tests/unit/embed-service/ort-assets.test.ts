/**
 * The browser worker serves onnxruntime-web's WASM runtime itself (`?url` imports in
 * src/model-host/embed-browser.ts, resolved from the repository root). That runtime must be the exact
 * build whose JavaScript transformers.js bundles, or the two would not fit together.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../../..');
const fromRepo = createRequire(join(REPO, 'package.json'));
/** The folder of a package (its `exports` may hide package.json): two levels above its `dist/` entry. */
const packageDir = (req: NodeRequire, name: string) => dirname(dirname(req.resolve(name)));
const transformersDir = packageDir(fromRepo, '@huggingface/transformers');
const fromTransformers = createRequire(join(transformersDir, 'package.json'));

describe('onnxruntime-web runtime files', () => {
  it('the app and transformers.js resolve the same onnxruntime-web', () => {
    expect(packageDir(fromRepo, 'onnxruntime-web')).toBe(packageDir(fromTransformers, 'onnxruntime-web'));
  });

  it('has the asyncify build the worker imports; it is cached on first use, not precached', () => {
    const dist = join(packageDir(fromRepo, 'onnxruntime-web'), 'dist');
    for (const file of ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm']) {
      expect(existsSync(join(dist, file)), file).toBe(true);
    }
    const source = readFileSync(join(REPO, 'src/model-host/embed-browser.ts'), 'utf8');
    expect(source).toContain("'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url'");
    expect(source).toContain("'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url'");
    // ~27 MB: the precache holds only the shell; hashed /assets/ files (this one too) are cached
    // the first time they are fetched (runtimeCaching, CacheFirst), then work offline.
    const config = readFileSync(join(REPO, 'vite.config.ts'), 'utf8');
    const patterns = /globPatterns:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? '';
    expect(patterns).not.toMatch(/wasm/);
    expect(config).toMatch(/\\\/assets\\\/\[\^\/\]\+\$\/[\s\S]*?handler: 'CacheFirst'/);
  });
});
