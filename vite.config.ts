import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { availableParallelism } from 'node:os';

/**
 * `BENCH=1 vite build --outDir DIR` builds the benchmark pages (bench/*.html) on their own, into
 * DIR/bench/, beside an app build already in DIR (bench/drivers/common.mjs does both): the pages
 * share the app's origin and database, while the app stays byte for byte the shipped build. Built
 * as entries of the app build, they were merged into its one first-load chunk (APP_OUTPUT) and ran
 * the app's entry, which throws on a page without #app. The app build never ships them.
 */
const BENCH = process.env.BENCH === '1';
const BENCH_PAGES = { importBench: 'bench/import.html', embedBench: 'bench/embed.html', memoryBench: 'bench/memory.html', scaleBench: 'bench/scale.html' };
/** Where scripts go: the bench pages' own files stay apart from the app's they sit beside. */
const ASSETS = BENCH ? 'bench/assets' : 'assets';
/** File-name prefix of the worker chunks that hold in-browser LLM libraries (cached on first use). */
const MODEL_CHUNK_PREFIX = 'llm-lib-';

/**
 * Everything the first load needs (the entry's static imports: Svelte, Dexie, the shell, the Data
 * page) is one chunk rather than the ~18 small ones the automatic split makes of it: on a slow
 * phone network each is one more request the first paint waits for. The other pages and their
 * libraries (chart.js, zod, the import code) keep chunks of their own, loaded when first shown.
 */
const APP_OUTPUT = {
  codeSplitting: { groups: [{ name: 'app', tags: ['$initial' as const] }] },
};

// One config for the app build, the preview server and Vitest (unit tests run in Node).
export default defineConfig({
  plugins: [
    svelte(),
    // Not for the bench pages: it would write its service worker and manifest over the app's.
    !BENCH &&
      VitePWA({
        registerType: 'autoUpdate',
        injectRegister: null, // registered by src/ui/pwa.ts so the UI can show update/offline state
        includeAssets: ['icons/*.svg', 'icons/*.png'],
        manifest: {
          name: 'ToolMem Studio',
          short_name: 'ToolMem',
          description: 'Learn from evidence what each AI tool is good and bad at — locally in your browser.',
          theme_color: '#3b5bdb',
          background_color: '#111418',
          display: 'standalone',
          start_url: './',
          scope: './',
          icons: [
            { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          ],
        },
        workbox: {
          // Precached up front: only the app shell — the HTML, the styles, the icons and the app's own
          // scripts (every page's chunk and the worker scripts), a few MB. The large files are cached on
          // first use instead and then work offline too: onnxruntime's WASM (~27 MB) and the bundled
          // embedding model (the first time embeddings run), the in-browser LLM libraries (the first
          // time one is loaded) and the demo files (the first time the demo is loaded).
          globPatterns: ['index.html', 'zod-jitless.js', 'manifest.webmanifest', 'icons/*.{svg,png}', 'assets/*.{js,css}'],
          globIgnores: [`assets/${MODEL_CHUNK_PREFIX}*`],
          navigateFallback: 'index.html',
          runtimeCaching: [
            // Hashed build outputs never change: the cached copy is always right.
            {
              urlPattern: ({ url, sameOrigin }) => sameOrigin && /\/assets\/[^/]+$/.test(url.pathname),
              handler: 'CacheFirst',
              options: { cacheName: 'toolmem-assets', cacheableResponse: { statuses: [200] } },
            },
            // Bundled model and demo files keep their names across releases: serve the cached copy (so
            // offline works) and refresh it in the background when online.
            {
              urlPattern: ({ url, sameOrigin }) => sameOrigin && /\/(models|demo)\/.+$/.test(url.pathname),
              handler: 'StaleWhileRevalidate',
              options: { cacheName: 'toolmem-data', cacheableResponse: { statuses: [200] } },
            },
          ],
        },
      }),
  ],
  worker: {
    format: 'es',
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // The in-browser LLM libraries (web-llm ~6 MB, wllama) get a recognisable name so that the
      // service worker caches them on first use instead of precaching them.
      output: {
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => /node_modules[\\/](@mlc-ai|@wllama)[\\/]/.test(id))
            ? `${ASSETS}/${MODEL_CHUNK_PREFIX}[name]-[hash].js`
            : `${ASSETS}/[name]-[hash].js`,
      },
    },
  },
  build: {
    target: 'es2022',
    // One stylesheet, linked from index.html (the components' styles are scoped, ~15 kB gzipped in
    // all): a page chunk's own CSS files were appended as <link>s when it loaded, ~35 ms of main
    // thread on a phone for the Data page's eight, in the task before its first paint.
    cssCodeSplit: false,
    // A page's chunk (a dynamic import) gets no <link rel=modulepreload> per dependency: the browser
    // fetches the same static imports in parallel as soon as the page's chunk is parsed.
    modulePreload: { resolveDependencies: (_file, deps, ctx) => (ctx.hostType === 'html' ? deps : []) },
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    // Rolldown's plugin-timing report is for profiling the build, not for everyone who builds.
    rolldownOptions: { checks: { bundlerTimings: false }, output: APP_OUTPUT },
    outDir: BENCH ? 'dist-bench' : 'dist',
    // The bench pages: Rolldown's automatic split (each page loads what it imports), added to the app's folder.
    ...(BENCH ? { rolldownOptions: { checks: { bundlerTimings: false }, input: BENCH_PAGES }, emptyOutDir: false, assetsDir: ASSETS } : {}),
  },
  preview: { port: 4173, strictPort: false, host: '127.0.0.1' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // A fixture server or a CLI child starts in well under a second, but a loaded 2-core machine can
    // take ten (the default hook limit): a wait, not a timing goal.
    hookTimeout: 60_000,
    // Vitest's default is one worker per core but one (so a single worker on CI's 2 cores). Two
    // there: much of a file's time is importing modules and waiting on the CLI tests' child
    // processes, which overlap well (unit suite 266 → 200 s on the 2-core CI kind).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
