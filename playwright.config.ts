import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

// Debian's Chromium when present (CI and these machines cannot download Playwright's browsers);
// otherwise Playwright's own browser for developers who installed it.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined);
const PORT = Number(process.env.E2E_PORT ?? 4317);
// Several builds can be tested side by side: `vite build --outDir dist-x` then E2E_DIST=dist-x.
const DIST = process.env.E2E_DIST ?? 'dist';

export default defineConfig({
  testDir: 'tests/e2e',
  // Generous: some flows (demo import, memory builds, evaluations) run real work on a 2-core machine.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'allow',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  // The production build, served the way `npm start` serves it.
  webServer: {
    command: `node scripts/serve.mjs --port ${PORT} --dir ${DIST}`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
