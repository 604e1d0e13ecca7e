import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';

// Benchmarks build extra pages (bench/*.html) into their own folder; the app build never ships them.
const BENCH = process.env.BENCH === '1';

// One config for the app build, the preview server and Vitest (unit tests run in Node).
export default defineConfig({
  plugins: [
    svelte(),
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
        // The app shell and everything it needs offline; demo data and models are large but must
        // work offline too, so they are precached as well (limit raised accordingly).
        // `mjs` + `wasm`: onnxruntime-web's runtime (ort-wasm-simd-threaded.asyncify.*, ~27 MB, emitted by
        // the `?url` imports in src/services/embed-browser.ts) so that embeddings work offline.
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,ico,webmanifest,json,csv,wasm,onnx}'],
        maximumFileSizeToCacheInBytes: 30 * 1024 * 1024,
        navigateFallback: 'index.html',
      },
    }),
  ],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    outDir: BENCH ? 'dist-bench' : 'dist',
    ...(BENCH ? { rollupOptions: { input: { main: 'index.html', importBench: 'bench/import.html', embedBench: 'bench/embed.html', memoryBench: 'bench/memory.html', scaleBench: 'bench/scale.html' } } } : {}),
  },
  preview: { port: 4173, strictPort: false, host: '127.0.0.1' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
